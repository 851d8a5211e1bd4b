package session

import (
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestStartBehindTheBoard: the daemon starts (or a board connects) with a
// record 1–3 plies behind what the board shows (moves made while nothing
// read the board, each pressed). The board's first full read catches the
// missing plies up when legal moves explain them, completed once the
// clock shows the side to move's time running; then the next move,
// made with a real hand (squares reported a scan apart, the lever pressed
// before the scan reports the last square, the clock read every second,
// the daemon ticking every 50 ms), is recorded too. Where the plies could
// have been played in another order (a transposition), the record may
// hold that order but the arbiter is told (ambiguous_move); no move is
// lost and no other alert is raised. Before: an empty record with the
// board two plies in recorded only e2e4 (e7e5 never completed, the next
// move lost), three plies in only g1f3.
func TestStartBehindTheBoard(t *testing.T) {
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"}
	for rec := 0; rec <= 3; rec++ {
		for ahead := 1; ahead <= 3; ahead++ {
			o := sessionOptions(t)
			s0, err := NewSession(o, nil, t0)
			if err != nil {
				t.Fatal(err)
			}
			play(t, s0, t0, line[:rec]...)
			at := t0.Add(time.Minute)
			s, err := NewSession(o, s0.Record(), at)
			if err != nil {
				t.Fatal(err)
			}
			pos := s.Tracker().Position()
			for _, u := range line[rec : rec+ahead] {
				pos = playUCIPos(t, pos, u)
			}
			var out []game.Payload
			feed := func(st Step) { out = append(out, st.Out...) }
			white, black := 5*time.Minute, 5*time.Minute
			run := pos.Turn()
			face := func(at time.Time) {
				f := game.ClockFace{Left: white, Right: black, LeftIs: rules.White, Running: game.LeftDisplay}
				if run == rules.Black {
					f.Running = game.RightDisplay
				}
				feed(s.Sense(at, f))
			}
			// until lets time pass to end: ticks every 50 ms, the clock's
			// reading every second.
			next := at
			until := func(end time.Time) {
				for ; !at.After(end); at = at.Add(50 * time.Millisecond) {
					if !at.Before(next) {
						face(at)
						next = next.Add(time.Second)
					}
					feed(s.Tick(at))
				}
			}
			feed(s.Sense(at, game.FullRead{Placement: pos.Placement()}))
			until(at.Add(1500 * time.Millisecond))
			// The next move: lifted, put down a scan later; the lever is
			// pressed 120 ms after the release, before the scan reports
			// the landing 60 ms later.
			u := line[rec+ahead]
			before := pos.Placement()
			pos = playUCIPos(t, pos, u)
			after := pos.Placement()
			diff := after.Diff(&before, nil)
			slices.SortFunc(diff, func(a, b rules.Square) int { // lifts first
				return boolInt(!after.Sq[a].IsEmpty()) - boolInt(!after.Sq[b].IsEmpty())
			})
			for i, sq := range diff {
				until(at.Add(220 * time.Millisecond))
				if i == len(diff)-1 {
					until(at.Add(-160 * time.Millisecond))
					run = run.Other()
					face(at)
					until(at.Add(180 * time.Millisecond))
				}
				feed(s.Sense(at, game.SquareChange{Square: sq, Piece: after.Sq[sq]}))
			}
			until(at.Add(5 * time.Second))

			got := s.Record().UCIs()
			ambiguous := false
			for _, p := range out {
				if a, ok := p.(game.Alert); ok {
					if a.Kind == game.KindAmbiguous {
						ambiguous = true
						continue
					}
					if a.Severity != game.Info {
						t.Errorf("record %d, board %d ahead: %s %s: %s", rec, ahead, a.Severity, a.Kind, a.Message)
					}
				}
			}
			want := line[:rec+ahead+1]
			switch {
			case slices.Equal(got, want):
			case len(got) == len(want) && got[len(got)-1] == u && ambiguous:
				// A transposition of the plies caught up, told the arbiter.
			default:
				t.Errorf("record %d, board %d ahead: record %v, want %v (ambiguous_move raised: %v)", rec, ahead, got, want, ambiguous)
			}
		}
	}
}

func playUCIPos(t *testing.T, p rules.Position, u string) rules.Position {
	t.Helper()
	m, err := p.ParseMove(u)
	if err != nil {
		t.Fatal(err)
	}
	next, err := p.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
