package board

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestDumpsOnlyTransientsAreNoMoves: a board read once a second by whole
// reads, no clock: a read that catches the king put down on its way while
// castling, or a captured piece lifted before the capture, is seen once
// and is no move; the positions that stood are the game.
func TestDumpsOnlyTransientsAreNoMoves(t *testing.T) {
	start := mustPos(t, chess.Standard, "r3k2r/pppq1ppp/8/3p4/4P3/8/PPP2PPP/R3K2R w KQkq - 0 1")
	tr, err := New(TrackerOptions{Start: start, Completion: StableWindow, DumpsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	geo := start.Geometry()
	sq := func(n string) rules.Square {
		s, err := geo.ParseSquare(n)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	pos := rules.Position(start)
	place := pos.Placement()
	with := func(p rules.Placement, set map[string]rules.Piece) rules.Placement {
		for n, pc := range set {
			p.Sq[sq(n)] = pc
		}
		return p
	}
	play := func(uci string) rules.Placement {
		m, err := pos.ParseMove(uci)
		if err != nil {
			t.Fatal(err)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		return pos.Placement()
	}
	K := rules.Piece{Color: rules.White, Kind: rules.King}
	reads := []rules.Placement{place, place,
		with(place, map[string]rules.Piece{"e1": rules.NoPiece, "f1": K}), // the king on its way, once
	}
	castled := play("e1g1")
	reads = append(reads, castled, castled, castled, castled,
		with(castled, map[string]rules.Piece{"d5": rules.NoPiece}), // the pawn taken off first, once
	)
	took := play("d5e4")
	reads = append(reads, took, took, took, took, took)
	var evs []game.Event
	at := t0
	for _, p := range reads {
		at = at.Add(time.Second)
		evs = append(evs, tr.Sense(at, game.FullRead{Placement: p})...)
	}
	evs = append(evs, tr.Finish(at)...)
	if got := ucis(evs); len(got) != 2 || got[0] != "e1g1" || got[1] != "d5e4" {
		t.Fatalf("record %v, want [e1g1 d5e4]; events %v", got, evs)
	}
	for _, e := range evs {
		switch e.(type) {
		case game.Unexplained, game.IllegalMove, game.Correction, game.Ambiguous:
			t.Fatalf("%T in %v", e, evs)
		}
	}
}
