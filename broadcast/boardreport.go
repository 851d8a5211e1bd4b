package broadcast

import "github.com/dgtbridge/dgtbridge/rules/game"

// BoardReport is one configured board as the running daemon sees it: what
// "dgtbridge status --json" prints for it and what the status bucket
// (<p>_status, key: the board id) holds. The first fields are those of
// docs/contract.md §1; the rest extend it.
type BoardReport struct {
	BoardID   string `json:"board_id"`
	Port      string `json:"port"`
	Connected bool   `json:"connected"`
	// Game is the board's current game (<event>.<round>.<board>).
	Game game.ID `json:"game"`
	// Ply is the number of plies in the record.
	Ply int `json:"ply"`
	// LastMove is the last ply of the record, nil before the first.
	LastMove *ReportMove `json:"last_move"`
	// Clock is the last clock reading, nil when no clock was read.
	Clock *ReportClock `json:"clock"`
	// Alerts are the alerts of the board's games the arbiter has not yet
	// acted on (crit and warn; info alerts are never open), oldest first.
	Alerts []ReportAlert `json:"alerts"`

	BusAddress int    `json:"bus_address"`
	Serial     string `json:"serial"`
	ClockModel string `json:"clock_model"` // "DGT 3000", "DGT XL", "" none
	// Error is why the board is not connected ("" when it is).
	Error string `json:"error"`
	// Result is the game's result ("*" while it is played).
	Result string `json:"result"`
	// BlindOf is the board id whose blind player this board belongs to
	// (FIDE Laws Appendix D); "" for a board of its own.
	BlindOf  string    `json:"blind_of,omitempty"`
	LastSeen game.Time `json:"last_seen"`
	// UpdatedAt is when the daemon last wrote this report.
	UpdatedAt game.Time `json:"updated_at"`
}

// ReportMove is a ply in SAN and UCI.
type ReportMove struct {
	SAN string `json:"san"`
	UCI string `json:"uci"`
}

// ReportClock is a clock reading; Running is "white", "black" or "none"
// ("" when the reading does not say).
type ReportClock struct {
	WhiteMS int64     `json:"white_ms"`
	BlackMS int64     `json:"black_ms"`
	Running string    `json:"running"`
	At      game.Time `json:"at"`
}

// ReportAlert is an open alert, without its message and evidence (those
// stay on the arbiters' subjects; organisers read the status too).
type ReportAlert struct {
	ID       string    `json:"id"`
	Game     game.ID   `json:"game"`
	Kind     string    `json:"kind"`
	Severity string    `json:"severity"`
	Ply      int       `json:"ply"`
	At       game.Time `json:"at"`
}

// StatusReport is what "dgtbridge status --json" prints and /healthz's
// detail serves: every configured board, in the configuration's order,
// and the Lichess push of each round (when rounds are pushed).
type StatusReport struct {
	Boards  []BoardReport `json:"boards"`
	Lichess []PushReport  `json:"lichess,omitempty"`
	// Version and Commit are the running daemon's (dgtbridge version);
	// "" when not known.
	Version string `json:"version,omitempty"`
	Commit  string `json:"commit,omitempty"`
}

// PushReport is the Lichess push of one round.
type PushReport struct {
	Round int `json:"round"`
	// ID is the Lichess broadcast round id.
	ID string `json:"id"`
	// Pushes counts the pushes Lichess took; LastPush is the last one.
	Pushes   int       `json:"pushes"`
	LastPush game.Time `json:"last_push,omitzero"`
	// Error is the last failure, "" once a push went through again (or
	// what a push that went through could not carry).
	Error string `json:"error,omitempty"`
	// GameErrors are the games Lichess refused in the last push.
	GameErrors []PushGameError `json:"game_errors,omitempty"`
	// Placeholders counts the players pushed under a placeholder name
	// (neither a name nor a FIDE id); Unclocked the moves pushed without
	// a clock reading.
	Placeholders int `json:"placeholders,omitempty"`
	Unclocked    int `json:"unclocked,omitempty"`
}

// PushGameError is a game Lichess refused: its Round tag ("3.7"), its
// players and Lichess's reason.
type PushGameError struct {
	Round string `json:"round"`
	White string `json:"white"`
	Black string `json:"black"`
	Error string `json:"error"`
}

// HealthDetail is GET /healthz?detail: the health verdict with its
// problems (those of the plain /healthz) and the status report.
type HealthDetail struct {
	Healthy  bool     `json:"healthy"`
	Problems []string `json:"problems"`
	StatusReport
}

// DaemonReport is the status bucket's DaemonKey: which boards the running
// daemon has (in order) and when it last said so.
type DaemonReport struct {
	Boards    []string  `json:"boards"`
	Config    string    `json:"config"`
	StartedAt game.Time `json:"started_at"`
	UpdatedAt game.Time `json:"updated_at"`
	// StoppedAt is set when the daemon stopped cleanly.
	StoppedAt game.Time `json:"stopped_at,omitzero"`
	// Lichess is the push of each round (none when no round is pushed).
	Lichess []PushReport `json:"lichess,omitempty"`
	// Version and Commit are the daemon's (dgtbridge version).
	Version string `json:"version,omitempty"`
	Commit  string `json:"commit,omitempty"`
}

// DaemonKey is the key of the DaemonReport in the status bucket (board
// ids are subject tokens and never begin with an underscore).
const DaemonKey = "_daemon"

// StatusBucket is the KV bucket of the board reports: <p>_status. Only
// the daemon writes it (rolePermissions).
func (s Subjects) StatusBucket() string { return s.Prefix + "_status" }
