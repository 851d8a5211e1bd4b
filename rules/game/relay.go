package game

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Which names one of the two boards of a game relayed for a blind player
// (FIDE Laws 2018 Appendix D; docs/blind-players.md).
type Which uint8

// The two boards of a relayed game.
const (
	// SightedBoard: the sighted player's normal e-board (the clock is
	// read here: its presses complete the sighted player's moves).
	SightedBoard Which = iota
	// BlindBoard: the blind player's board with pegged pieces (D.1).
	BlindBoard
)

// String returns "sighted" or "blind".
func (w Which) String() string {
	if w == BlindBoard {
		return "blind"
	}
	return "sighted"
}

// Other returns the other board.
func (w Which) Other() Which { return 1 - w }

// BoardMismatch: one board of a relayed game does not show the game (FIDE
// 2018 D.2.9: the two boards must agree): it differs from the record beyond
// the move in progress for a while, or (Late) a move entered the record
// and was not executed on it in time. It is raised once per episode;
// [BoardsAgree] ends the episode. Evidence for the arbiter only: the
// daemon never corrects a board (the scoresheets decide, D.2.9).
type BoardMismatch struct {
	Stamp
	Board Which
	// Ply is the first ply where the board differs from the record (for
	// Late: the ply not executed).
	Ply int
	// Late: the move was announced (entered the record) and not executed
	// on this board in time.
	Late bool
	// Since is when the board started to differ (for Late: when the move
	// entered the record).
	Since time.Time
	// Squares are the squares where this board differs from the position
	// of the record (including a move made and not yet completed on its
	// player's own board), in square order.
	Squares []rules.Square
	// Record holds the game's moves (UCI): the record, then moves made and
	// not yet completed on their player's board. OnBoard holds the moves
	// this board's tracker reconstructed. Together: both move lists the
	// arbiter compares (D.2.9).
	Record, OnBoard []string
}

// BoardsAgree: a board that was reported in [BoardMismatch] shows the game
// again.
type BoardsAgree struct {
	Stamp
	Board Which
}

// Device names the hardware of a [DeviceLost] or [DeviceBack] event.
type Device string

// Devices.
const (
	DeviceBoard Device = "board"
	DeviceClock Device = "clock"
)

// DeviceLost: the wiring lost the connection to the game's board or clock.
type DeviceLost struct {
	Stamp
	Device Device
	Detail string // e.g. the port and the error
}

// DeviceBack: the device answers again.
type DeviceBack struct {
	Stamp
	Device Device
}

func (BoardMismatch) event() {}
func (BoardsAgree) event()   {}
func (DeviceLost) event()    {}
func (DeviceBack) event()    {}
