package session

import (
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// A reload that gives a relayed board's unstarted game to a blind player
// of the other colour (the pairing file's next round) turns the relay
// round: the blind player's White moves are made on the blind board. A
// game in progress keeps its blind player's colour.
func TestReconfigureBlindSide(t *testing.T) {
	b := newBlindSession(t, nil)
	o := b.s.o
	o.Info.Game.Round, o.Info.Game.Board = 2, 3
	o.Blind = DefaultBlind(rules.White, announce.English)
	if _, err := b.s.Reconfigure(o, b.now); err != nil {
		t.Fatal(err)
	}
	if got := b.s.Relay().Blind(); got != rules.White {
		t.Fatalf("relay's blind player after the reload: %v, want White", got)
	}
	if b.s.o.Blind.Lang != announce.English || b.s.Record().Info.Game != o.Info.Game {
		t.Fatalf("options after the reload: %+v, game %s", b.s.o.Blind, b.s.Record().Info.Game)
	}
	b.press(rules.White)
	b.move(game.BlindBoard, "e2e4")
	b.wait(time.Second)
	b.press(rules.Black)
	b.wait(time.Second)
	b.move(game.SightedBoard, "e2e4")
	b.wait(time.Second)
	if got := strings.Join(b.s.Record().UCIs(), " "); got != "e2e4" {
		t.Fatalf("record %q, want White's e2e4 from the blind board", got)
	}

	// In progress: the colour stays for this game.
	o.Info.Game.Round = 3
	o.Blind = DefaultBlind(rules.Black, announce.English)
	if _, err := b.s.Reconfigure(o, b.now); err != nil {
		t.Fatal(err)
	}
	if got := b.s.Relay().Blind(); got != rules.White {
		t.Fatalf("relay's blind player changed mid-game to %v", got)
	}

	// The result, then the start position set up on both boards: the
	// round-3 game begins, with the blind player on Black.
	b.out = b.out[:0]
	if _, err := b.s.Command(adjudicator.Command{Cmd: "set_result", Result: "1-0"}, b.now); err != nil {
		t.Fatal(err)
	}
	b.wait(time.Second)
	b.back(game.SightedBoard, "e4", "e2")
	b.back(game.BlindBoard, "e4", "e2")
	b.wait(3 * time.Second)
	if got := b.s.Record().Info.Game; got != o.Info.Game {
		t.Fatalf("after the set-up the board plays %s, want %s", got, o.Info.Game)
	}
	if got := b.s.Relay().Blind(); got != rules.Black {
		t.Fatalf("relay's blind player in the round-3 game: %v, want Black", got)
	}
	for _, p := range b.out {
		if a, ok := p.(game.Alert); ok && strings.Contains(a.Message, "colour") {
			t.Errorf("alert %+v", a)
		}
	}
	b.press(rules.White)
	b.move(game.SightedBoard, "d2d4")
	b.wait(700 * time.Millisecond)
	b.press(rules.Black)
	b.wait(time.Second)
	b.move(game.BlindBoard, "d2d4")
	b.wait(time.Second)
	if got := strings.Join(b.s.Record().UCIs(), " "); got != "d2d4" {
		t.Fatalf("round-3 record %q, want White's d2d4 from the sighted board", got)
	}
}

// back moves the piece on from to to on board w, without a move's rules
// (setting up the start position by hand).
func (b *blindSession) back(w game.Which, from, to string) {
	b.t.Helper()
	geo := rules.Geometry{Files: 8, Ranks: 8}
	f, err := geo.ParseSquare(from)
	if err != nil {
		b.t.Fatal(err)
	}
	tq, err := geo.ParseSquare(to)
	if err != nil {
		b.t.Fatal(err)
	}
	pc := b.s.Relay().Tracker(w).Sensed().Sq[f]
	for _, c := range []struct {
		sq rules.Square
		pc rules.Piece
	}{{f, rules.NoPiece}, {tq, pc}} {
		fd, _ := dgt.FieldOf(c.sq, dgt.Normal)
		code := dgt.Empty
		if !c.pc.IsEmpty() {
			code, _ = dgt.PieceCodeOf(c.pc)
		}
		b.now = b.now.Add(150 * time.Millisecond)
		b.out = append(b.out, b.s.MessageFrom(w, b.now, dgt.FieldUpdate{Field: fd, Piece: code}).Out...)
	}
}
