package livechess

import (
	"fmt"
	"testing"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// record80 is a game of 80 plies as the games bucket holds it.
func record80(tb testing.TB) game.GameState {
	tb.Helper()
	pos := chess.StartPosition(chess.Standard)
	st := game.GameState{Variant: "chess"}
	for len(st.Moves) < 80 {
		ms := pos.LegalMoves(nil)
		m := ms[len(st.Moves)*7%len(ms)]
		st.Moves = append(st.Moves, pos.UCI(m))
		st.SAN = append(st.SAN, pos.SAN(m))
		var err error
		if pos, err = pos.PlayMove(m); err != nil {
			tb.Fatal(err)
		}
		if pos.NumLegalMoves() == 0 {
			break
		}
	}
	return st
}

// TestNewRecordIncremental: a record built from its predecessor (one move
// added) has the same positions as one replayed from the start; a record
// that is no extension (a takeback) is replayed.
func TestNewRecordIncremental(t *testing.T) {
	st := record80(t)
	n := len(st.Moves)
	prev := newRecord(game.GameState{Variant: "chess", Moves: st.Moves[:n-1], SAN: st.SAN[:n-1]}, nil)
	inc := newRecord(st, prev)
	full := newRecord(st, nil)
	if len(inc.keys) != n+1 || len(full.keys) != n+1 {
		t.Fatalf("keys %d, %d; want %d", len(inc.keys), len(full.keys), n+1)
	}
	for i := range full.keys {
		if inc.keys[i] != full.keys[i] || inc.placements[i] != full.placements[i] {
			t.Fatalf("ply %d: %s / %s", i, inc.keys[i], full.keys[i])
		}
	}
	back := newRecord(game.GameState{Variant: "chess", Moves: st.Moves[:n-3], SAN: st.SAN[:n-3]}, full)
	if len(back.keys) != n-2 || back.keys[n-3] != full.keys[n-3] || len(prev.keys) != n {
		t.Fatalf("takeback: %d keys, predecessor now %d", len(back.keys), len(prev.keys))
	}
}

// BenchmarkNewRecord: what one game state costs the view, from the start
// (a state read at start, a correction) and after one added move.
func BenchmarkNewRecord(b *testing.B) {
	st := record80(b)
	n := len(st.Moves)
	prev := newRecord(game.GameState{Variant: "chess", Moves: st.Moves[:n-1], SAN: st.SAN[:n-1]}, nil)
	b.Run("replay", func(b *testing.B) {
		for b.Loop() {
			newRecord(st, nil)
		}
	})
	b.Run("one-move", func(b *testing.B) {
		for b.Loop() {
			newRecord(st, prev)
		}
	})
}

// BenchmarkHall2000: in a hall of 2,000 boards, what a feed pays on each
// change to read its board (a lookup), and what listing every board costs
// (eboards).
func BenchmarkHall2000(b *testing.B) {
	v := newView("")
	st := record80(b)
	for i := 1; i <= 2000; i++ {
		g := game.ID{Event: "open", Round: 1, Board: i}
		v.putBoard(broadcast.BoardReport{BoardID: fmt.Sprintf("r1-b%d", i), Game: g, Connected: true, Serial: fmt.Sprint(10000 + i)})
		s := st
		s.Game = g
		v.putGame(s)
	}
	b.Run("feed", func(b *testing.B) {
		for b.Loop() {
			if _, ok := v.board("r1-b1500"); !ok {
				b.Fatal("not found")
			}
		}
	})
	b.Run("list", func(b *testing.B) {
		for b.Loop() {
			if l := v.list(); len(l) != 2000 {
				b.Fatal(len(l))
			}
		}
	})
}
