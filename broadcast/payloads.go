package broadcast

import "github.com/dgtbridge/dgtbridge/rules/game"

// The payloads of a game (moves, corrections, clock readings, results,
// alerts, announcements) are defined once, in rules/game. Here are the two
// that are not about one game's play: the KV value and a board
// connection's status. Field names and JSON tags are the contract; times
// are [game.Time] (RFC 3339, milliseconds, UTC).

// GameState is the latest state of a game, the value in the KV bucket (§3.3).
// PGN holds the game as PGN (§6); when empty, the publisher fills it with its
// [Options.RenderPGN] function, if any.
type GameState struct {
	Game      game.ID         `json:"game"`
	Event     string          `json:"event"`
	Round     int             `json:"round"`
	Board     int             `json:"board"`
	White     string          `json:"white"`
	Black     string          `json:"black"`
	Variant   string          `json:"variant"`
	Ruleset   string          `json:"ruleset"`
	FEN       string          `json:"fen"`
	Moves     []string        `json:"moves"`
	SAN       []string        `json:"san"`
	Clock     *game.ClockPair `json:"clock"`
	Result    string          `json:"result"`
	Status    string          `json:"status"`
	PGN       string          `json:"pgn"`
	Revision  int             `json:"revision"`
	UpdatedAt game.Time       `json:"updated_at"`
	// Pockets and Partner: team-drop only (§3.3), the board's pockets now
	// and the partner board's game id. BPGN is the match of this board and
	// its partner as BPGN 1.0, as it stood at UpdatedAt (served at
	// /bpgn/<event>/<round>/<board>.bpgn from the public copy).
	Pockets *game.Pockets `json:"pockets,omitempty"`
	Partner string        `json:"partner,omitempty"`
	BPGN    string        `json:"bpgn,omitempty"`
}

// BoardStatus is the state of one board connection, on
// <p>.board.<board_id>.status. BoardID is a subject token; BusAddress is 0 for
// a board alone on its port; Clock names the connected clock ("" when none);
// Error is the last connection error ("" when connected).
type BoardStatus struct {
	BoardID    string    `json:"board_id"`
	Port       string    `json:"port"`
	Connected  bool      `json:"connected"`
	BusAddress int       `json:"bus_address"`
	Version    string    `json:"version"`
	Serial     string    `json:"serial"`
	Clock      string    `json:"clock"`
	LastSeen   game.Time `json:"last_seen"`
	Error      string    `json:"error"`
	At         game.Time `json:"at"`
}
