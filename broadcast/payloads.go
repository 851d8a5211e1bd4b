package broadcast

// Payloads of interfaces.md §3.2–3.5. Field names and JSON tags are the
// contract; times are [Time] (RFC 3339, milliseconds, UTC), durations are
// int64 milliseconds.

// ClockPair is both remaining times, in milliseconds.
type ClockPair struct {
	WhiteMS int64 `json:"white_ms"`
	BlackMS int64 `json:"black_ms"`
}

// MoveEvent is one ply appended to the record (§3.2). Clock is nil when no
// clock is connected. Revision increases whenever a correction rewrote the
// record up to here.
type MoveEvent struct {
	Game     GameID     `json:"game"`
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
}

// Correction says the record now ends at Ply with Moves (§3.3): a takeback,
// a reinstatement after an illegal move, an arbiter edit.
type Correction struct {
	Game     GameID   `json:"game"`
	Ply      int      `json:"ply"`
	FEN      string   `json:"fen"`
	Moves    []string `json:"moves"`
	Reason   string   `json:"reason"`
	At       Time     `json:"at"`
	Revision int      `json:"revision"`
}

// Running values of [ClockEvent.Running].
const (
	RunningWhite = "white"
	RunningBlack = "black"
	RunningNone  = "none"
)

// ClockEvent is a clock reading (§3.3).
type ClockEvent struct {
	Game    GameID `json:"game"`
	WhiteMS int64  `json:"white_ms"`
	BlackMS int64  `json:"black_ms"`
	Running string `json:"running"`
	At      Time   `json:"at"`
}

// Result ends (or provisionally ends) a game (§3.3). Revision is an extension:
// the record revision the result applies to, so a result withdrawn and given
// again after a correction gets a new message id.
type Result struct {
	Game        GameID `json:"game"`
	Result      string `json:"result"`
	Termination string `json:"termination"`
	Article     string `json:"article"`
	Provisional bool   `json:"provisional"`
	At          Time   `json:"at"`
	Revision    int    `json:"revision"`
}

// GameState is the latest state of a game, the value in the KV bucket (§3.3).
// PGN holds the game as PGN (§6); when empty, the publisher fills it with its
// [Options.RenderPGN] function, if any.
type GameState struct {
	Game      GameID     `json:"game"`
	Event     string     `json:"event"`
	Round     int        `json:"round"`
	Board     int        `json:"board"`
	White     string     `json:"white"`
	Black     string     `json:"black"`
	Variant   string     `json:"variant"`
	Ruleset   string     `json:"ruleset"`
	FEN       string     `json:"fen"`
	Moves     []string   `json:"moves"`
	SAN       []string   `json:"san"`
	Clock     *ClockPair `json:"clock"`
	Result    string     `json:"result"`
	Status    string     `json:"status"`
	PGN       string     `json:"pgn"`
	Revision  int        `json:"revision"`
	UpdatedAt Time       `json:"updated_at"`
}

// Announcement kinds (§3.5).
const (
	AnnounceMove     = "move"
	AnnounceTime     = "time"
	AnnounceMismatch = "mismatch"
)

// Announcement is one blind-player relay announcement (§3.5).
type Announcement struct {
	Game GameID `json:"game"`
	Ply  int    `json:"ply"`
	Lang string `json:"lang"`
	Text string `json:"text"`
	UCI  string `json:"uci"`
	Kind string `json:"kind"`
	At   Time   `json:"at"`
}

// BoardStatus is the state of one board connection, on
// <p>.board.<board_id>.status. BoardID is a subject token; BusAddress is 0 for
// a board alone on its port; Clock names the connected clock ("" when none);
// Error is the last connection error ("" when connected).
type BoardStatus struct {
	BoardID    string `json:"board_id"`
	Port       string `json:"port"`
	Connected  bool   `json:"connected"`
	BusAddress int    `json:"bus_address"`
	Version    string `json:"version"`
	Serial     string `json:"serial"`
	Clock      string `json:"clock"`
	LastSeen   Time   `json:"last_seen"`
	Error      string `json:"error"`
	At         Time   `json:"at"`
}
