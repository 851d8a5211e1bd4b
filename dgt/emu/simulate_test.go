package emu_test

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// opera is Morphy's Opera Game (Paris 1858), 33 plies with captures,
// castling and a mate.
var opera = []string{"e2e4", "e7e5", "g1f3", "d7d6", "d2d4", "c8g4", "d4e5", "g4f3", "d1f3", "d6e5",
	"f1c4", "g8f6", "f3b3", "d8e7", "b1c3", "c7c6", "c1g5", "b7b5", "c3b5", "c6b5", "c4b5", "b8d7",
	"e1c1", "a8d8", "d1d7", "d8d7", "h1d1", "e7e6", "b5d7", "f6d7", "b3b8", "d7b8", "d1d8"}

func operaScript(tb testing.TB) (emu.Script, rules.Placement) {
	start := chess.StartPosition(chess.Standard)
	var pos rules.Position = start
	var moves []rules.Move
	for _, u := range opera {
		m, err := pos.ParseMove(u)
		if err != nil {
			tb.Fatal(err)
		}
		moves = append(moves, m)
		if pos, err = pos.Play(m); err != nil {
			tb.Fatal(err)
		}
	}
	styles := []emu.Style{emu.Clean, emu.DestinationFirst, emu.CaptureFirst, emu.Slow}
	s, err := emu.GameScript(start, moves, emu.GameOptions{
		Handling: func(ply int) emu.Handling { return emu.Handling{Style: styles[ply%4], RookFirst: ply%3 == 0} },
	})
	if err != nil {
		tb.Fatal(err)
	}
	return s, pos.Placement()
}

// TestSimulateRecordsAGame: the simulated byte stream of a whole game,
// decoded with package dgt, rebuilds the final position, and its chunk
// times are ordered.
func TestSimulateRecordsAGame(t *testing.T) {
	s, final := operaScript(t)
	e := emu.New(emu.Setup{Clock: emu.ClockSetting{Base: 10 * time.Minute, Increment: 5 * time.Second}}, t0)
	rec := simulate(e, t0, []byte{0x4B, 0x42}, s, 2*time.Second)
	var all []byte
	for i, c := range rec {
		if i > 0 && c.At.Before(rec[i-1].At) {
			t.Fatalf("chunk %d at %v before chunk %d at %v", i, c.At, i-1, rec[i-1].At)
		}
		all = append(all, c.Bytes...)
	}
	var fields [64]dgt.PieceCode
	clocks := 0
	for _, m := range decode(t, dgt.SingleBoard, all) {
		switch m := m.(type) {
		case dgt.BoardDump:
			fields = m.Fields
		case dgt.FieldUpdate:
			fields[m.Field] = m.Piece
		case dgt.ClockTimes:
			clocks++
		}
	}
	d := dgt.BoardDump{Fields: fields}
	if got := d.Placement(dgt.Normal); got != final {
		t.Fatalf("replayed %s, want %s", got.String(), final.String())
	}
	if dur := s.Duration(); clocks < int(dur/time.Second)/2 {
		t.Fatalf("%d clock messages over %v of play", clocks, dur)
	}
}

// BenchmarkSimulateGame measures corpus generation: one 33-ply game with
// clock, simulated and recorded.
func BenchmarkSimulateGame(b *testing.B) {
	s, _ := operaScript(b)
	b.ReportAllocs()
	for b.Loop() {
		e := emu.New(emu.Setup{}, t0)
		simulate(e, t0, []byte{0x4B, 0x42}, s, time.Second)
	}
}

// BenchmarkLinePoll measures one bus exchange on a 32-board line:
// SEND_CHANGES to one board and its reply on the wire.
func BenchmarkLinePoll(b *testing.B) {
	l := newLine(32)
	now := t0
	cmd := busCmd(0x83, 1017)
	b.ReportAllocs()
	for b.Loop() {
		l.Input(now, cmd)
		now = now.Add(20 * time.Millisecond)
		l.Advance(now)
		if len(l.Output()) == 0 {
			b.Fatal("no reply")
		}
	}
}
