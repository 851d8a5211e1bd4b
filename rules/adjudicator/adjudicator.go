package adjudicator

import (
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// GameInfo identifies the game.
type GameInfo struct {
	ID           game.ID
	White, Black string
}

// Penalties says who applies time penalties (config key penalties).
type Penalties uint8

// Penalty modes.
const (
	// PenaltiesAlert: the daemon proposes, the arbiter applies (default).
	PenaltiesAlert Penalties = iota
	// PenaltiesAuto: time penalties are also sent to the clock as a
	// [ClockCommand].
	PenaltiesAuto
)

// Options configures an [Adjudicator]. The zero value is valid: penalties
// are alerts only, the time control is unknown, the start position comes
// from the tracker's SetupDetected event.
type Options struct {
	Penalties Penalties
	// TimeControl of the game; the zero value means unknown (flags are
	// still detected from the readings).
	TimeControl clock.TimeControl
	// ClockTolerance: see clock.DefaultTolerance.
	ClockTolerance time.Duration
	// Start is the initial position when the tracker will not report one
	// (replay with --fen); nil: wait for SetupDetected or the first move.
	Start rules.Position
	// MidGame: the game is resumed (daemon restart), so the first clock
	// reading is not checked against the control's starting times.
	MidGame bool
	// ClockHost: the clock was under host control (a SetNRun sent) when
	// the game was interrupted: it adds no increments (clock.Options).
	ClockHost bool
	// Expected is the start position the event prescribes (the standard
	// array, or the Chess960 position drawn for the round, 004 B1): a
	// SetupDetected with another placement raises setup_mismatch. nil: no
	// check.
	Expected rules.Position
	// NoTiming: event times are not wall-clock times (replays of raw or
	// base64 captures): elapsed-time clock checks are off (clock.Options).
	NoTiming bool
	// MatchJudges: another authority judges the moves (the team-drop match
	// of two partner boards, rules/teamdrop): completed moves are recorded
	// and timed, but no illegal-move, checkmate, stalemate, repetition or
	// move-count verdict comes from here, so the arbiter never gets a
	// finding twice. The wiring then does not hand IllegalMove events on.
	MatchJudges bool
}

// plyRec is one completed move of the record.
type plyRec struct {
	side     rules.Color
	uci, san string
	pos      rules.Position // after the move
	key      rules.RepetitionKey
	at       time.Time
	illegal  bool // stood although illegal
}

// pendingIllegal is an illegal move whose window is open.
type pendingIllegal struct {
	alertID string
	side    rules.Color
	ply     int
	counted bool // counted towards the ladder (undone when it stands unpunished)
	ladder  bool // the rule set counts it once the arbiter acts (tentative moves)
	acted   bool // the arbiter acknowledged or applied a penalty
	kind    string
	// abandoned: a xiangqi illegal move that abandoned the general; its
	// claim outlives the window (RB 4.4).
	abandoned bool
}

// Adjudicator applies one rule set to one game. It is not safe for
// concurrent use: the board's tracker goroutine owns it.
type Adjudicator struct {
	game GameInfo
	rs   ruleset.RuleSet
	opts Options
	clk  *clock.Model

	start  rules.Position
	plies  []plyRec
	counts map[rules.RepetitionKey]int
	result *game.Result

	illegal [2]int                     // illegal moves counted (7.5.5 ladder)
	te      [2]int                     // confirmed technical errors (004 Reg. §11)
	pending []*pendingIllegal          // illegal moves whose window is open
	byAlert map[string]*pendingIllegal // every illegal move, by alert id
	alerts  map[string]*game.Alert
	applied map[string]bool // alerts whose penalty the arbiter applied
	seq     map[string]int

	offer        rules.Color // the side whose draw offer is open (NoColor: none)
	lastReading  *clock.Reading
	unexplained  bool
	lost         bool            // a record_lost alert is open
	notified     map[string]bool // one-shot alerts already sent (keys by topic)
	illegalStood int             // ply of an illegal move that stood (A.4.4 check), 0 if none
}

// New returns the adjudicator of game under rule set rs.
func New(game GameInfo, rs ruleset.RuleSet, opts Options) *Adjudicator {
	a := &Adjudicator{game: game, rs: rs, opts: opts}
	a.reset(opts.Start)
	return a
}

// reset starts a new game from start (nil: unknown yet).
func (a *Adjudicator) reset(start rules.Position) {
	a.start = start
	a.plies = nil
	a.counts = map[rules.RepetitionKey]int{}
	if start != nil {
		a.counts[start.RepetitionKey()] = 1
	}
	a.result = nil
	a.illegal, a.te = [2]int{}, [2]int{}
	a.pending = nil
	a.byAlert = map[string]*pendingIllegal{}
	a.alerts = map[string]*game.Alert{}
	a.applied = map[string]bool{}
	a.seq = map[string]int{}
	a.notified = map[string]bool{}
	a.unexplained, a.lost = false, false
	a.illegalStood = 0
	a.lastReading = nil
	a.offer = rules.NoColor
	if !a.opts.TimeControl.Untimed {
		a.clk = clock.NewModel(a.opts.TimeControl, clock.Options{Tolerance: a.opts.ClockTolerance, MidGame: a.opts.MidGame, NoTiming: a.opts.NoTiming,
			HostControlled: a.opts.ClockHost})
	}
}

// ClockHost reports whether the clock model believes the clock is under
// host control (a SetNRun was sent and no increment seen since): the
// record keeps it for a restart (Options.ClockHost).
func (a *Adjudicator) ClockHost() bool { return a.clk != nil && a.clk.HostControlled() }

// RuleSet returns the rule set in force.
func (a *Adjudicator) RuleSet() ruleset.RuleSet { return a.rs }

// Result returns the game's result so far, nil while it is in progress.
func (a *Adjudicator) Result() *game.Result {
	if a.result == nil {
		return nil
	}
	r := *a.result
	return &r
}

// Alert returns the alert with id, if the adjudicator raised it.
func (a *Adjudicator) Alert(id string) (game.Alert, bool) {
	al, ok := a.alerts[id]
	if !ok {
		return game.Alert{}, false
	}
	return *al, true
}

// Ply returns the number of completed moves in the record.
func (a *Adjudicator) Ply() int { return len(a.plies) }

// position returns the current position of the record (nil if unknown).
func (a *Adjudicator) position() rules.Position {
	if n := len(a.plies); n > 0 {
		return a.plies[n-1].pos
	}
	return a.start
}

// positionAt returns the position after ply (0: the start).
func (a *Adjudicator) positionAt(ply int) rules.Position {
	if ply <= 0 || len(a.plies) == 0 {
		return a.start
	}
	if ply > len(a.plies) {
		ply = len(a.plies)
	}
	return a.plies[ply-1].pos
}

// Handle consumes one event (of the tracker, the relay or the wiring) and
// returns the verdicts it causes, in order.
func (a *Adjudicator) Handle(ev game.Event) []game.Verdict {
	var out []game.Verdict
	switch e := ev.(type) {
	case game.SetupDetected:
		a.reset(e.Position)
		out = a.checkSetup(e)
	case game.SetupMismatch:
		a.unexplained = true
		want := a.opts.Expected // the prescribed position, else the tracker's
		if want == nil {
			want = e.Expected
		}
		out = a.setupMismatch(e.At, want, e.Placement)
	case game.MoveMade:
		out = a.onMoveMade(e.At, e.Side, e.Ply)
	case game.MoveCompleted:
		out = a.onMoveCompleted(e)
	case game.IllegalMove:
		out = a.onIllegal(e)
	case game.ClockWithoutMove:
		out = a.onClockWithoutMove(e)
	case game.ClockChanged:
		if e.Resync && a.clk != nil {
			a.clk.Resync() // the first reading of a polled board too: its setting is judged as it can be
		}
		out = a.onClock(e.Clock, e.At)
	case game.TouchEvidence:
		out = a.onTouch(e)
	case game.TurnStarted:
		out = a.onTurnStarted(e)
	case game.ResultGesture:
		out = a.onGesture(e)
	case game.DisplacedPieces:
		out = a.onDisplaced(e.At, e.Squares, "pieces stand on wrong squares without a move")
	case game.Unexplained:
		if e.Lost {
			out = a.onLost(e)
			break
		}
		a.unexplained = true
		out = a.onDisplaced(e.At, e.Squares, "the board differs from the game position and no legal move explains it")
	case game.Explained:
		if e.Found {
			out = a.onFound(e.At, e.Ply)
			break
		}
		out = a.onExplained(e.At)
	case game.OrientationChanged:
		out = a.onOrientation(e)
	case game.Correction:
		a.truncate(e.Ply)
		if e.Reason == game.Reread {
			out = a.onReread(e)
		}
	case game.Ambiguous:
		out = a.onAmbiguous(e)
	case game.DeviceLost:
		out = a.onDevice(e.At, e.Device, e.Detail, false)
	case game.DeviceBack:
		out = a.onDevice(e.At, e.Device, "", true)
	case game.MoveRetracted, game.BoardMismatch, game.BoardsAgree:
		// Moves taken back before completion never entered the record;
		// the relay's mismatches are the wiring's to report.
	}
	return out
}

// checkSetup compares a new game's set-up with the expected position (2.3,
// II.2, 7.2.1; 004 B1): before the clock starts the arbiter has it fixed.
func (a *Adjudicator) checkSetup(e game.SetupDetected) []game.Verdict {
	if a.opts.Expected == nil || e.Position == nil {
		return nil
	}
	return a.setupMismatch(e.At, a.opts.Expected, e.Position.Placement())
}

// setupMismatch is the alert of a set-up got that differs from the
// position want.
func (a *Adjudicator) setupMismatch(at time.Time, want rules.Position, got rules.Placement) []game.Verdict {
	wp := want.Placement()
	diff := wp.Diff(&got, nil)
	if len(diff) == 0 {
		return nil
	}
	g := wp.Geo
	var parts []string
	ev := make([]game.Evidence, 0, len(diff))
	for _, s := range diff {
		w, h := wp.At(s), got.At(s)
		parts = append(parts, fmt.Sprintf("%s: %s instead of %s", g.Name(s), pieceName(h), pieceName(w)))
		ev = append(ev, game.Evidence{At: game.T(at), Square: g.Name(s), Piece: h.String(), Event: "setup"})
	}
	al := a.newAlert(at, game.KindSetupMismatch, game.Warn, a.rs.Articles.Setup, rules.NoColor, 0,
		"The set-up differs from the prescribed start position ("+strings.Join(parts, "; ")+"): correct it before the clock starts.")
	al.Proposal = map[string]any{"fen": want.FEN()}
	al.Evidence = ev
	return []game.Verdict{*al}
}

// pieceName writes a piece for messages ("white knight", "nothing").
func pieceName(p rules.Piece) string {
	if p.IsEmpty() {
		return "nothing"
	}
	return p.Color.String() + " " + p.Kind.String()
}

// newAlert builds an alert with a deterministic id and remembers it.
func (a *Adjudicator) newAlert(at time.Time, kind, sev, article string, side rules.Color, ply int, msg string) *game.Alert {
	k := fmt.Sprintf("%s.%d", kind, ply)
	seq := a.seq[k]
	a.seq[k] = seq + 1
	al := &game.Alert{
		ID:       fmt.Sprintf("%s.%s.%d.%d", a.game.ID, kind, ply, seq),
		Game:     a.game.ID,
		Kind:     kind,
		Severity: sev,
		Article:  article,
		Ply:      ply,
		Message:  msg,
		At:       game.T(at),
	}
	if side == rules.White || side == rules.Black {
		al.Side = side.String()
	}
	a.alerts[al.ID] = al
	return al
}

// once reports whether topic has not been notified yet, and marks it.
func (a *Adjudicator) once(topic string) bool {
	if a.notified[topic] {
		return false
	}
	a.notified[topic] = true
	return true
}

// setResult records a result and returns it as an output.
func (a *Adjudicator) setResult(at time.Time, result, termination, article string, provisional bool) game.Result {
	r := game.Result{Game: a.game.ID, Result: result, Termination: termination, Article: article, Provisional: provisional, At: game.T(at)}
	a.result = &r
	return r
}

// over reports whether the game has a result (provisional or not).
func (a *Adjudicator) over() bool { return a.result != nil && a.result.Result != "*" }

// winFor returns the result string of a win by c.
func winFor(c rules.Color) string {
	if c == rules.White {
		return "1-0"
	}
	return "0-1"
}

// Draw is the result string of a draw.
const Draw = "1/2-1/2"

// name returns "White" or "Black".
func name(c rules.Color) string {
	switch c {
	case rules.White:
		return "White"
	case rules.Black:
		return "Black"
	}
	return "Neither side"
}

// sq returns the algebraic name of s on the game's board.
func (a *Adjudicator) sq(s rules.Square) string {
	if p := a.position(); p != nil {
		return p.Geometry().Name(s)
	}
	return rules.Chess8x8.Name(s)
}

// touches converts tracker touches to evidence.
func (a *Adjudicator) touches(ts []game.Touch) []game.Evidence {
	var ev []game.Evidence
	for _, t := range ts {
		e := game.Evidence{At: game.T(t.At), Square: a.sq(t.Square), Event: "place"}
		if t.Lift {
			e.Event = "lift"
		}
		if !t.Piece.IsEmpty() {
			e.Piece = t.Piece.String()
		}
		ev = append(ev, e)
	}
	return ev
}

// moveNo returns the move number ("23." or "23...") of ply.
func moveNo(ply int) string {
	if ply%2 == 1 {
		return fmt.Sprintf("%d.", (ply+1)/2)
	}
	return fmt.Sprintf("%d...", ply/2)
}
