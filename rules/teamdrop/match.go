package teamdrop

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// Errors of the match. The wiring gave the match something that cannot be
// (a move no hand can make, an unknown result): the state is unchanged.
var (
	// ErrNotTeamDrop: New was given a rule set of another variant.
	ErrNotTeamDrop = errors.New("teamdrop: not a team-drop rule set")
	// ErrImpossible: the move cannot have happened on the board (no piece
	// of the mover on its square, a drop on an occupied square, a king
	// lifted).
	ErrImpossible = errors.New("teamdrop: impossible move")
	// ErrBadCommand: an arbiter command that does not fit the match (a
	// result that is not one, a ply beyond the record, a draw the rules do
	// not allow).
	ErrBadCommand = errors.New("teamdrop: bad command")
)

// Options returns the board rules of rs (a team-drop rule set) as the
// rules/chess engine takes them: drops with pockets fed from outside, D3 and
// D4 unless allowed, the last-rank reading, the pawn drop ranks and the
// promotion rule.
func Options(rs ruleset.RuleSet) chess.Options {
	td := rs.TeamDrop
	return chess.Options{
		Drops:            true,
		NoDropCheck:      !td.DropCheckAllowed,
		NoDropOnLastRank: !td.DropLastRankAllowed,
		AbsoluteLastRank: td.LastRankReading == ruleset.LastRankAbsolute,
		PawnDropRanks:    td.PawnDropRanks,
		NoPromotion:      td.Promotion == ruleset.NoPromotionRemove,
	}
}

// Result is a board's result as the match sees it.
type Result struct {
	// Result is "1-0", "0-1", "1/2-1/2", or "*" while the game goes on.
	Result      string
	Termination string // "checkmate", "time forfeit", "partner_board", …
	Article     string
	Provisional bool // an automatic end the arbiter has not confirmed
	At          time.Time
}

// PlyKind says what a recorded ply did.
type PlyKind uint8

// Ply kinds.
const (
	PlyMove         PlyKind = iota // a move of a piece on the board
	PlyDrop                        // a piece from the pocket (A2)
	PlyRemoval                     // the lift of a pawn on the last rank (A6)
	PlyConfiscation                // the lift of an illegally moved piece (A4)
	PlyIllegalLift                 // the lift of an opponent's piece with no right to
)

// Ply is one recorded ply of a board.
type Ply struct {
	Board  Board
	Number int         // 1-based on its board
	Color  rules.Color // the side that moved (or lifted)
	Move   rules.Move
	// SAN is the move as PGN writes it (N@f3, e8, -e8); UCI its coordinate
	// form (docs/contract.md §3.3). An illegal move is written in long form
	// (Ra1a3).
	SAN, UCI string
	Kind     PlyKind
	Illegal  bool
	// PassesTurn is false only for a confiscation that is not the
	// confiscator's move (confiscation_consumes_turn off).
	PassesTurn bool
	// Taken is the piece the ply took off the board (capture, removal,
	// confiscation), NoPiece otherwise; TakenTo the side whose pocket it
	// went to, when TakenToPocket.
	Taken         rules.Piece
	TakenTo       Side
	TakenToPocket bool
	// Pockets are this board's White and Black pockets after the press:
	// the pieces that came over from the partner board by a later press
	// are not counted, even when that press reached the match first.
	Pockets [2]Pocket
	FEN     string
	At      time.Time
}

// Update is what one call changed.
type Update struct {
	Findings []Finding
	// Recorded: Complete recorded the move (false after the match ended).
	Recorded bool
	// Pockets: the boards whose pockets changed; the wiring hands the new
	// positions ([Match.Position]) to their trackers and publishes them.
	Pockets [2]bool
	// Results: the boards whose result changed ([Match.Result]).
	Results [2]bool
}

func (u *Update) add(f ...Finding) { u.Findings = append(u.Findings, f...) }

// Match is a team-drop match of two partner boards. The zero value is not
// usable; call New. A Match is not safe for concurrent use.
type Match struct {
	rs    ruleset.RuleSet
	opts  chess.Options
	start [2]*chess.Position
	began time.Time

	st state // everything a reinstatement recomputes

	te, a5   [2][2]int // technical errors and A5 errors per [board][colour]
	log      []entry   // what the state is computed from, in arrival order
	events   []Event   // the calls accepted, for Events and Restore
	reported map[rules.Piece]int
}

// state is the part of a match that Reinstate replays from the log.
type state struct {
	b       [2]boardState
	debt    [2][2]Pocket // pieces dropped before they were in the pocket, [board][colour]
	out     [2]Pocket    // pieces out of play by colour (removed pawns kept out, illegal lifts)
	ends    []EndEvent   // terminal events, arrival order
	end     int          // index in ends of the deciding one, -1 none
	results [2]Result
	decided bool // the arbiter set the result (SetResult): no more race
	// came: the pieces put into each board's pockets and the presses that
	// put them there, so a ply completed late (a board reports a move up
	// to a second after its press) shows the pockets as of its own press.
	came [2][]arrival
	// waiting: drops whose piece was not in the pocket, waiting for the
	// capture that may have been pressed first (waiting.go).
	waiting []waiting
}

