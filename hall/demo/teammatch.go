package demo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// A team-drop match (004 "Cờ đặt") played by emulated players on two
// boards: both clocks run at once, each board's hands are the realistic
// ones of package dgt/emu, and the two boards are bound together only as
// in the hall: a piece captured on one board is handed to the partner
// after the capturer's press, and the partner drops it no earlier than
// that (a piece changes hands, it is not teleported). The moves are drawn
// from the legal moves (captures and drops more often than the rest, as
// bughouse players do), with an illegal drop now and then when asked.

// TeamMatchOptions say how PlanTeamMatch plays a match.
type TeamMatchOptions struct {
	// Seed draws the moves and seeds both boards' hands and scans.
	Seed uint64
	// Plies is the most plies a board plays (default 60); the match ends
	// earlier at a mate.
	Plies int
	// Hands are both boards' players' habits (zero: emu.DefaultHands).
	Hands emu.Hands
	// Handover is how long a captured piece takes from the capturer's
	// press to the partner's hand (default 0.4–1.5 s).
	Handover emu.Span
	// IllegalDrops is the probability, at each move of a side whose pocket
	// is empty, that the player drops a piece it does not have (a piece
	// from the box: an illegal drop, 004 A1/A2). 0: never.
	IllegalDrops float64
	// PowerUp is when both boards are switched on (zero: 2026-01-01
	// 09:00 UTC) and Start when the scripts start (zero: PowerUp).
	PowerUp, Start time.Time
	// RuleSet is the match's rules (zero: bgo2026-team).
	RuleSet ruleset.RuleSet
}

// TeamBoardPlan is one board of a planned match: the game to emulate
// (start, board options, hands, seed) and the script its hands follow
// (offsets from TeamMatchOptions.Start).
type TeamBoardPlan struct {
	Game   emu.Game
	Script emu.Script
	Plies  []emu.Ply
}

// TeamMatchPlan is a planned match: both boards and the truth, the match
// as the hall must reconstruct it (its plies in the order of their presses,
// pockets, results).
type TeamMatchPlan struct {
	Boards [2]TeamBoardPlan
	Match  *teamdrop.Match
	// Findings are what the match found, fed the plies in the order of
	// their presses: what the arbiter must be told, and nothing else.
	Findings []teamdrop.Finding
	// IllegalDrops is how many illegal drops the players make.
	IllegalDrops int
}

var defaultPowerUp = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// PlanTeamMatch plays a match on paper: ply after ply, on the board whose
// hands are free first, a move drawn from the board's legal moves in the
// match's position (pockets included) is scripted by that board's hands,
// a drop not touched before its piece has come over from the partner
// board. It returns both boards' scripts and the match they make.
func PlanTeamMatch(o TeamMatchOptions) (TeamMatchPlan, error) {
	o, err := o.withDefaults()
	if err != nil {
		return TeamMatchPlan{}, err
	}
	tp, err := newTeamPlanner(o)
	if err != nil {
		return TeamMatchPlan{}, err
	}
	for {
		b := tp.nextBoard()
		if b < 0 {
			break
		}
		if err := tp.step(b); err != nil {
			return TeamMatchPlan{}, err
		}
	}
	return tp.finish()
}

// withDefaults fills the options left zero.
func (o TeamMatchOptions) withDefaults() (TeamMatchOptions, error) {
	if o.Plies <= 0 {
		o.Plies = 60
	}
	if o.Handover == (emu.Span{}) {
		o.Handover = emu.Span{Min: 400 * time.Millisecond, Max: 1500 * time.Millisecond}
	}
	if o.PowerUp.IsZero() {
		o.PowerUp = defaultPowerUp
	}
	if o.Start.IsZero() {
		o.Start = o.PowerUp
	}
	if o.RuleSet.Name == "" {
		rs, err := ruleset.Lookup(ruleset.BGO2026Team)
		if err != nil {
			return o, err
		}
		o.RuleSet = rs
	}
	return o, nil
}

