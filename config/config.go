package config

import (
	"fmt"
	"time"
)

// Config is the whole configuration (docs/contract.md §2). The
// mapstructure tags are the key names of the file.
type Config struct {
	// DataDir holds state, recordings and the embedded NATS store.
	DataDir string `mapstructure:"data_dir" json:"data_dir"`
	// Record keeps every serial byte with timestamps (contract.md §4).
	Record    bool      `mapstructure:"record" json:"record"`
	NATS      NATS      `mapstructure:"nats" json:"nats"`
	HTTP      HTTP      `mapstructure:"http" json:"http"`
	Relay     Relay     `mapstructure:"relay" json:"relay"`
	Penalties Penalties `mapstructure:"penalties" json:"penalties"`
	Lichess   Lichess   `mapstructure:"lichess" json:"lichess"`
	LiveChess LiveChess `mapstructure:"livechess" json:"livechess"`
	Event     Event     `mapstructure:"event" json:"event"`
	Storage   Storage   `mapstructure:"storage" json:"storage"`
	Tracker   Tracker   `mapstructure:"tracker" json:"tracker"`
	Daemon    Daemon    `mapstructure:"daemon" json:"daemon"`
	// Boards lists the games of the hall; empty means no boards (the run
	// command reports that; demo builds its own).
	Boards []Board `mapstructure:"boards" json:"boards"`
	// Spares are DGT boards kept ready on their own ports: an arbiter
	// moves a game whose board fails onto one (the switch_board command).
	Spares []Spare `mapstructure:"spares" json:"spares"`

	// File is the configuration file that was read, "" when none. It is
	// set by [Load], not read from the file.
	File string `mapstructure:"-" json:"-"`
}

// NATS says where to publish.
type NATS struct {
	// URL of an external NATS server; empty starts the embedded server.
	URL string `mapstructure:"url" json:"url"`
	// Prefix is the first subject token ([a-z0-9_-]+).
	Prefix string `mapstructure:"prefix" json:"prefix"`
	// Creds is a NATS credentials file, used when URL is set.
	Creds string `mapstructure:"creds" json:"creds"`
	// Nkey is a file holding an nkey seed ("SU…"), used when URL is set
	// (the server knows the user by its public key); not with Creds.
	Nkey string `mapstructure:"nkey" json:"nkey"`
	// WebsocketURL is where browsers (the arbiters' page) reach NATS over
	// websocket: ws://…, wss://…, or a path relative to the page behind a
	// reverse proxy. "" : the embedded server's Embedded.WebSocket listener.
	WebsocketURL string   `mapstructure:"websocket_url" json:"websocket_url"`
	Embedded     Embedded `mapstructure:"embedded" json:"embedded"`
	// Replicas is how many copies of each stream and of the KV bucket a
	// cluster keeps (1 alone; 3 on a three-node cluster, so a node may
	// fail). The daemon creates or updates them with it.
	Replicas int `mapstructure:"replicas" json:"replicas"`
}

// Embedded configures the in-process nats-server used when NATS.URL is "".
type Embedded struct {
	// Listen is host:port of the client listener.
	Listen string `mapstructure:"listen" json:"listen"`
	// WebSocket is host:port of a websocket listener for browsers; "" none.
	WebSocket string `mapstructure:"websocket" json:"websocket"`
	// TLS is the certificate and key of both listeners (nats:// with TLS,
	// wss://); empty: no TLS.
	TLS TLSFiles `mapstructure:"tls" json:"tls"`
	// Insecure allows a listener on a non-loopback address without TLS
	// (warned about at every start); without it such a listener is an
	// error.
	Insecure bool `mapstructure:"insecure" json:"insecure"`
	// Users; none means no authentication, and then Listen and WebSocket
	// must be loopback addresses.
	Users []User `mapstructure:"users" json:"users"`
}

// TLSFiles are PEM files: a certificate (chain) and its private key.
type TLSFiles struct {
	Cert string `mapstructure:"cert" json:"cert"`
	Key  string `mapstructure:"key" json:"key"`
}

// User is one account of the embedded server.
type User struct {
	User string `mapstructure:"user" json:"user"`
	// Password is the password or, better, its bcrypt hash ("$2a$…").
	Password string `mapstructure:"password" json:"password"`
	Role     Role   `mapstructure:"role" json:"role"`
	// Board is a relay user's board number (role relay only).
	Board int `mapstructure:"board" json:"board"`
}

// Role is what a NATS user may read (contract.md §3.1).
type Role string

