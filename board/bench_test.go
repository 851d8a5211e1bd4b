package board

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// timedMsg is one board message with the time it arrived.
type timedMsg struct {
	at time.Time
	m  dgt.Message
}

// recordEmulated plays moves on the emulated board with varied handling
// and returns what the board sent, with times (a recording).
func recordEmulated(t testing.TB, start rules.Position, moves []rules.Move, seed uint64) []timedMsg {
	t.Helper()
	e := emu.New(emu.Setup{Flicker: 0.01, Seed: seed}, t0)
	styles := []emu.Style{emu.Clean, emu.Slow, emu.CaptureFirst, emu.DestinationFirst}
	script, err := emu.GameScript(start, moves, emu.GameOptions{
		Think:    func(ply int) time.Duration { return time.Duration(200+(ply*137)%900) * time.Millisecond },
		Handling: func(ply int) emu.Handling { return emu.Handling{Style: styles[ply%len(styles)], Speed: 1.2} },
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []timedMsg
	playEmulated(t, e, script, 2*time.Second, func(at time.Time, m dgt.Message) { out = append(out, timedMsg{at, m}) })
	return out
}

// operaGame reads testdata/opera.pgn (Morphy's opera game, 1858).
func operaGame(t testing.TB) *pgn.Game {
	t.Helper()
	f, err := os.Open("testdata/opera.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := pgn.NewReader(f, pgn.ReaderOptions{}).Next()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// BenchmarkTrackerReplay replays a recorded game (the opera game on the
// emulated board: slides, captures, castling, flicker, clock) into a
// fresh tracker per iteration and reports the cost per sensor event
// (field updates, dumps and clock messages alike).
func BenchmarkTrackerReplay(b *testing.B) {
	g := operaGame(b)
	moves, _ := mainLine(b, g)
	rec := recordEmulated(b, g.Start, moves, 1)
	sensor := 0
	for _, r := range rec {
		if _, ok := r.m.(dgt.FieldUpdate); ok {
			sensor++
		}
	}
	start := chess.StartPosition(chess.Standard)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tr, err := New(TrackerOptions{Start: start})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for _, r := range rec {
			n += len(feed(tr, r.at, r.m))
		}
		n += len(tr.Finish(rec[len(rec)-1].at.Add(time.Minute)))
		if tr.Completed() != len(moves) {
			b.Fatalf("replay made %d plies, want %d", tr.Completed(), len(moves))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rec)), "ns/event")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(sensor), "ns/field-update")
}

// TestOperaGameReplay: the benchmark's recording reproduces the game.
func TestOperaGameReplay(t *testing.T) {
	g := operaGame(t)
	moves, want := mainLine(t, g)
	rec := recordEmulated(t, g.Start, moves, 1)
	tr, err := New(TrackerOptions{Start: g.Start})
	if err != nil {
		t.Fatal(err)
	}
	var evs []game.Event
	for _, r := range rec {
		evs = append(evs, feed(tr, r.at, r.m)...)
	}
	evs = append(evs, tr.Finish(rec[len(rec)-1].at.Add(time.Minute))...)
	if got := ucis(evs); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if tr.Position().Status() != rules.Checkmate {
		t.Fatalf("final status %v, want checkmate", tr.Position().Status())
	}
}
