package pgn

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// xqGame builds a xiangqi game from ICCS moves on a position with the
// default (Vietnamese) notation, as the daemon holds games.
func xqGame(t *testing.T, fen string, iccs ...string) *Game {
	t.Helper()
	if fen == "" {
		fen = xiangqi.StartFEN
	}
	p, err := xiangqi.NewPosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{Start: p, Result: "*"}
	pos := p
	for i, u := range iccs {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		n := MoveNode{Move: m}
		if i == 0 {
			n.Clock, n.HasClock = 89*time.Minute+55*time.Second, true
		}
		g.Moves = append(g.Moves, n)
		pos, _ = pos.PlayMove(m)
	}
	return g
}

// TestXiangqiWrite: the opening of Art. 11.2's examples is written with the
// Xiangqi variant tag, WXF movetext (traverse "."), and the ICCS move in
// a [%iccs] command after every move, next to the clock.
func TestXiangqiWrite(t *testing.T) {
	g := xqGame(t, "", "h2e2", "b9c7", "b0c2", "h7e7")
	g.SetTag("Event", "Hanoi Open")
	out := g.String()
	for _, want := range []string{
		`[Variant "Xiangqi"]`,
		"1. C2.5 { [%iccs h2e2] [%clk 1:29:55] } 1... H2+3 { [%iccs b9c7] } 2. H8+7\n{ [%iccs b0c2] } 2... C8.5 { [%iccs h7e7] } *",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("PGN lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "[FEN") || strings.Contains(out, "SetUp") {
		t.Errorf("the start position needs no FEN:\n%s", out)
	}
}

// TestXiangqiRoundTrip: games written are read back to the same moves,
// from the start and from a set-up position, including a tandem chariot
// ("R+.3"), a retreat, captures and a move WXF cannot write (four
// soldiers on one file: ICCS in the movetext).
func TestXiangqiRoundTrip(t *testing.T) {
	games := []*Game{
		xqGame(t, "", "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b7b3", "e2e6", "c6c5", "e6e4", "b3b0"),
		xqGame(t, "3k5/9/9/9/9/R8/9/R8/9/5K3 w - - 0 1", "a4d4", "d9e9", "a2a3"),
		xqGame(t, "3k5/9/9/4P4/4P4/4P4/4P4/9/9/5K3 w - - 0 1", "e6d6", "d9d8"),
	}
	for i, g := range games {
		text := g.String()
		back, err := NewReader(strings.NewReader(text), ReaderOptions{}).Next()
		if err != nil {
			t.Fatalf("game %d: %v\n%s", i, err, text)
		}
		if back.Start.Variant() != "xiangqi" || back.Start.FEN() != g.Start.FEN() || len(back.Moves) != len(g.Moves) {
			t.Fatalf("game %d read back as %s with %d moves:\n%s", i, back.Start.FEN(), len(back.Moves), text)
		}
		for j := range g.Moves {
			if back.Moves[j].Move != g.Moves[j].Move {
				t.Errorf("game %d ply %d: %v, want %v", i, j+1, back.Moves[j].Move, g.Moves[j].Move)
			}
			if strings.Contains(back.Moves[j].Comment, "iccs") {
				t.Errorf("game %d ply %d: the [%%iccs] command stayed in the comment %q", i, j+1, back.Moves[j].Comment)
			}
		}
		if again := back.String(); again != text {
			t.Errorf("game %d written again differs:\n%s\nvs\n%s", i, again, text)
		}
	}
	if !strings.Contains(games[0].String(), "C5-2") || !strings.Contains(games[1].String(), "R+.6") || !strings.Contains(games[2].String(), "e6d6") {
		t.Errorf("tandem or ICCS fallback not written as expected:\n%s\n%s", games[1].String(), games[2].String())
	}
}

// TestXiangqiRead: other writers' forms are read: "=" for traverse, no
// [%iccs], "Chinese Chess" as the variant; a [%iccs] that contradicts the
// WXF text is a *MoveError.
func TestXiangqiRead(t *testing.T) {
	text := `[Variant "Chinese Chess"]

1. C2=5 H8+7 2. H2+3 R9=8 *
`
	g, err := NewReader(strings.NewReader(text), ReaderOptions{}).Next()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, n := range g.Moves {
		ps, _ := g.Positions()
		got = append(got, ps[i].UCI(n.Move))
	}
	if strings.Join(got, " ") != "h2e2 h9g7 h0g2 i9h9" {
		t.Errorf("moves %v", got)
	}
	bad := `[Variant "Xiangqi"]

1. C2.5 {[%iccs b2e2]} *
`
	_, err = NewReader(strings.NewReader(bad), ReaderOptions{}).Next()
	var me *MoveError
	if !errors.As(err, &me) || !errors.Is(err, ErrBadMove) || me.Ply != 1 {
		t.Errorf("contradicting [%%iccs]: %v", err)
	}
}

// TestScannerDotsUnchanged: the WXF traverse does not change how chess
// PGN reads: move numbers, "e.p." and "1.e4".
func TestScannerDotsUnchanged(t *testing.T) {
	text := "1.e4 Nf6 2.e5 d5 3.exd6 e.p. e6 *\n"
	g, err := NewReader(strings.NewReader(text), ReaderOptions{}).Next()
	if err != nil || len(g.Moves) != 6 || g.Moves[4].SAN != "exd6" {
		t.Fatalf("%v %v", g, err)
	}
	_ = rules.NoMove
}