// teamPlanner plays the match board by board in the order the hands get
// to their moves, keeping what links the boards: when each captured piece
// reached a pocket and how many were dropped.
type teamPlanner struct {
	o        TeamMatchOptions
	gm       *teamdrop.Match
	rng      *rand.Rand
	plan     TeamMatchPlan
	steppers [2]*emu.Stepper
	// arrived[side][kind]: when each piece of that kind reached the side's
	// pocket (the capturer's press); used[side][kind]: how many of them
	// were dropped.
	arrived           [2][2][rules.King][]time.Time
	used              [2][2][rules.King]int
	order             []teamPress
	done, lastIllegal [2]bool
	end               time.Time // the first result's press
}

// teamPress is one ply of the match as its press was made.
type teamPress struct {
	b  teamdrop.Board
	mv rules.Move
	at time.Time
}

func newTeamPlanner(o TeamMatchOptions) (*teamPlanner, error) {
	gm, err := teamdrop.New(o.RuleSet, "", "", o.PowerUp)
	if err != nil {
		return nil, err
	}
	tp := &teamPlanner{o: o, gm: gm, rng: rand.New(rand.NewPCG(o.Seed, 0x7ea3))}
	for b := range tp.steppers {
		g := emu.Game{Start: gm.Start(teamdrop.Board(b)), Hands: o.Hands, Seed: o.Seed*2 + uint64(b) + 1, PowerUp: o.PowerUp,
			Board: emu.Setup{Serial: fmt.Sprintf("%05d", 1001+b), Clock: emu.ClockSetting{Base: 5 * time.Minute}}}
		g.Board.Seed = g.Seed
		st, err := g.Stepper(o.PowerUp, o.Start)
		if err != nil {
			return nil, err
		}
		tp.plan.Boards[b].Game, tp.steppers[b] = g, st
	}
	return tp, nil
}

// nextBoard is the board whose hands are ready first, or -1 when both
// games are done.
func (tp *teamPlanner) nextBoard() int {
	b := -1
	for i := range tp.steppers {
		if !tp.done[i] && (b < 0 || tp.steppers[i].Ready().Before(tp.steppers[b].Ready())) {
			b = i
		}
	}
	return b
}

// step plays board b's next move: the hands make it no sooner than a
// dropped piece can have come from the partner's capture.
func (tp *teamPlanner) step(b int) error {
	bd := teamdrop.Board(b)
	pos := tp.gm.Position(bd)
	mover := pos.Turn()
	mv, illegal, ok := pickTeamMove(tp.rng, pos, tp.o.IllegalDrops)
	if !ok || len(tp.gm.Plies(bd)) >= tp.o.Plies {
		tp.done[b] = true
		return nil
	}
	var notBefore time.Time
	if illegal || tp.lastIllegal[b] {
		// A piece fetched from the box takes a moment, and so does the
		// answer to it: the board has reported the move before by then
		// (the tracker judges an illegal move against the last position
		// it has read; an illegal move answered faster than the board
		// reports it is not read, and the arbiter is told the board is
		// displaced).
		notBefore = tp.steppers[b].Ready().Add(1200 * time.Millisecond)
	}
	if mv.IsDrop() && !illegal {
		k := mv.Drop
		n := tp.used[b][mover][k]
		if n < len(tp.arrived[b][mover][k]) {
			if t := tp.arrived[b][mover][k][n].Add(drawSpan(tp.rng, tp.o.Handover)); t.After(notBefore) {
				notBefore = t
			}
		}
		tp.used[b][mover][k]++
	}
	ply, err := tp.steppers[b].Step(pos, mv, notBefore)
	if err != nil {
		return err
	}
	at := ply.Press
	if !tp.end.IsZero() && at.After(tp.end) {
		// The match ended on the other board while this player was
		// thinking: the move is made (the hands did not know) and the
		// board stops there; the match does not record it.
		tp.done[b] = true
	}
	u, err := tp.gm.Complete(bd, mv, at)
	if err != nil {
		return fmt.Errorf("demo: team match ply %d on board %s: %w", len(tp.gm.Plies(bd))+1, bd, err)
	}
	if illegal {
		tp.plan.IllegalDrops++
	}
	tp.lastIllegal[b] = illegal
	tp.order = append(tp.order, teamPress{bd, mv, at})
	plies := tp.gm.Plies(bd)
	if p := plies[len(plies)-1]; p.TakenToPocket {
		t := p.TakenTo
		k := p.Taken.Kind
		tp.arrived[t.Board][t.Color][k] = append(tp.arrived[t.Board][t.Color][k], at)
	}
	for _, f := range u.Findings {
		if ps, ok := f.(*teamdrop.PocketSettled); ok {
			// The piece paid for an earlier (illegal) drop: the next
			// drop of that kind waits for the piece after it.
			tp.used[ps.Side.Board][ps.Side.Color][ps.Piece.Kind]++
		}
	}
	if u.Results[bd] && tp.gm.Result(bd).Result != "*" && tp.end.IsZero() {
		tp.end = at
	}
	return nil
}

