package pgn

import (
	"errors"
	"testing"
	"time"
)

// TestBroadcastGame builds a game the way the daemon does (moves played on
// a position, clocks from the DGT clock) and checks the Lichess broadcast
// form of docs/contract.md §6.
func TestBroadcastGame(t *testing.T) {
	start, err := ChessPosition("chess", "")
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{Start: start, Result: "*"}
	pos := start
	clocks := []time.Duration{89*time.Minute + 58*time.Second, 89*time.Minute + 50*time.Second, 88 * time.Minute}
	for i, san := range []string{"e4", "c5", "Nf3"} {
		m, err := pos.ParseMove(san)
		if err != nil {
			t.Fatal(err)
		}
		n := MoveNode{Move: m, Clock: clocks[i], HasClock: true, EMT: time.Duration(2+i) * time.Second, HasEMT: true}
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, n)
	}
	g.SetTag("Annotator", "dgtbridge")
	g.SetBroadcast(Broadcast{
		Event: "Hanoi Open", Site: "Hanoi VIE", Date: "2026.11.22", Round: 3, Board: 12,
		White: " Lê, Quang Liêm ", Black: "Nguyễn, Ngọc Trường Sơn", WhiteFideID: 12401137, BlackFideID: 12401110,
		WhiteTitle: "GM", WhiteElo: 2718, TimeControl: "5400+30", GameID: "hanoi-r3-b12",
	})
	want := `[Event "Hanoi Open"]
[Site "Hanoi VIE"]
[Date "2026.11.22"]
[Round "3.12"]
[White "Lê, Quang Liêm"]
[Black "Nguyễn, Ngọc Trường Sơn"]
[Result "*"]
[Annotator "dgtbridge"]
[WhiteFideId "12401137"]
[BlackFideId "12401110"]
[WhiteTitle "GM"]
[WhiteElo "2718"]
[TimeControl "5400+30"]
[GameId "hanoi-r3-b12"]

1. e4 { [%clk 1:29:58] [%emt 0:00:02] } 1... c5
{ [%clk 1:29:50] [%emt 0:00:03] } 2. Nf3 { [%clk 1:28:00] [%emt 0:00:04] } *

`
	if got := g.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRoundTag(t *testing.T) {
	tests := []struct {
		round, board int
		text         string
	}{
		{3, 12, "3.12"}, {1, 0, "1"}, {10, 1, "10.1"},
	}
	for _, tt := range tests {
		if got := RoundTag(tt.round, tt.board); got != tt.text {
			t.Errorf("RoundTag(%d, %d) = %q", tt.round, tt.board, got)
		}
		r, b, err := ParseRound(tt.text)
		if err != nil || r != tt.round || b != tt.board {
			t.Errorf("ParseRound(%q) = %d, %d, %v", tt.text, r, b, err)
		}
	}
	for _, bad := range []string{"?", "-", "", "3.", ".2", "3.x", "0.1", "3.0", "1.2.3"} {
		if _, _, err := ParseRound(bad); !errors.Is(err, ErrBadTag) {
			t.Errorf("ParseRound(%q) err = %v", bad, err)
		}
	}
}
