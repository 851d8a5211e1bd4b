package board

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// longGame plays plies legal moves from the start, chosen by seed, none
// of them ending the game (quiet moves preferred, so that it lasts).
func longGame(t testing.TB, plies int, seed uint64) []rules.Move {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 13))
	var pos rules.Position = chess.StartPosition(chess.Standard)
	var moves []rules.Move
	var buf []rules.Move
	for len(moves) < plies {
		buf = pos.LegalMoves(buf[:0])
		r.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
		var next rules.Position
		for pass := 0; pass < 2 && next == nil; pass++ {
			for _, m := range buf {
				if pass == 0 && m.IsCapture() && r.IntN(4) != 0 {
					continue
				}
				p, err := pos.Play(m)
				if err != nil || p.Status() != rules.Ongoing {
					continue
				}
				next = p
				moves = append(moves, m)
				break
			}
		}
		if next == nil {
			t.Fatalf("seed %d: stuck after %d plies", seed, len(moves))
		}
		pos = next
	}
	return moves
}

// playPly feeds one ply to tr as a hand makes it (the squares that empty,
// then those that fill, 300 ms apart), then the mover's press, and lets
// the tracker's windows pass; it returns the time after it.
func playPly(tr *Tracker, at time.Time, before, after rules.Position, clock *game.ClockFace) time.Time {
	b, a := before.Placement(), after.Placement()
	var lifts, puts []game.SquareChange
	for sq := 0; sq < b.Geo.Size(); sq++ {
		switch {
		case b.Sq[sq] == a.Sq[sq]:
		case a.Sq[sq].IsEmpty() || !b.Sq[sq].IsEmpty():
			lifts = append(lifts, game.SquareChange{Square: rules.Square(sq)})
			if !a.Sq[sq].IsEmpty() {
				puts = append(puts, game.SquareChange{Square: rules.Square(sq), Piece: a.Sq[sq]})
			}
		default:
			puts = append(puts, game.SquareChange{Square: rules.Square(sq), Piece: a.Sq[sq]})
		}
	}
	until := func(end time.Time) {
		for {
			d, ok := tr.NextDeadline()
			if !ok || d.After(end) {
				return
			}
			tr.Tick(d)
		}
	}
	for _, c := range append(lifts, puts...) {
		at = at.Add(300 * time.Millisecond)
		until(at)
		tr.Sense(at, c)
	}
	at = at.Add(200 * time.Millisecond)
	until(at)
	if before.Turn() == rules.White {
		clock.Left, clock.Running = clock.Left-time.Second, game.RightDisplay
	} else {
		clock.Right, clock.Running = clock.Right-time.Second, game.LeftDisplay
	}
	tr.Sense(at, *clock)
	at = at.Add(2 * time.Second)
	until(at)
	return at
}

// heapPerTracker returns the live heap, per tracker, above base.
func heapPerTracker(base uint64, n int) int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return (int64(m.HeapAlloc) - int64(base)) / int64(n)
}

// TestTrackerMemoryBounded: a tracker's memory does not grow with the
// game's length (it once did: the search cache kept every expanded
// position's moves for the whole game). Trackers follow a 240-ply game;
// their heap per board is measured after 40, 120 and 240 plies.
func TestTrackerMemoryBounded(t *testing.T) {
	const boards, plies = 50, 240
	moves := longGame(t, plies, 7)
	start := chess.StartPosition(chess.Standard)
	positions := []rules.Position{start}
	for _, m := range moves {
		p, _ := positions[len(positions)-1].Play(m)
		positions = append(positions, p)
	}
	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	trs := make([]*Tracker, boards)
	clocks := make([]game.ClockFace, boards)
	ats := make([]time.Time, boards)
	for i := range trs {
		tr, err := New(TrackerOptions{Start: start})
		if err != nil {
			t.Fatal(err)
		}
		tr.SetClockSides(rules.White)
		trs[i], ats[i] = tr, t0
		clocks[i] = game.ClockFace{Left: 90 * time.Minute, Right: 90 * time.Minute, Running: game.LeftDisplay, LeftIs: rules.White}
		tr.Sense(t0, clocks[i])
	}
	at0 := heapPerTracker(m0.HeapAlloc, boards)
	per := map[int]int64{}
	for ply := 1; ply <= plies; ply++ {
		for i, tr := range trs {
			ats[i] = playPly(tr, ats[i], positions[ply-1], positions[ply], &clocks[i])
		}
		if ply == 40 || ply == 120 || ply == 240 {
			per[ply] = heapPerTracker(m0.HeapAlloc, boards)
		}
	}
	for _, tr := range trs {
		if got := len(tr.line.moves); got != plies || tr.line.done != plies-1 && tr.line.done != plies {
			t.Fatalf("the tracker followed %d plies (%d completed), want %d", got, tr.line.done, plies)
		}
	}
	t.Logf("heap per tracker: new %d B; after 40 plies %d B, 120 plies %d B, 240 plies %d B", at0, per[40], per[120], per[240])
	// What is left is the record itself (each ply's move, time and a
	// slot): some 50 B a ply.
	if grow := (per[240] - per[40]) / 200; grow > 100 {
		t.Errorf("a tracker grew by %d B a ply from ply 40 to 240", grow)
	}
	runtime.KeepAlive(trs)

	// Positions no longer kept are rebuilt when asked for: the record's,
	// and a reinstatement far back goes on from the right position.
	tr := trs[0]
	for _, ply := range []int{0, 1, 10, 100, 200, 239} {
		if got, want := tr.PositionAt(ply).FEN(), positions[ply].FEN(); got != want {
			t.Errorf("position after ply %d: %s, want %s", ply, got, want)
		}
	}
	evs, err := tr.Reinstate(ats[0], 30)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := evs[0].(game.Correction); !ok || c.Position.FEN() != positions[30].FEN() {
		t.Fatalf("reinstated %v", evs[0])
	}
	at := ats[0].Add(time.Second)
	tr.Sense(at, game.FullRead{Placement: positions[30].Placement()})
	for ply := 31; ply <= 40; ply++ {
		at = playPly(tr, at, positions[ply-1], positions[ply], &clocks[0])
	}
	if got := len(tr.line.moves); got != 40 || tr.PositionAt(40).FEN() != positions[40].FEN() {
		t.Errorf("after the reinstatement the tracker followed to ply %d: %s", got, tr.PositionAt(got).FEN())
	}
}
