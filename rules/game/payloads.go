package game

import (
	"bytes"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Payload is what the daemon publishes about a game (the payloads of the
// contract, docs/contract.md §3.3–3.5): [MoveEvent], [Correction],
// [ClockEvent], [Result], [Alert] or [Announcement]. Field names and JSON
// tags are the contract; times are [Time], durations int64 milliseconds.
// The set is closed.
type Payload interface {
	// GameID returns the game the payload is about.
	GameID() ID
	payload()
}

// TimeLayout is the wire format of every time in a payload: RFC 3339 with
// milliseconds, always UTC.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Time is a time.Time that marshals as [TimeLayout] in UTC, and as null when
// zero. It unmarshals any RFC 3339 time.
type Time struct{ time.Time }

// T wraps t as a [Time].
func T(t time.Time) Time { return Time{t} }

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(TimeLayout)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, TimeLayout)
	return append(b, '"'), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *Time) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		t.Time = time.Time{}
		return nil
	}
	return t.Time.UnmarshalJSON(b)
}

// Millis converts a duration to whole milliseconds, the wire unit of every
// duration.
func Millis(d time.Duration) int64 { return d.Milliseconds() }

// ClockPair is both remaining times, in milliseconds.
type ClockPair struct {
	WhiteMS int64 `json:"white_ms"`
	BlackMS int64 `json:"black_ms"`
}

// MoveEvent is one ply appended to the record (contract §3.3). Clock is nil
// when no clock is connected. Revision increases whenever a correction rewrote
// the record up to here.
type MoveEvent struct {
	Game     ID         `json:"game"`
	Ply      int        `json:"ply"`
	SAN      string     `json:"san"`
	UCI      string     `json:"uci"`
	FEN      string     `json:"fen"`
	Clock    *ClockPair `json:"clock"`
	EMTMS    int64      `json:"emt_ms"`
	At       Time       `json:"at"`
	Revision int        `json:"revision"`
	// Notation is the Vietnamese xiangqi notation (xiangqi only).
	Notation string `json:"notation,omitempty"`
	// Pockets are the pieces each side of this team-drop board may drop
	// after this move's clock press (team-drop only, never nil there).
	Pockets *Pockets `json:"pockets,omitempty"`
	// Partner is the game id of the partner board (team-drop only).
	Partner string `json:"partner,omitempty"`
}

// Pockets are a team-drop board's two pockets (contract §3.3): upper-case piece
// letters sorted Q R B N P, "" when empty.
type Pockets struct {
	White string `json:"white"`
	Black string `json:"black"`
}

// CorrectionReason says why the record changed other than by appending.
type CorrectionReason string

// Correction reasons, as written in the payload.
const (
	Takeback      CorrectionReason = "takeback"      // pieces put back to an earlier position
	Reinstatement CorrectionReason = "reinstatement" // the position before an illegal move restored (FIDE 7.5.1), by the board or the arbiter
	ArbiterEdit   CorrectionReason = "arbiter"       // an arbiter command set the position
	SetupReset    CorrectionReason = "setup"         // the start position set up during the game
	// Reread: the board showed a position the record did not explain and
	// a line from an earlier ply explains it (and the clock's presses):
	// the record's moves after Ply are replaced by the moves that follow.
	Reread CorrectionReason = "reread"
)

// Correction says the record now ends at Ply (0: no moves), in Position. It is
// an [Event] (the tracker saw the board go back), a [Verdict] (the arbiter
// reinstated a position) and the contract's §3.3 [Payload]: the wiring fills in
// Game, FEN, Moves (the record's moves, UCI) and Revision before publishing it.
type Correction struct {
	Game     ID               `json:"game"`
	Ply      int              `json:"ply"`
	FEN      string           `json:"fen"`
	Moves    []string         `json:"moves"`
	Reason   CorrectionReason `json:"reason"`
	At       Time             `json:"at"`
	Revision int              `json:"revision"`
	// Position is the position after Ply (not published: FEN is).
	Position rules.Position `json:"-"`
	// Was and Now (Reread only, not published: the moves are) are the
	// moves replaced and the moves that replace them, in SAN; Why says
	// what the board showed.
	Was, Now []string `json:"-"`
	Why      string   `json:"-"`
}

// When returns the time of the correction.
func (c Correction) When() time.Time { return c.At.Time }

// Running values of [ClockEvent.Running].
const (
	RunningWhite = "white"
	RunningBlack = "black"
	RunningNone  = "none"
)

// ClockEvent is a clock reading (contract §3.3).
type ClockEvent struct {
	Game    ID     `json:"game"`
	WhiteMS int64  `json:"white_ms"`
	BlackMS int64  `json:"black_ms"`
	Running string `json:"running"`
	At      Time   `json:"at"`
}

// Result ends (or provisionally ends) a game (contract §3.3): the adjudicator's
// [Verdict] and the payload. Result is "1-0", "0-1", "1/2-1/2", or "*"
// when the arbiter resumed the game. Revision is the record revision the
// result applies to (the wiring sets it), so a result withdrawn and given
// again after a correction gets a new message id.
type Result struct {
	Game        ID     `json:"game"`
	Result      string `json:"result"`
	Termination string `json:"termination"`
	Article     string `json:"article"`
	Provisional bool   `json:"provisional"`
	At          Time   `json:"at"`
	Revision    int    `json:"revision"`
}

// Announcement kinds (contract §3.5).
const (
	AnnounceMove     = "move"
	AnnounceTime     = "time"
	AnnounceMismatch = "mismatch"
)

// Announcement is one blind-player relay announcement (contract §3.5).
type Announcement struct {
	Game ID     `json:"game"`
	Ply  int    `json:"ply"`
	Lang string `json:"lang"`
	Text string `json:"text"`
	UCI  string `json:"uci"`
	Kind string `json:"kind"`
	At   Time   `json:"at"`
}

// GameID implements Payload.
func (m MoveEvent) GameID() ID { return m.Game }

// GameID implements Payload.
func (c Correction) GameID() ID { return c.Game }

// GameID implements Payload.
func (c ClockEvent) GameID() ID { return c.Game }

// GameID implements Payload.
func (r Result) GameID() ID { return r.Game }

// GameID implements Payload.
func (a Announcement) GameID() ID { return a.Game }

func (MoveEvent) payload()    {}
func (Correction) payload()   {}
func (ClockEvent) payload()   {}
func (Result) payload()       {}
func (Announcement) payload() {}

func (Correction) event() {}