// The roles.
const (
	RoleOrganiser Role = "organiser" // everything but arbiter subjects
	RoleArbiter   Role = "arbiter"   // arbiter subjects and commands too
	RolePublic    Role = "public"    // <p>.public.> and the public PGN only
	RoleRelay     Role = "relay"     // one board's announcements and talking clock
)

// HTTP configures the PGN feeds and the health endpoint.
type HTTP struct {
	// Listen is host:port of the public listener (the PGN feeds, the
	// pages, /healthz); "" disables it.
	Listen string `mapstructure:"listen" json:"listen"`
	// AdminListen is host:port of the admin listener: /healthz?detail,
	// /metrics and pprof without sign-in, so it must be a loopback
	// address; port 0 picks a free port (logged at start); "" disables
	// it. On Listen those paths need an organiser's or arbiter's
	// credentials.
	AdminListen string `mapstructure:"admin_listen" json:"admin_listen"`
	// Pprof serves Go's profiles at /debug/pprof/ (off by default; staff
	// only, as /metrics).
	Pprof bool `mapstructure:"pprof" json:"pprof"`
}

// Relay configures the blind-player relay (FIDE Laws Appendix D).
type Relay struct {
	// Speak is "" (announcements are published, not spoken), "device"
	// (spoken on the default audio device with espeak-ng) or a folder that
	// receives one WAV file per announcement.
	Speak string `mapstructure:"speak" json:"speak"`
}

// SpeakOff and SpeakDevice are the two fixed values of Relay.Speak.
const (
	SpeakOff    = ""
	SpeakDevice = "device"
)

// Penalties says who applies time penalties.
type Penalties string

// The penalty modes.
const (
	// PenaltiesAlert: the daemon proposes, the arbiter applies (default).
	PenaltiesAlert Penalties = "alert"
	// PenaltiesAuto: time penalties are sent to the DGT 3000 clock with
	// SetNRun (levers left working). That puts the clock in its
	// PC-controlled mode, where it adds no increment, delay or period
	// time and which no command undoes; the alert says the penalty was
	// applied and asks the arbiter to reset the clock by hand (the daemon
	// meanwhile expects no increments, so their absence is no clock
	// defect). Boards on a DGT bus line cannot take clock commands: the
	// arbiter is alerted instead.
	PenaltiesAuto Penalties = "auto"
)

// Lichess pushes the public copy of rounds to Lichess broadcast rounds
// (contract.md §2; the lichess package).
type Lichess struct {
	// URL is the API base: https://lichess.org, another lila instance, or
	// a test server. No trailing slash is needed.
	URL string `mapstructure:"url" json:"url"`
	// TokenFile holds a Lichess API token with the study:write scope
	// (whitespace around it ignored). Required when Rounds is not empty.
	TokenFile string `mapstructure:"token_file" json:"token_file"`
	// Rounds maps a round number to the id of its Lichess broadcast round
	// (the eight letters and digits at the end of the round's URL).
	Rounds map[int]string `mapstructure:"rounds" json:"rounds"`
	// Split maps a round of more than 100 boards (Lichess takes 100 games
	// a push) to the further Lichess rounds its games go to, by hundreds in
	// board order: {3: [EfGh5678, IjKl9012]} sends boards 101–200 of round
	// 3 to EfGh5678 and 201–300 to IjKl9012.
	Split map[int][]string `mapstructure:"split" json:"split"`

	// Token is the token read from TokenFile by [Load] (not a key).
	Token string `mapstructure:"-" json:"-"`
}

// Event describes the tournament; its ruleset and time control apply to
// every board that does not override them.
type Event struct {
	// ID is the subject token of the event ([a-z0-9_-]+).
	ID   string `mapstructure:"id" json:"id"`
	Name string `mapstructure:"name" json:"name"`
	Site string `mapstructure:"site" json:"site"`
	// Ruleset is one of [RulesetNames].
	Ruleset string `mapstructure:"ruleset" json:"ruleset"`
	// TimeControl in PGN TimeControl syntax ("5400+30", "40/7200:1800+30").
	TimeControl string `mapstructure:"time_control" json:"time_control"`
	// PublicDelay delays the public copy; 0 publishes it at once. In the
	// file a duration with a unit ("15m", "90s"), or 0.
	PublicDelay time.Duration `mapstructure:"public_delay" json:"public_delay"`
	// Pairings is a pairing file (CSV or FIDE TRF-16, the pairings
	// package) that fills the players, FIDE ids and teams of every board
	// for its round; what a board gives itself wins. "" for none.
	Pairings string `mapstructure:"pairings" json:"pairings"`
	// Round is the round of every board that gives none (an extension of
	// contract.md §2: a new round is then one line to change); 0: every
	// board gives its own.
	Round int `mapstructure:"round" json:"round"`
	// Rules overrides parameters of the rule set on every board: keys are
	// the snake_case names of ruleset.OverrideKeys ("illegal_loss_at: 3",
	// "illegal_time_award: 1m", "supervision_regime: limited"). A board's
	// own Board.Rules win key by key. Checked at load time against the
	// event's rule set (and each board's); only the file can set it.
	Rules map[string]any `mapstructure:"rules" json:"rules,omitempty"`
}

