package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// FeedMessage feeds one decoded DGT message that arrived at time at (a
// live port or a recording) to t and returns the events: field updates
// become square changes, board dumps full reads, clock times clock
// readings; a magic piece put on the board is a result gesture. Bus-mode
// replies (dumps, clocks, change records) are read the same way, the
// change records of one poll in order at the poll's time. Other messages
// (serial numbers, versions, ACKs, …) cause no events.
//
// Clock sides are mapped to colours on the first reading with a running
// clock: the running side belongs to the side to move in the record (the
// clock is not turned with the board). [Tracker.SetClockSides] fixes the
// mapping instead.
func FeedMessage(t *Tracker, at time.Time, m dgt.Message) []Event {
	switch m := m.(type) {
	case dgt.FieldUpdate:
		if m.Piece.IsMagic() {
			return t.magic(at, m.Piece)
		}
		pc, _ := m.Piece.Piece()
		sq := m.Field.Square(dgt.Normal)
		t.chg[0] = SquareChange{Square: sq, Piece: pc}
		return t.Squares(at, t.chg[:])
	case dgt.BoardDump:
		var evs []Event
		var magic []dgt.Field
		if magic = m.Magic(magic); len(magic) > 0 {
			evs = t.magic(at, m.Fields[magic[0]])
		}
		return append(evs, t.Dump(at, m.Placement(dgt.Normal))...)
	case dgt.ClockTimes:
		if m.IsZero() {
			return nil
		}
		return t.Clock(at, t.clockReading(m))
	case dgt.BusBoardDump:
		return FeedMessage(t, at, m.Board)
	case dgt.BusClock:
		if m.Clock != nil {
			return FeedMessage(t, at, m.Clock)
		}
	case dgt.BusUpdate:
		// The changes since the last poll, oldest first, all at the
		// poll's time (the records carry no times).
		// Records after a corrupt one are lost; the next dump resynchronises.
		evs, _ := m.Events()
		var out []Event
		for _, e := range evs {
			if e.Kind == dgt.EEPiece && e.Field.Valid() {
				out = append(out, FeedMessage(t, at, dgt.FieldUpdate{Field: e.Field, Piece: e.Piece})...)
			}
		}
		return out
	}
	return nil
}

// SetClockSides says which colour plays on the clock's left display.
func (t *Tracker) SetClockSides(left rules.Color) { t.clockLeft = left }

// clockReading maps a DGT clock message to a reading in colours.
func (t *Tracker) clockReading(m dgt.ClockTimes) ClockReading {
	run := m.RunningSide()
	if t.clockLeft == rules.NoColor && run != dgt.NoSide {
		mover := t.hist[t.done].pos.Turn()
		if run == dgt.LeftSide {
			t.clockLeft = mover
		} else {
			t.clockLeft = mover.Other()
		}
	}
	left := t.clockLeft
	if left == rules.NoColor {
		left = rules.White
	}
	r := ClockReading{Running: rules.NoColor}
	l, rt := m.Left, m.Right
	if left == rules.White {
		r.White, r.Black = l.Duration(), rt.Duration()
		r.WhiteFlag, r.BlackFlag = l.Flag || l.FinalFlag, rt.Flag || rt.FinalFlag
	} else {
		r.White, r.Black = rt.Duration(), l.Duration()
		r.WhiteFlag, r.BlackFlag = rt.Flag || rt.FinalFlag, l.Flag || l.FinalFlag
	}
	switch run {
	case dgt.LeftSide:
		r.Running = left
	case dgt.RightSide:
		r.Running = left.Other()
	}
	return r
}

// magic reads a magic piece put on the board as a result gesture.
func (t *Tracker) magic(at time.Time, c dgt.PieceCode) []Event {
	res := "1/2-1/2"
	switch c {
	case dgt.MagicWhiteWin:
		res = "1-0"
	case dgt.MagicBlackWin:
		res = "0-1"
	}
	if t.over {
		return nil
	}
	evs := t.advance(at, nil)
	t.over = true
	t.presses = t.presses[:0]
	evs = t.completeUpTo(at, len(t.moves), t.clock, evs)
	return append(evs, &ResultGesture{Stamp: Stamp{At: at}, Result: res, Gesture: "magic_piece"})
}
