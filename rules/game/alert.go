package game

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Severity of an alert (docs/contract.md §3.4).
const (
	Crit = "crit" // the Laws oblige or entitle the arbiter to act now
	Warn = "warn" // a possible violation: needs a claim, judgement or unseen facts
	Info = "info" // evidence only
)

// Alert kinds (docs/contract.md §3.4, extended).
const (
	KindIllegalMove       = "illegal_move"
	KindClockWithoutMove  = "clock_without_move"
	KindUnpromotedPawn    = "unpromoted_pawn"
	KindTouchMove         = "touch_move"
	KindFlagFall          = "flag_fall"
	KindBothFlags         = "both_flags"
	KindCheckmate         = "checkmate"
	KindStalemate         = "stalemate"
	KindDeadPosition      = "dead_position"
	KindThreefold         = "threefold_claimable"
	KindFivefold          = "fivefold"
	KindFifty             = "fifty_claimable"
	KindSeventyFive       = "seventy_five"
	KindInsufficient      = "insufficient_material"
	KindDisplaced         = "displaced_pieces"
	KindSetupMismatch     = "setup_mismatch"
	KindResultGesture     = "result_gesture"
	KindBoardDisconnected = "board_disconnected"
	KindClockDisconnected = "clock_disconnected"
	KindTechnicalError    = "technical_error"
	// Extensions.
	KindIllegalPosition = "illegal_position" // A.4.4
	KindClockDefect     = "clock_defect"     // 6.10.1: jump, freeze, reset
	KindClockSetting    = "clock_setting"    // 6.10.2, 7.1: setting or move counter
	KindClockMisuse     = "clock_misuse"     // a move completed with the clock stopped
	KindClockStopped    = "clock_stopped"    // 6.11.2, 9.5.1, A.4.3: a player or the arbiter stopped the clock
	KindScoresheet      = "scoresheet_exemption"
	KindClaim           = "claim" // the verification of a claim the arbiter entered
	KindAmbiguous       = "ambiguous_move"
	KindDrawOffer       = "draw_offer"     // 9.1.2: offer recorded, rejected by touching a piece
	KindCommand         = "arbiter_action" // record of an arbiter command's effect
	// KindPerpetual: a xiangqi repetition classified by Art. 22–24
	// (docs/contract.md §3.4): the side that must change, or its loss proposed.
	KindPerpetual = "perpetual"
	// KindBoardFault: a fault an OBP board reported about itself (an E
	// line): for the arbiter, never acted on.
	KindBoardFault = "board_fault"
	// KindUnidentified: a board that senses only occupancy showed a piece
	// the daemon cannot name; the arbiter's identify command names it.
	KindUnidentified = "unidentified_piece"
	// KindMoveControl: a xiangqi player reached a move control of Art.
	// 10.1.2 with too few moves (the rule set's move_controls).
	KindMoveControl = "move_control"
	// KindCheckLimit: a xiangqi player gave more checks in a 10-move block
	// of the final phase than Art. 10.1.2 allows.
	KindCheckLimit = "check_limit"
	// KindLateArrival: a xiangqi player's clock ran the regulations' late
	// limit without his first move (Art. 10.2.1(a)).
	KindLateArrival = "late_arrival"
	// KindRecordLost: nothing has explained the board for a while (or a
	// clock press came meanwhile): the record stops at the last ply that
	// agreed with the board until it finds the board again (an info alert
	// of the same kind says so) or the arbiter reinstates the position,
	// sets the board's position or enters the moves.
	KindRecordLost = "record_lost"
	// KindRecordCorrected: the tracker rewrote moves of the record from
	// an earlier ply because a line from there explains what the board
	// showed since (a move read wrongly).
	KindRecordCorrected = "record_corrected"
)