// arrival is a piece put into a pocket at a press.
type arrival struct {
	color rules.Color
	kind  rules.Kind
	at    time.Time
}

type boardState struct {
	pos      *chess.Position
	plies    []Ply
	dropped  uint64 // squares holding a piece that entered by a drop (A8)
	confisc  rules.Square
	canConf  bool // the opponent may confiscate the piece on confisc now (A4)
	reps     map[rules.RepetitionKey]int
	deferred [2]bool // by the colour that must remove: a removal waits (R6.3, R6.5)
	press    time.Time
}

// New starts a match under rs (a team-drop rule set) from the two boards'
// start positions (FEN with pockets as in crazyhouse; "" is the standard
// start with empty pockets) at time at.
func New(rs ruleset.RuleSet, fenA, fenB string, at time.Time) (*Match, error) {
	if rs.Variant != "team-drop" {
		return nil, fmt.Errorf("%w: %s is %s", ErrNotTeamDrop, rs.Name, rs.Variant)
	}
	m := &Match{rs: rs, opts: Options(rs), began: at, reported: map[rules.Piece]int{}}
	for i, fen := range [2]string{fenA, fenB} {
		if fen == "" {
			fen = chess.TeamDrop.StartFEN()
		}
		p, err := chess.NewPositionOptions(chess.TeamDrop, m.opts, fen)
		if err != nil {
			return nil, fmt.Errorf("teamdrop: board %s: %w", Board(i), err)
		}
		m.start[i] = p
	}
	m.st = m.fresh()
	return m, nil
}

// fresh returns the state at the start of the match.
func (m *Match) fresh() state {
	st := state{end: -1}
	for i := range st.b {
		st.b[i] = boardState{pos: m.start[i], reps: map[rules.RepetitionKey]int{}, press: m.began}
		st.b[i].reps[m.repKey(m.start[i])]++
		st.results[i] = Result{Result: "*"}
	}
	return st
}

// RuleSet returns the match's rules.
func (m *Match) RuleSet() ruleset.RuleSet { return m.rs }

// Position returns board b's current position, pockets included: what its
// tracker must judge the next move against.
func (m *Match) Position(b Board) *chess.Position { return m.st.b[b].pos }

// Start returns board b's position before its first move.
func (m *Match) Start(b Board) *chess.Position { return m.start[b] }

// Pockets returns board b's White and Black pockets.
func (m *Match) Pockets(b Board) (white, black Pocket) {
	p := m.st.b[b].pos
	return pocketOf(p, rules.White), pocketOf(p, rules.Black)
}

// Plies returns board b's recorded plies (shared: do not modify).
func (m *Match) Plies(b Board) []Ply { return m.st.b[b].plies }

// Sequence returns the plies of both boards in the order of their clock
// presses (arrival order; equal times keep it): the BPGN movetext order.
func (m *Match) Sequence() []Ply {
	var out []Ply
	var i [2]int
	for _, e := range m.log {
		if e.kind != entryMove || !e.recorded {
			continue
		}
		bs := m.st.b[e.board].plies
		if i[e.board] < len(bs) {
			out = append(out, bs[i[e.board]])
			i[e.board]++
		}
	}
	return out
}

// Result returns board b's result ("*" while it goes on).
func (m *Match) Result(b Board) Result { return m.st.results[b] }

// Ended reports whether the match is over (with first_result_ends_match
// off: both boards are).
func (m *Match) Ended() bool {
	return m.st.results[A].Result != "*" && m.st.results[B].Result != "*"
}

// TechnicalErrors returns s's count of technical errors (and of A5 errors
// when they are counted apart, king_in_check_counts_as_te off).
func (m *Match) TechnicalErrors(s Side) (te, kingInCheck int) {
	return m.te[s.Board][s.Color], m.a5[s.Board][s.Color]
}

// repKey is the repetition identity of a position (R9.8).
func (m *Match) repKey(p *chess.Position) rules.RepetitionKey {
	if m.rs.TeamDrop.RepetitionIncludesReserves {
		return p.RepetitionKey()
	}
	return p.BoardKey()
}

func (m *Match) where(b Board, at time.Time, article string) Where {
	return Where{Board: b, Ply: len(m.st.b[b].plies), At: at, Article: article}
}

// Liftable returns the squares of board b whose piece the side to move
// may lift off as its move, or whose lift the match must judge: the piece
// the opponent just moved illegally (its confiscation, A4) and the
// opponent's pawns on the mover's first rank (their removal, A6). Any
// other opponent's piece lifted is a hand in the middle of a capture.
func (m *Match) Liftable(b Board) []rules.Square {
	bs := &m.st.b[b]
	var out []rules.Square
	if bs.canConf {
		out = append(out, bs.confisc)
	}
	for _, s := range stuckPawns(bs.pos) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
