package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Completion says when a made move is completed, i.e. enters the record.
type Completion uint8

// Completion rules.
const (
	// ClockPress: the move is completed when the mover presses the clock
	// (FIDE 2018 6.2.1, 7.5.1), or when the mover makes their next move
	// before pressing (6.2.1.2).
	ClockPress Completion = iota
	// Release: the move is completed once the piece is released, i.e. as
	// soon as the placement is settled (the FIDE 2001 notion).
	Release
	// StableWindow: no clock. A made move is completed when the opponent
	// starts their turn (lifts a piece) or the placement has been stable
	// for [TrackerOptions.CompleteAfter], whichever comes first.
	StableWindow
)

// String returns "clock_press", "release" or "stable_window".
func (c Completion) String() string {
	switch c {
	case ClockPress:
		return "clock_press"
	case Release:
		return "release"
	case StableWindow:
		return "stable_window"
	}
	return "completion(?)"
}

// SetupFunc recognises a start position in a placement: it returns the
// position (side to move, castling rights and all) and its Chess960 number
// (0…959, -1 for the standard position and for positions outside 960), or
// ok false. [ChessSetup] is the one for chess and Chess960.
type SetupFunc func(p rules.Placement) (pos rules.Position, n960 int, ok bool)

// Options configure a [Tracker]. The zero value of every duration means
// its default.
type TrackerOptions struct {
	// Start is the position the game starts from (any FEN, standard,
	// Chess960, …). Required. The geometry comes from it.
	Start rules.Position
	// Completion: when a made move enters the record. Default ClockPress.
	Completion Completion
	// Settle: the sensed placement is judged once it has not changed for
	// this long (a DGT board scans in 200–250 ms; a hand sliding a piece
	// rests up to two scans on a square). Default 500 ms, picochess's
	// Bluetooth value. Under ClockPress a lever press does not wait for
	// it: the board is read once the scan that follows the press has
	// reported it (the press says the mover's hand is done).
	Settle time.Duration
	// CompleteAfter: under StableWindow, a made move is completed after
	// the placement has been stable this long. Default 3 s.
	CompleteAfter time.Duration
	// HoldAfter: a placement that nothing explains is reported as
	// [game.Unexplained] once it has lasted this long (pieces in the air are
	// normal for a moment); an illegal move made but not completed is
	// reported (as information) once it has stood this long. Default 2 s.
	HoldAfter time.Duration
	// HandHold: pieces off the board in the middle of a move (the board
	// shows a position the game may be in with pieces lifted and nothing
	// else changed: a promotion piece being fetched from beside the board,
	// the king held in the hand during Chess960 castling, a piece picked
	// up to think) are reported as [game.Unexplained] only once they have
	// been off this long. Default 20 s: slow hands are not faults.
	HandHold time.Duration
	// LostAfter: a board reported unexplained that nothing has explained
	// for this long since it stopped being explained (or on which a clock
	// press was heard since it was reported: the players play on) is
	// reported lost ([game.Unexplained] with Lost): the record stops at the
	// last ply that agreed with the board until it finds the board again.
	// Default 20 s.
	LostAfter time.Duration
	// PressGrace: after a lever press the board's scan may still be
	// catching up (the lever often beats the scan); a press is judged
	// against the board once the scan that follows it has reported every
	// square, and when the board shows no move by the presser then, the
	// tracker waits up to PressGrace from the press for it before it
	// concludes anything (a press without a move, pieces out of place).
	// Default: two scan periods (learnt, or ScanPeriod).
	PressGrace time.Duration
	// ScanPeriod: the time the board takes to scan all squares, until the
	// tracker has learnt it from the board's own reports (two reports of a
	// square are a whole number of periods apart); changes reported less
	// than this apart may have happened in either order or together, so
	// touch-order findings need a larger gap. Default 250 ms.
	ScanPeriod time.Duration
	// Polled: the board is polled (a DGT board on a bus line): its
	// reports come in answers, each holding what the board saw since the
	// previous one, in order, its lever presses among them
	// ([game.LeverPress]), all stamped with the time of the answer.
	// ScanPeriod is then the poll cycle (the time between two answers of
	// the board; it is not learnt), and a press the answer records is
	// judged on that answer, once the rest of the answer has been fed
	// ([Tracker.Tick] at the answer's time, or any later input): the
	// answer holds everything the board saw up to the poll, so there is
	// no scan to wait for. When the board does not show the presser's move
	// yet (the lever beat the scan), each later answer is judged the same
	// way until PressGrace has passed.
	Polled bool
	// Immediate: the board reports each lift and put the moment it
	// happens (an Open Board Protocol board sends a line at each), not
	// when a scan passes the square: a change reported after a lever press
	// was made after it. A piece put down before the press and lifted
	// only after it then stood where the mover left it (the opponent
	// lifted it, to take it), and the move that put it there stood.
	Immediate bool
	// BoardScan: for a polled board, the longest the board takes to scan
	// every square and log what changed (a DGT board scans in 200–250 ms),
	// a margin included: an answer this long after another holds every
	// change made before the first one ([Tracker.Answered]). Default
	// 300 ms.
	BoardScan time.Duration
	// RestFor: a made move replaced before completion is touch-move
	// evidence (TM-8, FIDE 4.7) only when the piece rested at least this
	// long; shorter stops are a hand sliding a piece. Default 1.5 s.
	RestFor time.Duration
	// AdjustWindow: a piece lifted and put back on its own square within
	// this long may have been an announced adjustment (FIDE 4.2.1); the
	// touch-move evidence says so and is graded lower. Default 2 s.
	AdjustWindow time.Duration
	// TwoHandWindow: king and rook both off the board and both put down
	// within this long of each other in castling suggests two hands (TM-11,
	// FIDE 4.1/7.5.4). Default 250 ms.
	TwoHandWindow time.Duration
	// Flicker: a piece lifted and back on its square within this long is
	// read as sensor noise or a brush, not a touch (one scan cycle cannot
	// tell them apart). Default 300 ms.
	Flicker time.Duration
	// Reread: when nothing explains the board, search lines from earlier
	// plies of the record for the one that does (fitting the presses
	// heard, the shortest), and rewrite the record with it (a reread
	// Correction; heal.go). Never on a board the side to move's illegal
	// move explains (the arbiter must see it), nor on a drop variant's
	// board (a partner's capture changes the pockets at a time the search
	// cannot know). Off in the zero value; a hall board has it on. A board
	// that stays unexplained raises record_lost either way.
	Reread bool
	// DumpsOnly: the board is read only by whole-board reads (a host that
	// polls the whole board, a board whose square reports are lost): a
	// full read ([game.FullRead] through [Tracker.Sense]) counts once the
	// next read shows the same placement, as the changes since the last
	// one that counted; a placement seen once (a hand at work) is never a
	// move. Use with StableWindow when no clock is read.
	DumpsOnly bool
	// MaxDepth bounds the search for several plies made between two
	// settled placements (fast replies). Default 3; at most 4.
	MaxDepth int
	// CatchUpDepth bounds the search after a full board read (reconnect):
	// moves made while the board was not heard. Default 4; at most 6.
	CatchUpDepth int
	// IllegalStands: an illegal move that was completed stands once the
	// opponent makes a move from the illegal position (rapid and blitz,
	// FIDE 2018 A.4.2/B.4). Otherwise the tracker holds at the last legal
	// position until the board is reinstated or the arbiter acts.
	IllegalStands bool
	// AutoOrientation: detect a board turned around (start position or
	// game position seen rotated by 180°) and read it rotated.
	AutoOrientation bool
	// Rotated: the board is known to be turned around from the start.
	Rotated bool
	// Setup recognises start positions (new games). Nil: no set-up
	// detection beyond the start position given.
	Setup SetupFunc
	// Drops: a drop variant (team-drop): a piece put on an empty square
	// with nothing lifted is a drop, and an opponent's piece lifted off with
	// nothing put down is a lift (the removal of a pawn on the last rank,
	// or a confiscation, rules/teamdrop); both are classified as attempts
	// when the rules do not allow them (a piece not in the pocket, a drop
	// giving check, a lift that is no removal), so the wiring can hand them
	// to the match that judges them (board/teamdrop.go).
	Drops bool
	// KingsCentre: read both kings placed on the four centre squares as a
	// result gesture (the DGT convention: e4+d5 1-0, d4+e5 0-1, other
	// pairs 1/2-1/2). Only on 8×8 boards.
	KingsCentre bool
}