// Alert kinds of the daemon itself (extensions of the contract's list).
const (
	// KindBoardMismatch: the daemon could not follow the record (a resumed
	// record that does not replay, a reinstatement the tracker refused,
	// two partner boards that disagree).
	KindBoardMismatch = "board_mismatch"
	// KindClockCommandFailed: a clock setting the adjudicator asked for
	// (penalties: auto, or an arbiter command) was not acknowledged by the
	// clock; the arbiter sets it by hand.
	KindClockCommandFailed = "clock_command_failed"
	// KindStorageFailed (warn): the daemon cannot write this game's record
	// (or its messages) to disk; nothing is lost while it runs (they are
	// kept in memory and written when the disk answers), but a power loss
	// now would lose the moves since. Severity info when writes succeed
	// again.
	KindStorageFailed = "storage_failed"
	// KindRecordDamaged: the game's saved record, or the journal holding
	// its latest changes, was damaged; the damaged file was set aside
	// (named in the message) and the game goes on from what was recovered;
	// moves after that are recovered from the board where it can (the
	// arbiter checks the record).
	KindRecordDamaged = "record_damaged"
	// KindMovesMissing: the board's log does not reach back to the
	// record's last ply (wrapped, erased, a board without one): moves made
	// while the board was not heard are missing from the record.
	KindMovesMissing = "moves_missing"
	// KindSpareSetup: a game was moved to another board (a spare) by the
	// arbiter, and that board does not show the game's position yet
	// (warn; the differences are in the proposal): nothing it shows
	// counts until it does; info once it does, and the game goes on.
	KindSpareSetup = "spare_setup"
	// KindMessageRejected: NATS refused one of a game's messages for good
	// (e.g. over the server's max payload): the message is set aside and
	// the others flow.
	KindMessageRejected = "message_rejected"
)

// Alert kinds of a team-drop match's findings (the "Cờ đặt" rules).
const (
	KindConfiscation     = "confiscation"
	KindPocketsCorrected = "pockets_corrected"
	KindPocketSettled    = "pocket_settled"
	KindMatchEnd         = "match_end"
	KindSimultaneousEnd  = "simultaneous_end"
	KindNotRecorded      = "not_recorded"
	KindLongThink        = "long_think"
)

// Evidence is one sensor fact behind an alert.
type Evidence struct {
	At     Time   `json:"at"`
	Square string `json:"square,omitempty"`
	Piece  string `json:"piece,omitempty"`
	Event  string `json:"event"` // "lift", "place", "flag", "clock", "move", …
}

// Alert is the payload of <p>.arbiter.<g>.alert (docs/contract.md §3.4). ID is
// its message id ("<game>.<kind>.<ply>.<seq>" from the adjudicator). Side
// is "white", "black" or empty; Proposal holds what the rules prescribe
// ({"result":"0-1"}, {"time_add_ms":120000,"side":"black"}, …).
type Alert struct {
	ID       string         `json:"id"`
	Game     ID             `json:"game"`
	Kind     string         `json:"kind"`
	Severity string         `json:"severity"`
	Article  string         `json:"article"`
	Side     string         `json:"side,omitempty"`
	Ply      int            `json:"ply"`
	Message  string         `json:"message"`
	Proposal map[string]any `json:"proposal,omitempty"`
	Evidence []Evidence     `json:"evidence,omitempty"`
	At       Time           `json:"at"`
	// TE is the player's count of technical errors (004 team-drop
	// technical_error alerts, contract §3.3); 0 elsewhere.
	TE int `json:"te,omitempty"`
}

// GameID implements Payload.
func (a Alert) GameID() ID { return a.Game }

func (Alert) payload() {}

// Verdict is what the adjudicator concludes: an [Alert] for the arbiter, a
// [Result], a [Correction] of the record (the arbiter reinstated a
// position) or a [ClockCommand]. The set is closed.
type Verdict interface{ verdict() }

// ClockCommand asks the wiring to set the clock to these times and run the
// given side (rules.NoColor: set and stay stopped). It is the adjudicator's
// only hardware effect: a time penalty when penalties are applied
// automatically, or an arbiter command that sets the clock.
type ClockCommand struct {
	Game         ID
	White, Black time.Duration
	Running      rules.Color
	Reason       string // the alert id or command that caused it
	At           time.Time
}

func (Alert) verdict()        {}
func (Result) verdict()       {}
func (Correction) verdict()   {}
func (ClockCommand) verdict() {}
