package board_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// parseAnswer turns a bus answer's records as dgt.EEEvent prints them
// ("piece a8 . piece a7 r fast clock right 1:31:55 ...") into log entries
// (a clock record: the display its press halted, at the time it shows).
func parseAnswer(t *testing.T, s string) []game.LogEntry {
	t.Helper()
	f := strings.Fields(s)
	var out []game.LogEntry
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "piece":
			sq, err := rules.Chess8x8.ParseSquare(f[i+1])
			if err != nil {
				t.Fatal(err)
			}
			var p rules.Piece
			if f[i+2] != "." {
				var ok bool
				if p, ok = rules.PieceFromLetter(f[i+2][0]); !ok {
					t.Fatalf("piece %q", f[i+2])
				}
			}
			c := game.LogChange{Square: sq, Piece: p}
			i += 2
			if i+1 < len(f) && f[i+1] == "fast" {
				c.Fast = true
				i++
			}
			out = append(out, c)
		case "clock":
			d := game.LeftDisplay
			if f[i+1] == "right" {
				d = game.RightDisplay
			}
			parts := strings.Split(f[i+2], ":")
			if len(parts) != 3 {
				t.Fatalf("clock time %q", f[i+2])
			}
			h, m, sec := atoi(parts[0]), atoi(parts[1]), atoi(parts[2])
			out = append(out, game.LogPress{Display: d, Time: time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second})
			i += 2
		default:
			t.Fatalf("token %q", f[i])
		}
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestRecoverFromEndAfterAStall: a bus board's answer after its line was
// not polled for 28 s (hall's TestHallBusLineStarved, seed 1,
// board 1: twelve presses in one answer, read as the board's log). The
// answer starts at the record's last position (after f2f4), but its first
// changes do not tell f2 or f4, so the position before f2f4 fits it too.
// Recover aligns with the earliest position that fits and reads from
// there, and the tracker's search then made f2f4 and the answer's moves
// up from its last placement: the rook's a8a7 and a7a6 read as a8a6, the
// record one ply short from there on. RecoverFromEnd aligns the answer
// with the record's last position only and reads every move.
func TestRecoverFromEndAfterAStall(t *testing.T) {
	start := chess.StartPosition(chess.Standard)
	var moves []rules.Move
	pos := rules.Position(start)
	for _, u := range strings.Fields("b2b3 a7a5 b3b4 b7b5 f2f4") {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	entries := parseAnswer(t, "piece a8 . piece a7 r fast clock right 1:31:55 piece e1 . clock left 1:32:20 piece f2 K piece a7 . piece a6 r fast clock right 1:32:23 piece f4 . piece f5 P fast clock left 1:32:47 piece a6 . piece b6 r fast clock right 1:32:50 piece f2 . piece e3 K clock left 1:33:16 piece b6 . piece d6 r fast clock right 1:33:17 piece g1 . clock left 1:33:43 piece f3 N piece e7 . piece e6 p clock right 1:33:44 piece f3 . piece e5 N fast clock left 1:34:11 piece h7 . piece h5 p fast clock right 1:34:11")
	now := pos.Placement()
	for _, e := range entries {
		if c, ok := e.(game.LogChange); ok {
			now.Sq[c.Square] = c.Piece
		}
	}
	const want = "a8a7 e1f2 a7a6 f4f5 a6b6 f2e3 b6d6 g1f3 e7e6 f3e5 h7h5"
	r, err := board.RecoverFromEnd(start, moves, now, game.BoardLog{Entries: entries}, board.TrackerOptions{}, rules.White)
	if err != nil {
		t.Fatal(err)
	}
	if got := recoveredUCIs(r); r.Ply != len(moves) || !r.Complete || got != want {
		t.Errorf("RecoverFromEnd: ply %d, complete %v, moves %s; want ply %d, complete, moves %s", r.Ply, r.Complete, got, len(moves), want)
	}
}

func recoveredUCIs(r board.Recovery) string {
	var got []string
	for _, m := range r.Moves {
		got = append(got, m.UCI)
	}
	return strings.Join(got, " ")
}
