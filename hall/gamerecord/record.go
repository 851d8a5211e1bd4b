package gamerecord

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// Game statuses of Record.Status and GameState.status.
const (
	StatusWaiting = "waiting" // no move yet
	StatusPlaying = "playing" // moves, no result
	StatusEnded   = "ended"   // a final result
	// StatusProvisional: an automatic result (checkmate, stalemate, …) waits
	// for the arbiter's confirmation.
	StatusProvisional = "provisional"
)

// Info identifies a game and what the PGN's tags say about it.
type Info struct {
	Game        game.ID `json:"game"`
	EventName   string  `json:"event_name,omitempty"`
	Site        string  `json:"site,omitempty"`
	White       string  `json:"white,omitempty"`
	Black       string  `json:"black,omitempty"`
	WhiteFideID string  `json:"white_fide_id,omitempty"`
	BlackFideID string  `json:"black_fide_id,omitempty"`
	// WhiteTitle and BlackTitle are the players' FIDE titles (GM … WCM);
	// "" none.
	WhiteTitle string `json:"white_title,omitempty"`
	BlackTitle string `json:"black_title,omitempty"`
	// WhiteTeam and BlackTeam name the players' teams (PGN WhiteTeam,
	// BlackTeam); "" none.
	WhiteTeam string `json:"white_team,omitempty"`
	BlackTeam string `json:"black_team,omitempty"`
	// Variant is the rules engine's variant name ("chess", "chess960",
	// "team-drop"); "" is chess.
	Variant     string `json:"variant,omitempty"`
	Ruleset     string `json:"ruleset,omitempty"`
	TimeControl string `json:"time_control,omitempty"`
}

// Ply is one completed move of a record.
type Ply struct {
	UCI string `json:"uci"`
	SAN string `json:"san"`
	FEN string `json:"fen"` // after the move
	// Clock is both remaining times after the move; nil without a clock.
	Clock *game.ClockPair `json:"clock,omitempty"`
	// EMTMS is the time the mover used: from the completion of the previous
	// ply (or the start of the game) to the completion of this one.
	EMTMS int64     `json:"emt_ms"`
	At    time.Time `json:"at"`
	// Pockets: team-drop only, this board's pockets after the move's press.
	Pockets *game.Pockets `json:"pockets,omitempty"`
	// Notation is the move for people in xiangqi games (the short
	// Vietnamese form of 001 by default; xiangqi.go); "" elsewhere.
	Notation string `json:"notation,omitempty"`
}