// Storage tunes how the daemon writes its game journal and records
// (docs/durability.md). The defaults suit a hall of up to 2,000 boards on
// an ordinary disk; the limits are checked in [Config.Validate].
type Storage struct {
	// CommitWindow is how long the moves of other boards may join one
	// flush of the journal (group commit); 0: a flush takes what arrived
	// during the previous one. Longer: fewer flushes, later publication.
	CommitWindow time.Duration `mapstructure:"commit_window" json:"commit_window"`
	// CompactEvery: the journal is written into the record files this
	// often while games change (a restart sends again at most this much,
	// which the streams drop as repeats).
	CompactEvery time.Duration `mapstructure:"compact_every" json:"compact_every"`
	// CompactMiB: and whenever the journal has grown by this many MiB.
	CompactMiB int `mapstructure:"compact_mib" json:"compact_mib"`
	// DrainTimeout bounds how long a stopping daemon keeps writing what
	// waits (a failing disk) and writing the record files; keep it below
	// the service manager's stop timeout (TimeoutStopSec=20s in our unit).
	DrainTimeout time.Duration `mapstructure:"drain_timeout" json:"drain_timeout"`
	// HistoryWait is how long a game whose saved record was damaged waits,
	// at start, to read back what was published of it from NATS; 0: it is
	// not read back (the game keeps what the disk held).
	HistoryWait time.Duration `mapstructure:"history_wait" json:"history_wait"`
}

// Tracker tunes how the daemon reads moves from the boards' reports
// (docs/board-fidelity.md); the limits are checked in [Config.Validate].
type Tracker struct {
	// PressGrace: how long a clock press waits, at most, for the board to
	// show the move it completes before anything is concluded (a press
	// without a move, pieces out of place); 0: two of the board's scan
	// periods (learnt from its reports; 250 ms until then).
	PressGrace time.Duration `mapstructure:"press_grace" json:"press_grace"`
	// HandHold: how long pieces may be off the board in a position the
	// game may be in (a promotion piece fetched, the king held during
	// Chess960 castling) before the arbiter is told.
	HandHold time.Duration `mapstructure:"hand_hold" json:"hand_hold"`
	// LostAfter: how long nothing may explain the board (pieces held in
	// the hand apart) before the record is reported lost (record_lost,
	// crit); a clock press heard while the board is unexplained reports it
	// at once.
	LostAfter time.Duration `mapstructure:"lost_after" json:"lost_after"`
	// Reread: when nothing explains the board, the record is reread from
	// an earlier ply (a move read wrongly, e.g. a blitz recapture made
	// before the board's scan saw the piece it takes), with a
	// record_corrected warning; false: the board stays unexplained until
	// the arbiter acts on record_lost.
	Reread bool `mapstructure:"reread" json:"reread"`
}

