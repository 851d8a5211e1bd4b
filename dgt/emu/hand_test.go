package emu_test

import (
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// playOn makes move (UCI/SAN) in fen on an emulator set up with fen's
// placement, and returns the field updates, the final placement, and the
// expected placement after the move.
func playOn(t *testing.T, v chess.Variant, fen, move string, h emu.Handling) (updates []string, got, want rules.Placement) {
	t.Helper()
	pos, err := chess.NewPosition(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseMove(move)
	if err != nil {
		t.Fatal(err)
	}
	next, err := pos.Play(m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := emu.MoveScript(pos, m, h)
	if err != nil {
		t.Fatal(err)
	}
	pl := pos.Placement()
	e := emu.New(emu.Setup{Placement: &pl}, t0)
	now := t0
	e.Input(now, []byte{0x44})
	e.Output()
	e.Schedule(now, s)
	updates = fieldUpdates(decode(t, dgt.SingleBoard, step(e, &now, s.Duration()+time.Second)))
	return updates, e.Placement(), next.Placement()
}

func TestHandMoves(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    chess.Variant
		fen  string
		move string
		h    emu.Handling
		want []string // field updates, in order; nil: do not check
	}{
		{"clean", chess.Standard, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", emu.Handling{}, []string{"e2 .", "e4 P"}},
		{"capture clean: own piece lifted first", chess.Standard, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", emu.Handling{}, []string{"e4 .", "d5 .", "d5 P"}},
		{"capture first", chess.Standard, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", emu.Handling{Style: emu.CaptureFirst}, []string{"d5 .", "e4 .", "d5 P"}},
		{"en passant clean", chess.Standard, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", emu.Handling{}, []string{"e5 .", "d6 P", "d5 ."}},
		{"castling king first", chess.Standard, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", emu.Handling{}, []string{"e1 .", "g1 K", "h1 .", "f1 R"}},
		{"castling rook first", chess.Standard, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", emu.Handling{RookFirst: true}, []string{"a1 .", "d1 R", "e1 .", "c1 K"}},
		{"promotion", chess.Standard, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", emu.Handling{}, []string{"b7 .", "b8 N"}},
		{"slow slide", chess.Standard, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a4", emu.Handling{Style: emu.Slow}, []string{"a1 .", "a2 R", "a2 .", "a3 R", "a3 .", "a4 R"}},
		{"chess960 king onto rook square", chess.Chess960, "1r2k3/8/8/8/8/8/8/1RK5 w Bb - 0 1", "O-O-O", emu.Handling{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			updates, got, want := playOn(t, tc.v, tc.fen, tc.move, tc.h)
			if got != want {
				t.Fatalf("board after the script %s, want %s", got.String(), want.String())
			}
			if tc.want != nil && !slices.Equal(updates, tc.want) {
				t.Fatalf("updates %v, want %v", updates, tc.want)
			}
		})
	}
}

func TestDestinationFirstHappensWithinAScan(t *testing.T) {
	s, err := emu.MoveScript(chess.StartPosition(chess.Standard), mustMove(t, chess.StartPosition(chess.Standard), "g1f3"), emu.Handling{Style: emu.DestinationFirst})
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Duration(); d >= emu.DefaultScanPeriod/2 {
		t.Fatalf("destination-first script lasts %v, not well within a scan", d)
	}
}

func mustMove(t *testing.T, p rules.Position, s string) rules.Move {
	t.Helper()
	m, err := p.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGameScriptPlaysAGameWithClock(t *testing.T) {
	start := chess.StartPosition(chess.Standard)
	var moves []rules.Move
	pos := rules.Position(start)
	for _, u := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6"} {
		m := mustMove(t, pos, u)
		moves = append(moves, m)
		next, err := pos.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		pos = next
	}
	styles := []emu.Style{emu.Clean, emu.Slow, emu.CaptureFirst, emu.DestinationFirst}
	s, err := emu.GameScript(start, moves, emu.GameOptions{
		Think:    func(ply int) time.Duration { return time.Duration(ply) * 100 * time.Millisecond },
		Handling: func(ply int) emu.Handling { return emu.Handling{Style: styles[ply%4], RookFirst: ply%2 == 1} },
	})
	if err != nil {
		t.Fatal(err)
	}
	e := emu.New(emu.Setup{Clock: emu.ClockSetting{Base: 5 * time.Minute}}, t0)
	now := t0
	e.Input(now, []byte{0x4B})
	e.Schedule(now, s)
	msgs := decode(t, dgt.SingleBoard, step(e, &now, s.Duration()+time.Second))
	if got, want := e.Placement(), pos.Placement(); got != want {
		t.Fatalf("after the game %s, want %s", got.String(), want.String())
	}
	presses := 0
	for _, a := range s {
		if a.Kind == emu.Press {
			presses++
		}
	}
	if presses != len(moves)+1 {
		t.Fatalf("%d presses for %d moves, want one per move plus the start", presses, len(moves))
	}
	c := e.Clock(now)
	if c.Running != emu.Left || c.Lever != emu.Right {
		t.Fatalf("after Black's 5th move (white on the left) clock %+v, want white (left) running", c)
	}
	if fieldUpdates(msgs) == nil {
		t.Fatal("no field updates for a whole game")
	}
}

func TestResultGesture(t *testing.T) {
	pos, err := chess.NewPosition(chess.Standard, "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ result, wk, bk string }{
		{emu.WhiteWins, "e4", "d5"},
		{emu.BlackWins, "d4", "e5"},
		{emu.Draw, "d4", "d5"},
	} {
		t.Run(tc.result, func(t *testing.T) {
			pl := pos.Placement()
			s, err := emu.ResultGesture(&pl, tc.result, 2)
			if err != nil {
				t.Fatal(err)
			}
			e := emu.New(emu.Setup{Placement: &pl}, t0)
			e.Schedule(t0, s)
			e.Advance(t0.Add(s.Duration()))
			got := e.Placement()
			if got.Sq[sq(t, tc.wk)] != (rules.Piece{Color: rules.White, Kind: rules.King}) ||
				got.Sq[sq(t, tc.bk)] != (rules.Piece{Color: rules.Black, Kind: rules.King}) {
				t.Fatalf("after gesture %s: %s", tc.result, got.String())
			}
			kings := 0
			for _, p := range got.Sq {
				if p.Kind == rules.King {
					kings++
				}
			}
			if kings != 2 {
				t.Fatalf("%d kings on the board after the gesture", kings)
			}
		})
	}
	if _, err := emu.ResultGesture(&rules.Placement{Geo: rules.Chess8x8}, "1-0", 1); err == nil {
		t.Fatal("gesture without kings succeeded")
	}
}

func TestMagicPieceIsReported(t *testing.T) {
	a, err := emu.MagicResult(sq(t, "a4"), emu.Draw)
	if err != nil {
		t.Fatal(err)
	}
	e := emu.New(emu.Setup{}, t0)
	now := t0
	e.Input(now, []byte{0x44})
	e.Do(now, a)
	got := fieldUpdates(decode(t, dgt.SingleBoard, step(e, &now, time.Second)))
	if !slices.Equal(got, []string{"a4 X"}) {
		t.Fatalf("updates %v, want [a4 X]", got)
	}
}
