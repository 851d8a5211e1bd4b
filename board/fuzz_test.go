package board

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// FuzzTracker feeds the tracker what a board and clock can send, in any
// order and at any pace: single square changes (any piece code the
// decoder lets through, magic pieces included), whole legal moves (so
// that games get deep), clock readings and the passing of time. Whatever
// comes, the tracker must not panic, must keep a position, and its record
// must replay legally from the start (illegal moves that stand aside).
//
// Each input byte is one step: 0b00ffffff and 0b01ffffff put piece code
// (next byte) on field f; 0b10tttttt lets t×50 ms pass; 0b11cccccc plays
// legal move c (modulo their number) with both hands, then reads the
// clock with the lever to the other side.
func FuzzTracker(f *testing.F) {
	f.Add(uint8(0), []byte{0xC0, 0x8A, 0xC3, 0x8A, 0xC5, 0x8A})
	f.Add(uint8(1), []byte{0x0C, 0x00, 0x1C, 0x01, 0x8F, 0x0C, 0x01, 0x8F})
	f.Add(uint8(2), []byte{0xC1, 0xFF, 0x23, 0x0D, 0x9F, 0xC2, 0x1B, 0x0E, 0xBF})
	f.Add(uint8(0), []byte{0xC4, 0x04, 0x00, 0x04, 0x03, 0x85, 0xC7, 0x85})
	f.Fuzz(func(t *testing.T, mode uint8, steps []byte) {
		tr, err := New(TrackerOptions{Start: chess.StartPosition(chess.Standard), Completion: Completion(mode % 3)})
		if err != nil {
			t.Fatal(err)
		}
		at := t0
		white, black := 5*time.Minute, 5*time.Minute
		var buf []rules.Move
		clean, played := true, 0 // only whole legal moves so far
		for i := 0; i < len(steps); i++ {
			b := steps[i]
			switch b >> 6 {
			case 0, 1:
				clean = false
				if i+1 == len(steps) {
					break
				}
				i++
				at = at.Add(10 * time.Millisecond)
				feed(tr, at, dgt.FieldUpdate{Field: dgt.Field(b & 63), Piece: dgt.PieceCode(steps[i] & 15)})
			case 2:
				clean = clean && b&63 == 0
				at = at.Add(time.Duration(b&63) * 50 * time.Millisecond)
				tr.Tick(at)
			case 3:
				pos := tr.Position()
				buf = pos.LegalMoves(buf[:0])
				if len(buf) == 0 {
					continue
				}
				m := buf[int(b&63)%len(buf)]
				next, err := pos.Play(m)
				if err != nil {
					t.Fatalf("%s: legal move %s: %v", pos.FEN(), pos.UCI(m), err)
				}
				// Every square that changes, as the board reports it.
				for s := rules.Square(0); int(s) < 64; s++ {
					if pc := next.At(s); pc != pos.At(s) {
						code, _ := dgt.PieceCodeOf(pc)
						f, _ := dgt.FieldOf(s, dgt.Normal)
						at = at.Add(200 * time.Millisecond)
						feed(tr, at, dgt.FieldUpdate{Field: f, Piece: code})
					}
				}
				at = at.Add(time.Second)
				if pos.Turn() == rules.White {
					white -= time.Second
				} else {
					black -= time.Second
				}
				feed(tr, at, clockTimes(white, black, next.Turn()))
				played++
			}
		}
		tr.Finish(at.Add(time.Minute))
		if tr.Position() == nil {
			t.Fatal("no position")
		}
		if tr.Ply() < 0 || tr.Completed() > tr.Ply()+1 {
			t.Fatalf("ply %d, completed %d", tr.Ply(), tr.Completed())
		}
		if clean && tr.Ply() != played {
			t.Fatalf("%d legal moves played cleanly, the tracker has %d plies", played, tr.Ply())
		}
		for ply := 0; ply <= tr.Ply(); ply++ {
			if tr.PositionAt(ply) == nil {
				t.Fatalf("no position at ply %d of %d", ply, tr.Ply())
			}
		}
	})
}

// clockTimes is a running DGT 3000 reading with White on the left and the
// lever down on the side of turn.
func clockTimes(white, black time.Duration, turn rules.Color) dgt.ClockTimes {
	side := func(d time.Duration) dgt.ClockSide {
		d = max(d, 0)
		return dgt.ClockSide{Hours: uint8(d / time.Hour), Minutes: uint8(d / time.Minute % 60), Seconds: uint8(d / time.Second % 60)}
	}
	st := dgt.ClockStatus(0x01) // running
	if turn == rules.White {
		st |= 0x08 // left player's turn
	} else {
		st |= 0x10
	}
	return dgt.ClockTimes{Left: side(white), Right: side(black), Status: st}
}