// Board is one game: a board (and clock) on a port, and its pairing.
type Board struct {
	// Port is a device path or "auto".
	Port string `mapstructure:"port" json:"port"`
	// BusAddress > 0 selects a board on a DGT bus line shared with others
	// on Port; 0 is a single board.
	BusAddress int `mapstructure:"bus_address" json:"bus_address"`
	// Round and Board number the game (subject tokens; both ≥ 1).
	Round int `mapstructure:"round" json:"round"`
	Board int `mapstructure:"board" json:"board"`

	White       string `mapstructure:"white" json:"white"`
	Black       string `mapstructure:"black" json:"black"`
	WhiteFideID string `mapstructure:"white_fide_id" json:"white_fide_id"`
	BlackFideID string `mapstructure:"black_fide_id" json:"black_fide_id"`
	// WhiteTitle and BlackTitle are FIDE titles (GM … WCM), "" none.
	WhiteTitle string `mapstructure:"white_title" json:"white_title"`
	BlackTitle string `mapstructure:"black_title" json:"black_title"`

	// Variant is one of [VariantNames]; "" is chess.
	Variant string `mapstructure:"variant" json:"variant"`
	// Ruleset overrides Event.Ruleset when not "".
	Ruleset string `mapstructure:"ruleset" json:"ruleset"`
	// TimeControl overrides Event.TimeControl when not "".
	TimeControl string `mapstructure:"time_control" json:"time_control"`
	// FEN is the start position when not the standard one.
	FEN string `mapstructure:"fen" json:"fen"`
	// Rules overrides rule-set parameters for this board only, on top of
	// Event.Rules (same keys; the board wins).
	Rules map[string]any `mapstructure:"rules" json:"rules,omitempty"`
	// Blind, when set, is the blind player's own board (Appendix D).
	Blind *Blind `mapstructure:"blind" json:"blind,omitempty"`
	// Partner is the board number of the partner game in the same round;
	// required for team-drop, ignored for every other variant.
	Partner int `mapstructure:"partner" json:"partner"`
	// WhiteTeam and BlackTeam name the players' teams (PGN WhiteTeam,
	// BlackTeam).
	WhiteTeam string `mapstructure:"white_team" json:"white_team"`
	BlackTeam string `mapstructure:"black_team" json:"black_team"`
	// Protocol is how the board is read: one of [ProtocolNames]; "" is
	// dgt. A manual board has no port: its moves are entered on
	// <p>.input.<g>.move.
	Protocol string `mapstructure:"protocol" json:"protocol"`
}

// Spare is a DGT board kept ready on its own port, onto which an arbiter
// moves a game mid-game ({"cmd":"switch_board","to":"<id>"}).
type Spare struct {
	// ID names the spare in the command ([a-z0-9_-]+, not a board's id).
	ID string `mapstructure:"id" json:"id"`
	// Port is its device path (not auto, not a bus line, no board's).
	Port string `mapstructure:"port" json:"port"`
}

// Blind is the blind player's board and announcement language.
type Blind struct {
	// Side is the blind player: "white" or "black". With Player it is
	// left out: the pairing file gives it, round by round.
	Side string `mapstructure:"side" json:"side"`
	// Player, when set, names the blind player as the pairing file does
	// (a FIDE id, or the name): the board then follows the player, taking
	// the board number and colour of the player's game in its round, and
	// the board that had that number takes this board's own (the two
	// games change tables). Needs event.pairings.
	Player string `mapstructure:"player" json:"player,omitempty"`
	// Port and BusAddress locate that player's board, as for [Board].
	Port       string `mapstructure:"port" json:"port"`
	BusAddress int    `mapstructure:"bus_address" json:"bus_address"`
	// Lang is the announcement language: en, de or vi.
	Lang string `mapstructure:"lang" json:"lang"`
}

// GameID returns "<event>.<round>.<board>", the <g> of the NATS subjects.
// A board without a round takes event.round.
func (c *Config) GameID(b Board) string {
	return fmt.Sprintf("%s.%d.%d", c.Event.ID, c.round(b), b.Board)
}

// round is the board's round, or event.round when it gives none.
func (c *Config) round(b Board) int {
	if b.Round == 0 {
		return c.Event.Round
	}
	return b.Round
}

// Effective returns b with the event's defaults filled in: Variant ""
// becomes "chess", Protocol "" becomes "dgt", Round 0 takes event.round,
// an empty Ruleset or TimeControl takes the event's, and
// Rules becomes a new map of the event's overrides with the board's on
// top (nil when neither has any). [Board.RuleSet] then gives the rule set
// that judges the game.
func (c *Config) Effective(b Board) Board {
	b.Rules = mergeRules(c.Event.Rules, b.Rules)
	if b.Variant == "" {
		b.Variant = VariantChess
	}
	if b.Protocol == "" {
		b.Protocol = ProtocolDGT
	}
	b.Round = c.round(b)
	if b.Ruleset == "" {
		b.Ruleset = c.Event.Ruleset
	}
	if b.TimeControl == "" {
		b.TimeControl = c.Event.TimeControl
	}
	return b
}

// EffectiveBoards returns every board with [Config.Effective] applied.
func (c *Config) EffectiveBoards() []Board {
	out := make([]Board, len(c.Boards))
	for i, b := range c.Boards {
		out[i] = c.Effective(b)
	}
	return out
}
