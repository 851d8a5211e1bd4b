// Package dgtfeed translates DGT board and clock messages into the board
// tracker's protocol-free vocabulary ([game.Sensed]): field updates become
// square changes, board dumps full reads, clock times clock faces, and a
// magic piece put on the board a result signal. Bus-mode replies (dumps,
// clocks, change records) read the same way. The tracker never sees a DGT
// message; a reader of another protocol (the Open Board Protocol) has its
// own translator into the same vocabulary.
package dgtfeed

import (
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Append appends to dst what message m reports, in order, and returns the
// extended slice. Messages that report nothing about the board or clock
// (serial numbers, versions, acknowledgements, an all-zero clock message
// sent after a clock command) add nothing. The change records of a bus
// poll come in order; records after a corrupt one are lost (the next full
// read resynchronises).
func Append(dst []game.Sensed, m dgt.Message) []game.Sensed {
	switch m := m.(type) {
	case dgt.FieldUpdate:
		if m.Piece.IsMagic() {
			return append(dst, signal(m.Piece))
		}
		pc, _ := m.Piece.Piece()
		return append(dst, game.SquareChange{Square: m.Field.Square(dgt.Normal), Piece: pc})
	case dgt.BoardDump:
		if magic := m.Magic(nil); len(magic) > 0 {
			dst = append(dst, signal(m.Fields[magic[0]]))
		}
		return append(dst, game.FullRead{Placement: m.Placement(dgt.Normal)})
	case dgt.ClockTimes:
		if m.IsZero() {
			return dst
		}
		return append(dst, Face(m))
	case dgt.BusBoardDump:
		return Append(dst, m.Board)
	case dgt.BusClock:
		if m.Clock != nil {
			return Append(dst, m.Clock)
		}
	case dgt.BusUpdate:
		evs, _ := m.Events()
		return Records(dst, evs)
	}
	return dst
}

// Records appends to dst what a bus poll's change records report, in
// order: piece records as square changes (or a result signal for a magic
// piece), clock records as lever presses ([game.LeverPress]: the board
// wrote one when a press halted a display); tags add nothing.
func Records(dst []game.Sensed, recs []dgt.EEEvent) []game.Sensed {
	for _, e := range recs {
		switch e.Kind {
		case dgt.EEPiece:
			if e.Field.Valid() {
				dst = Append(dst, dgt.FieldUpdate{Field: e.Field, Piece: e.Piece})
			}
		case dgt.EEClock:
			dst = append(dst, game.LeverPress{Display: display(e.Display), Time: e.Time()})
		}
	}
	return dst
}

// display names a clock record's display.
func display(s dgt.Side) game.Display {
	if s == dgt.RightSide {
		return game.RightDisplay
	}
	return game.LeftDisplay
}

// Face returns the clock face a DGT clock message shows (Absent when the
// board reports no clock connected). A DGT clock does not say which colour
// plays on which display: LeftIs is rules.NoColor.
func Face(m dgt.ClockTimes) game.ClockFace {
	if m.Status.NoClock() {
		return game.ClockFace{Absent: true, LeftIs: rules.NoColor}
	}
	f := game.ClockFace{
		Left: m.Left.Duration(), Right: m.Right.Duration(),
		LeftFlag: m.Left.Flag || m.Left.FinalFlag, RightFlag: m.Right.Flag || m.Right.FinalFlag,
		LeftIs: rules.NoColor,
	}
	switch m.RunningSide() {
	case dgt.LeftSide:
		f.Running = game.LeftDisplay
	case dgt.RightSide:
		f.Running = game.RightDisplay
	}
	return f
}

// signal reads a magic piece as the result it stands for.
func signal(c dgt.PieceCode) game.ResultSignal {
	res := "1/2-1/2"
	switch c {
	case dgt.MagicWhiteWin:
		res = "1-0"
	case dgt.MagicBlackWin:
		res = "0-1"
	}
	return game.ResultSignal{Result: res, Gesture: "magic_piece"}
}

// Log translates a DGT board's EEPROM event log into the tracker's
// vocabulary: piece records become changes (in the board's own frame), the
// clock records presses of the display they name, and the piece records a
// power-up or a start tag writes (every occupied field, in field order) one
// whole placement; the other tags (begin position, …) are left out.
func Log(l dgt.EELog) game.BoardLog {
	out := game.BoardLog{Wrapped: l.Wrapped}
	var snap *dgt.BoardDump // the placement being written after a tag
	last := -1              // the field of its last record
	flush := func() {
		if snap != nil {
			out.Entries = append(out.Entries, game.LogBoard{Placement: snap.Placement(dgt.Normal)})
			snap = nil
		}
	}
	for _, e := range l.Entries {
		switch e.Kind {
		case dgt.EEPowerUp, dgt.EEStartTag:
			flush()
			snap, last = &dgt.BoardDump{}, -1
		case dgt.EEPiece:
			if !e.Field.Valid() {
				continue
			}
			if snap != nil && !e.Fast && e.Piece != dgt.Empty && int(e.Field) > last {
				snap.Fields[e.Field], last = e.Piece, int(e.Field)
				continue
			}
			flush()
			pc, _ := e.Piece.Piece()
			out.Entries = append(out.Entries, game.LogChange{Square: e.Field.Square(dgt.Normal), Piece: pc, Fast: e.Fast})
		case dgt.EEClock:
			flush()
			out.Entries = append(out.Entries, game.LogPress{Display: display(e.Display), Time: e.Time()})
		default:
			flush()
		}
	}
	flush()
	return out
}
