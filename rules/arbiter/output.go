package arbiter

import (
	"encoding/json"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Output is one thing the adjudicator produced: *Alert, *Result,
// *Correction or *ClockCommand.
type Output interface{ output() }

// Severity of an alert (specs/fide-laws.md §0.3).
const (
	Crit = "crit" // the Laws oblige or entitle the arbiter to act now
	Warn = "warn" // a possible violation: needs a claim, judgement or unseen facts
	Info = "info" // evidence only
)

// Alert kinds (specs/interfaces.md §3.4, extended).
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
)

// Evidence is one sensor fact behind an alert.
type Evidence struct {
	At     time.Time `json:"at"`
	Square string    `json:"square,omitempty"`
	Piece  string    `json:"piece,omitempty"`
	Event  string    `json:"event"` // "lift", "place", "flag", "clock", "move"
}

// Alert is the payload of <p>.arbiter.<g>.alert (specs/interfaces.md §3.4).
// Side is "white", "black" or empty; Proposal holds what the rules
// prescribe ({"result":"0-1"}, {"time_add_ms":120000,"side":"black"}, …).
type Alert struct {
	ID       string         `json:"id"`
	Game     string         `json:"game"`
	Kind     string         `json:"kind"`
	Severity string         `json:"severity"`
	Article  string         `json:"article"`
	Side     string         `json:"side,omitempty"`
	Ply      int            `json:"ply"`
	Message  string         `json:"message"`
	Proposal map[string]any `json:"proposal,omitempty"`
	Evidence []Evidence     `json:"evidence,omitempty"`
	At       time.Time      `json:"at"`
}

// Result is the payload of <p>.game.<g>.end (specs/interfaces.md §3.3).
type Result struct {
	Game        string    `json:"game"`
	Result      string    `json:"result"` // "1-0", "0-1", "1/2-1/2", "*"
	Termination string    `json:"termination"`
	Article     string    `json:"article"`
	Provisional bool      `json:"provisional"`
	At          time.Time `json:"at"`
}

// Correction is the payload of <p>.game.<g>.correction: the record now
// ends at Ply with Moves (UCI), in position FEN.
type Correction struct {
	Game     string    `json:"game"`
	Ply      int       `json:"ply"`
	FEN      string    `json:"fen"`
	Moves    []string  `json:"moves"`
	Reason   string    `json:"reason"`
	At       time.Time `json:"at"`
	Revision int       `json:"revision"`
}

// ClockCommand asks the wiring to set the DGT 3000 to these times and run
// the given side (SetNRun; rules.NoColor: set and stay stopped). It is the
// only hardware effect of this package: a time penalty under
// PenaltiesAuto, or an arbiter command that sets the clock.
type ClockCommand struct {
	Game         string
	White, Black time.Duration
	Running      rules.Color
	Reason       string // the alert id or command that caused it
	At           time.Time
}

func (*Alert) output()        {}
func (*Result) output()       {}
func (*Correction) output()   {}
func (*ClockCommand) output() {}

// timeJSON formats t as RFC 3339 with milliseconds in UTC.
func timeJSON(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// MarshalJSON writes times as RFC 3339 with milliseconds.
func (e Evidence) MarshalJSON() ([]byte, error) {
	type plain Evidence
	return json.Marshal(struct {
		plain
		At string `json:"at"`
	}{plain(e), timeJSON(e.At)})
}

// MarshalJSON writes times as RFC 3339 with milliseconds.
func (a Alert) MarshalJSON() ([]byte, error) {
	type plain Alert
	return json.Marshal(struct {
		plain
		At string `json:"at"`
	}{plain(a), timeJSON(a.At)})
}

// MarshalJSON writes times as RFC 3339 with milliseconds.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	return json.Marshal(struct {
		plain
		At string `json:"at"`
	}{plain(r), timeJSON(r.At)})
}

// MarshalJSON writes times as RFC 3339 with milliseconds.
func (c Correction) MarshalJSON() ([]byte, error) {
	type plain Correction
	return json.Marshal(struct {
		plain
		At string `json:"at"`
	}{plain(c), timeJSON(c.At)})
}