// withDefaults returns o with zero durations replaced by their defaults.
func (o TrackerOptions) withDefaults() TrackerOptions {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if o.Polled && o.Settle <= 0 && o.ScanPeriod > 0 {
		// A polled board's placement is known at its answers only: it is
		// settled when the next answer brings nothing new.
		o.Settle = o.ScanPeriod + max(20*time.Millisecond, o.ScanPeriod/10)
	}
	def(&o.Settle, 500*time.Millisecond)
	def(&o.CompleteAfter, 3*time.Second)
	def(&o.HoldAfter, 2*time.Second)
	def(&o.HandHold, 20*time.Second)
	def(&o.LostAfter, 20*time.Second)
	def(&o.AdjustWindow, 2*time.Second)
	def(&o.RestFor, 1500*time.Millisecond)
	def(&o.ScanPeriod, 250*time.Millisecond)
	def(&o.BoardScan, 300*time.Millisecond)
	def(&o.TwoHandWindow, 250*time.Millisecond)
	def(&o.Flicker, 300*time.Millisecond)
	if o.MaxDepth <= 0 {
		o.MaxDepth = 3
	}
	if o.MaxDepth > 4 {
		o.MaxDepth = 4
	}
	if o.CatchUpDepth <= 0 {
		o.CatchUpDepth = 4
	}
	if o.CatchUpDepth > 6 {
		o.CatchUpDepth = 6
	}
	return o
}