// finish replays the plies in the order of their presses, as the hall
// hears them (the truth the demo's match is checked against), and hands
// out the boards' scripts.
func (tp *teamPlanner) finish() (TeamMatchPlan, error) {
	order := tp.order
	slices.SortStableFunc(order, func(x, y teamPress) int { return x.at.Compare(y.at) })
	truth, err := teamdrop.New(tp.o.RuleSet, "", "", tp.o.PowerUp)
	if err != nil {
		return TeamMatchPlan{}, err
	}
	plan := tp.plan
	for _, p := range order {
		u, err := truth.Complete(p.b, p.mv, p.at)
		if err != nil {
			return TeamMatchPlan{}, fmt.Errorf("demo: the planned match does not replay in press order (%v): %w", p.mv, err)
		}
		plan.Findings = append(plan.Findings, u.Findings...)
	}
	if len(order) > 0 {
		plan.Findings = append(plan.Findings, truth.Tick(order[len(order)-1].at.Add(time.Hour)).Findings...)
	}
	plan.Match = truth
	for b := range tp.steppers {
		plan.Boards[b].Script, plan.Boards[b].Plies = tp.steppers[b].Plan()
	}
	return plan, nil
}

// pickTeamMove draws a move of the side to move in pos: a capture or a
// drop three times as often as another move; with probability
// illegalDrops, when the mover's pocket is empty, the drop of a knight or
// pawn it does not have on an empty square (illegal true). ok is false
// when the side has no legal move.
func pickTeamMove(rng *rand.Rand, pos interface {
	LegalMoves([]rules.Move) []rules.Move
	Turn() rules.Color
	Pocket(rules.Color, rules.Kind) int
	At(rules.Square) rules.Piece
}, illegalDrops float64) (rules.Move, bool, bool) {
	moves := pos.LegalMoves(nil)
	if len(moves) == 0 {
		return rules.NoMove, false, false
	}
	us := pos.Turn()
	empty := true
	for k := rules.Pawn; k <= rules.Queen; k++ {
		empty = empty && pos.Pocket(us, k) == 0
	}
	if empty && illegalDrops > 0 && rng.Float64() < illegalDrops {
		for range 20 {
			sq := rules.Square(16 + rng.IntN(32)) // ranks 3–6
			if pos.At(sq).IsEmpty() {
				k := rules.Knight
				if rng.IntN(2) == 0 {
					k = rules.Pawn
				}
				return rules.Move{From: rules.NoSquare, To: sq, Drop: k}, true, true
			}
		}
	}
	weight := func(m rules.Move) int {
		if m.IsCapture() || m.IsDrop() || m.Flags&rules.FlagRemove != 0 {
			return 3
		}
		return 1
	}
	total := 0
	for _, m := range moves {
		total += weight(m)
	}
	r := rng.IntN(total)
	for _, m := range moves {
		if r -= weight(m); r < 0 {
			return m, false, true
		}
	}
	return moves[len(moves)-1], false, true
}

// drawSpan draws a duration in s.
func drawSpan(rng *rand.Rand, s emu.Span) time.Duration {
	if s.Max <= s.Min {
		return s.Min
	}
	return s.Min + time.Duration(rng.Int64N(int64(s.Max-s.Min)+1))
}