// Record is the persisted state of one game: everything the payloads of
// docs/contract.md §3 and the PGN of §6 are made from. It is a plain value;
// the board goroutine owns it.
type Record struct {
	Info Info `json:"info"`
	// StartFEN is the position before the first move ("" standard chess).
	StartFEN string `json:"start_fen,omitempty"`
	// Started is when the game began (set-up seen or first message).
	Started time.Time `json:"started"`
	// Moves are the completed plies. They are only ever appended to in
	// place: a ply in it is never changed, and a cut (a correction)
	// clips the slice so that the next append copies. So the copies of a
	// record handed to other goroutines (the writer's, Hall.Record's)
	// share its array instead of copying it ([Record.SharedMoves]); they
	// read it and never write into it.
	Moves []Ply `json:"moves"`
	// Revision increases whenever a correction rewrites the record.
	Revision    int    `json:"revision"`
	Result      string `json:"result"` // "*" while in progress
	Termination string `json:"termination,omitempty"`
	Article     string `json:"article,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
	// Clock is the last clock reading; nil when no clock was seen.
	Clock *game.ClockPair `json:"clock,omitempty"`
	// ClockLeft is the colour whose time the clock's left display shows
	// ("white" or "black"), once the first running reading told; "" before.
	ClockLeft string `json:"clock_left,omitempty"`
	// ClockHost: the clock is under host control (a SetNRun was sent: a
	// penalty applied, an arbiter's setting) and adds no increments; the
	// clock model resumes with it (kept across restarts).
	ClockHost bool `json:"clock_host,omitempty"`
	// Spare names the spare board (hall.Spare's ID) the game is read
	// from since an arbiter moved it there (switch_board); "" for the
	// board's own port. Kept across restarts.
	Spare string `json:"spare,omitempty"`
	// Rotated: the board is read turned around (kept across restarts).
	Rotated bool `json:"rotated,omitempty"`
	// SetUp: the board was seen in the game's start position before its
	// first move. Then the start position the board's log holds last is
	// this game's, and moves made while the board was not heard before
	// any was recorded are rebuilt from the log (recover.go).
	SetUp bool `json:"set_up,omitempty"`
	// Published is how many moves of this revision were handed to the sink
	// (their MoveEvents journalled); a restart hands the rest again.
	Published int `json:"published"`
	// LastCorrection is the latest correction of the record, handed again
	// (same message id) after a restart in case the crash came between
	// saving the record and journalling it.
	LastCorrection *game.Correction `json:"last_correction,omitempty"`
	UpdatedAt      time.Time        `json:"updated_at"`
	// Team: a team-drop game's part of its match (team_record.go); nil
	// for every other game.
	Team *TeamRecord `json:"team,omitempty"`
}

// NewRecord returns the empty record of a game starting at startFEN ("" for
// the variant's standard start).
func NewRecord(info Info, startFEN string, started time.Time) *Record {
	return &Record{Info: info, StartFEN: startFEN, Started: started, Result: "*", UpdatedAt: started}
}

// SharedMoves returns the moves for a copy of the record: the same array,
// clipped (an append to either copy then makes a new one).
func (r *Record) SharedMoves() []Ply { return slices.Clip(r.Moves) }

// Status returns waiting, playing, provisional or ended.
func (r *Record) Status() string {
	switch {
	case r.Result != "" && r.Result != "*" && r.Provisional:
		return StatusProvisional
	case r.Result != "" && r.Result != "*":
		return StatusEnded
	case len(r.Moves) == 0:
		return StatusWaiting
	}
	return StatusPlaying
}

// lastAt returns when the last move was completed, or the start.
func (r *Record) LastAt() time.Time {
	if n := len(r.Moves); n > 0 {
		return r.Moves[n-1].At
	}
	return r.Started
}

// FEN returns the current position's FEN.
func (r *Record) FEN() string {
	if n := len(r.Moves); n > 0 {
		return r.Moves[n-1].FEN
	}
	if r.StartFEN != "" {
		return r.StartFEN
	}
	p, err := pgn.Position(r.Variant(), "")
	if err != nil {
		return ""
	}
	return p.FEN()
}

func (r *Record) Variant() string {
	if r.Info.Variant == "" {
		return "chess"
	}
	return r.Info.Variant
}

// UCIs returns the moves in coordinate notation.
func (r *Record) UCIs() []string {
	out := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		out[i] = m.UCI
	}
	return out
}

// MoveEvent returns the MoveEvent (contract §3.3) of ply (1-based).
func (r *Record) MoveEvent(ply int) game.MoveEvent {
	m := r.Moves[ply-1]
	ev := game.MoveEvent{Game: r.Info.Game, Ply: ply, SAN: m.SAN, UCI: m.UCI, FEN: m.FEN,
		Clock: m.Clock, EMTMS: m.EMTMS, At: game.T(m.At), Revision: r.Revision, Notation: m.Notation}
	r.teamMove(&ev, m)
	return ev
}

// ResultPayload returns the Result (contract §3.3) of the record at time at.
func (r *Record) ResultPayload(at time.Time) game.Result {
	return game.Result{Game: r.Info.Game, Result: r.Result, Termination: r.Termination,
		Article: r.Article, Provisional: r.Provisional, At: game.T(at), Revision: r.Revision}
}

// State returns the GameState (the KV value): with the whole PGN once the
// game has a result, and without it while it is in progress (StatePGN
// builds it from the state on request).
func (r *Record) State() game.GameState {
	n := len(r.Moves)
	san, emt := make([]string, n), make([]int64, n)
	var clocks []int64
	for i, m := range r.Moves {
		san[i], emt[i] = m.SAN, m.EMTMS
		if m.Clock != nil && clocks == nil {
			clocks = make([]int64, n)
			for j := range i {
				clocks[j] = -1
			}
		}
		if clocks != nil {
			clocks[i] = -1
			if m.Clock != nil {
				clocks[i] = m.Clock.BlackMS
				if whiteMoved(r, i) {
					clocks[i] = m.Clock.WhiteMS
				}
			}
		}
	}
	g := r.Info.Game
	st := game.GameState{Game: g, Event: g.Event, Round: g.Round, Board: g.Board,
		White: r.Info.White, Black: r.Info.Black, Variant: r.Variant(), Ruleset: r.Info.Ruleset,
		FEN: r.FEN(), Moves: r.UCIs(), SAN: san, Clock: r.Clock, Result: r.Result, Status: r.Status(),
		Revision: r.Revision, UpdatedAt: game.T(r.UpdatedAt),
		EventName: r.Info.EventName, Site: r.Info.Site, Started: game.T(r.Started),
		WhiteFideID: r.Info.WhiteFideID, BlackFideID: r.Info.BlackFideID, WhiteTitle: r.Info.WhiteTitle, BlackTitle: r.Info.BlackTitle, WhiteTeam: r.Info.WhiteTeam, BlackTeam: r.Info.BlackTeam,
		TimeControl: r.Info.TimeControl, StartFEN: r.StartFEN, Termination: r.Termination, Clocks: clocks, EMT: emt,
		Notation: r.notations()}
	r.teamState(&st)
	if r.Result != "" && r.Result != "*" || st.Pockets != nil {
		// An ended game's state holds its whole PGN; so does a team-drop
		// game's (its [%pocket] comments are not in the state).
		st.PGN = r.PGN()
	}
	return st
}

// notations returns the moves in the notation for people of a xiangqi
// game (GameState.notation), nil for other variants.
func (r *Record) notations() []string {
	if r.Variant() != VariantXiangqi {
		return nil
	}
	out := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		out[i] = m.Notation
	}
	return out
}

// PGNGame returns the record as a rules/pgn game (docs/contract.md §6): the
// seven tag roster, Round "r.b", WhiteFideId, BlackFideId, TimeControl,
// GameId, Variant/SetUp/FEN where not standard chess, and [%clk] (the
// mover's remaining time) and [%emt] after every move. A start position that
// does not parse leaves Start nil: the tags are then written as held.
func (r *Record) PGNGame() *pgn.Game {
	g := &pgn.Game{Result: r.Result}
	if g.Result == "" {
		g.Result = "*"
	}
	id := r.Info.Game
	date := "????.??.??"
	if !r.Started.IsZero() {
		date = r.Started.UTC().Format("2006.01.02")
	}
	g.SetTag("Event", Or(r.Info.EventName, id.Event))
	g.SetTag("Site", Or(r.Info.Site, "?"))
	g.SetTag("Date", date)
	g.SetTag("Round", strconv.Itoa(id.Round)+"."+strconv.Itoa(id.Board))
	g.SetTag("White", Or(r.Info.White, "?"))
	g.SetTag("Black", Or(r.Info.Black, "?"))
	g.SetTag("Result", g.Result)
	if r.Info.WhiteFideID != "" {
		g.SetTag("WhiteFideId", r.Info.WhiteFideID)
	}
	if r.Info.BlackFideID != "" {
		g.SetTag("BlackFideId", r.Info.BlackFideID)
	}
	if r.Info.WhiteTitle != "" {
		g.SetTag("WhiteTitle", r.Info.WhiteTitle)
	}
	if r.Info.BlackTitle != "" {
		g.SetTag("BlackTitle", r.Info.BlackTitle)
	}
	if r.Info.WhiteTeam != "" {
		g.SetTag("WhiteTeam", r.Info.WhiteTeam)
	}
	if r.Info.BlackTeam != "" {
		g.SetTag("BlackTeam", r.Info.BlackTeam)
	}
	if r.Info.TimeControl != "" {
		g.SetTag("TimeControl", r.Info.TimeControl)
	}
	if id.Event != "" {
		g.SetTag("GameId", id.String())
	}
	if r.Termination != "" {
		g.SetTag("Termination", r.Termination)
	}
	if start, err := pgn.Position(r.Variant(), r.StartFEN); err == nil {
		g.Start = start
	}
	pos := g.Start
	for i, m := range r.Moves {
		n := pgn.MoveNode{SAN: m.SAN, EMT: time.Duration(m.EMTMS) * time.Millisecond, HasEMT: true}
		if m.Pockets != nil {
			n.Pockets, n.HasPockets = pgn.Pockets{White: m.Pockets.White, Black: m.Pockets.Black}, true
		}
		if pos != nil {
			// The writer checks every move against its position (a
			// team-drop board's pockets fed as the reader does).
			mv, err := pgn.ParseFed(pos, m.UCI)
			if err == nil {
				n.Move = mv
				pos, err = pgn.PlayNode(pos, &n)
			}
			if err != nil {
				// A record that does not replay (an illegal move that
				// stood, such as a team-drop drop giving check): write the
				// moves as held, without a start, but with the variant
				// (docs/contract.md §6), so that a reader takes the drops.
				g.Start, pos = nil, nil
				for j := range g.Moves {
					g.Moves[j].Move = rules.NoMove
				}
				if vt := pgn.VariantTag(r.Variant()); vt != "" {
					g.SetTag("Variant", vt)
				}
				if r.StartFEN != "" {
					g.SetTag("SetUp", "1")
					g.SetTag("FEN", r.StartFEN)
				}
			}
		}
		if m.Clock != nil {
			n.HasClock = true
			if whiteMoved(r, i) {
				n.Clock = time.Duration(m.Clock.WhiteMS) * time.Millisecond
			} else {
				n.Clock = time.Duration(m.Clock.BlackMS) * time.Millisecond
			}
		}
		g.Moves = append(g.Moves, n)
	}
	return g
}

// whiteMoved reports whether ply index i (0-based) was White's move.
func whiteMoved(r *Record, i int) bool {
	whiteFirst := true
	if r.StartFEN != "" {
		if f := strings.Fields(r.StartFEN); len(f) > 1 && f[1] == "b" {
			whiteFirst = false
		}
	}
	return (i%2 == 0) == whiteFirst
}

// PGN renders the record with rules/pgn.
func (r *Record) PGN() string {
	var b strings.Builder
	if err := pgn.Write(&b, r.PGNGame(), pgn.WriteOptions{}); err != nil {
		return ""
	}
	return b.String()
}

// variantXiangqi is the variant name of xiangqi games.
const VariantXiangqi = "xiangqi"

// orQ returns s, or def when s is empty (a PGN tag's value or its default).
func Or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// MaxTextBytes bounds every text of a game's Info (names, event, site,
// FIDE ids, time control): they go into every game state, PGN and
// payload, and one that NATS refuses (over its max payload) would only
// ever be set aside. Longer is refused (the hall's New names the board and the field).
const MaxTextBytes = 200

// CheckText refuses an Info whose texts are longer than MaxTextBytes.
func (i Info) CheckText() error {
	for _, f := range []struct{ name, v string }{
		{"event name", i.EventName}, {"site", i.Site}, {"white", i.White}, {"black", i.Black},
		{"white_fide_id", i.WhiteFideID}, {"black_fide_id", i.BlackFideID}, {"white_title", i.WhiteTitle}, {"black_title", i.BlackTitle}, {"time_control", i.TimeControl},
		{"variant", i.Variant}, {"ruleset", i.Ruleset}, {"white_team", i.WhiteTeam}, {"black_team", i.BlackTeam},
	} {
		if len(f.v) > MaxTextBytes {
			return fmt.Errorf("%s is %d bytes long, at most %d", f.name, len(f.v), MaxTextBytes)
		}
	}
	return nil
}
