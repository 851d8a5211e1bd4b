package game

// Beside the payloads of a game's play (moves, corrections, clock readings,
// results, alerts, announcements), two more are published: the KV value of a
// game's latest state and a board connection's status. Field names and JSON
// tags are the contract; times are [Time] (RFC 3339, milliseconds, UTC).

// GameState is the latest state of a game, the value in the KV bucket (contract
// §3.3).
//
// PGN holds the whole game as PGN (contract §6) once the game has a result;
// while it is in progress PGN is "" and the PGN is built on request (the PGN
// API, GET /pgn/…, the publisher's RenderPGN option) from the state: a state
// published after every move does not carry the whole game each time. The
// extension fields after UpdatedAt are what the PGN needs beyond the contract's
// fields, so any daemon of a cluster, or a client, can build it from the KV
// alone.
type GameState struct {
	Game      ID         `json:"game"`
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
	// Pockets and Partner: team-drop only (contract §3.3), the board's pockets now
	// and the partner board's game id. BPGN is the match of this board and
	// its partner as BPGN 1.0, as it stood at UpdatedAt (served at
	// /bpgn/<event>/<round>/<board>.bpgn from the public copy).
	Pockets *Pockets `json:"pockets,omitempty"`
	Partner string   `json:"partner,omitempty"`
	BPGN    string   `json:"bpgn,omitempty"`

	// EventName and Site are the PGN's Event and Site tags.
	EventName string `json:"event_name,omitempty"`
	Site      string `json:"site,omitempty"`
	// Started is when the game began (the PGN's Date).
	Started     Time   `json:"started,omitzero"`
	WhiteFideID string `json:"white_fide_id,omitempty"`
	BlackFideID string `json:"black_fide_id,omitempty"`
	// WhiteTitle and BlackTitle are the players' FIDE titles (GM … WCM).
	WhiteTitle  string `json:"white_title,omitempty"`
	BlackTitle  string `json:"black_title,omitempty"`
	WhiteTeam   string `json:"white_team,omitempty"`
	BlackTeam   string `json:"black_team,omitempty"`
	TimeControl string `json:"time_control,omitempty"`
	// StartFEN is the position before the first move ("": the variant's
	// standard start).
	StartFEN    string `json:"start_fen,omitempty"`
	Termination string `json:"termination,omitempty"`
	// Clocks holds, for each ply, the mover's remaining time after it in
	// milliseconds, -1 where no clock was read; absent when no ply has one.
	Clocks []int64 `json:"clocks,omitempty"`
	// EMT holds, for each ply, the time the mover used in milliseconds.
	EMT []int64 `json:"emt_ms,omitempty"`
	// PlyPockets holds, for each ply of a team-drop game, the board's
	// pockets after its press (the PGN's [%pocket]).
	PlyPockets []Pockets `json:"ply_pockets,omitempty"`
	// Notation: xiangqi games' moves in the Vietnamese notation of 001
	// (docs/contract.md §3.3), one per ply; absent for other variants.
	Notation []string `json:"notation,omitempty"`
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
