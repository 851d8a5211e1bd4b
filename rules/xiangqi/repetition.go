package xiangqi

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// The repetition rules of Art. 22–24 (docs/xiangqi.md, "Repetition"): when a
// position recurs, the moves of the cycle are classified (docs/xiangqi.md,
// "Repetition") and the side that commits a forbidden pattern — perpetual check
// (P1), perpetual chase of one piece (P3, P5–P8, 24.11–24.33) — must change; if
// it repeats the cycle again, its loss is proposed. Cycles with no forbidden
// pattern (one check one idle, one check one chase, perpetual mate threats,
// blocking, sacrifice or exchange offers: P2, P4, P9, P10) and cycles in which
// both sides commit the same pattern (7.2(c)) never get a decisive proposal.
// The daemon is not the arbiter: these are findings for the arbiter's alert,
// never results.

// CheckVsChase is what happens when one side perpetually checks and the
// other perpetually chases (the Law leaves it open; docs/xiangqi.md).
type CheckVsChase uint8

// The check_vs_chase settings.
const (
	// CheckerMustChange (default): the perpetual checker must change, as
	// the Asian/WXF rules say [EXTERNAL].
	CheckerMustChange CheckVsChase = iota
	// CheckVsChaseDraw: both violate, neither is asked to change: draw.
	CheckVsChaseDraw
)

// CombinedChase is how a general or soldier chasing together with other pieces
// is judged (P9 against 24.26, where the Law contradicts itself;
// docs/xiangqi.md).
type CombinedChase uint8

// The king_pawn_combined_chase settings.
const (
	// ByOtherPieces (default): the general's and soldiers' attacks never
	// count; the other pieces' attacks count as they would alone, so a
	// chase they keep up on every move is forbidden (24.26) and one they
	// join only now and then is not (P9, 24.25).
	ByOtherPieces CombinedChase = iota
	// AlwaysDraw: a target the general or a soldier attacks on some move
	// of the cycle is never perpetually chased (P9 read literally).
	AlwaysDraw
	// AlwaysLoss: the general's and soldiers' attacks count too, once
	// another piece chases the same target on some move of the cycle
	// (24.26 read literally); alone they still never chase (24.24–24.25).
	AlwaysLoss
)

// RepetitionOptions are the settings of the classification; the zero
// value is the documented default.
type RepetitionOptions struct {
	// Threshold is the occurrence of a position (board and side to move)
	// that starts the classification; 0 means 3 (repetition_alert_occurrence,
	// the law leaves it open). The loss is proposed when the side told to change makes
	// the position occur once more.
	Threshold    int
	CheckVsChase CheckVsChase
	Combined     CombinedChase
}

// Verdict is the outcome of one classified cycle.
type Verdict uint8

// The verdicts.
const (
	// Allowed: no side commits a forbidden pattern; if neither changes
	// the game is drawn (7.2(b), 24.2). Informational.
	Allowed Verdict = iota
	// MustChange: Side commits a forbidden pattern the other does not;
	// Side must change its moves (7.1(g)(h)).
	MustChange
	// LossProposed: Side was told to change and repeated the cycle again;
	// its loss is proposed (7.1(g)(h), (o)) for the arbiter to confirm.
	LossProposed
	// MutualDraw: both sides commit forbidden patterns (the same one, or
	// check against chase under CheckVsChaseDraw): draw (7.2(c)).
	MutualDraw
)

// String returns the verdict's name.
func (v Verdict) String() string {
	switch v {
	case Allowed:
		return "allowed"
	case MustChange:
		return "must_change"
	case LossProposed:
		return "loss_proposed"
	case MutualDraw:
		return "mutual_draw"
	}
	return fmt.Sprintf("verdict(%d)", uint8(v))
}

// Pattern is what one side does throughout a cycle.
type Pattern uint8

// The patterns; only PerpetualCheck and PerpetualChase are forbidden.
const (
	// NoPattern: neither every move a check nor every move a chase of one
	// piece (idle moves, one check one idle, one check one chase, mate
	// threats, alternating targets …).
	NoPattern Pattern = iota
	// PerpetualCheck: every move of the side in the cycle gives check (P1).
	PerpetualCheck
	// PerpetualChase: every move of the side chases the same opponent
	// piece, by one piece or several in turn, and the chase is a forbidden
	// one (P3, 24.11–24.33).
	PerpetualChase
)

// String returns the pattern's name.
func (p Pattern) String() string {
	switch p {
	case NoPattern:
		return "none"
	case PerpetualCheck:
		return "perpetual_check"
	case PerpetualChase:
		return "perpetual_chase"
	}
	return fmt.Sprintf("pattern(%d)", uint8(p))
}

// Chase is one forbidden chase made by a move: the attacker and the
// target after the move.
type Chase struct {
	Attacker, Target rules.Square
}

// MoveClass is the classification of one move of a cycle (checks and threats).
type MoveClass struct {
	Ply  int // 1-based ply of the game
	Side rules.Color
	Move rules.Move
	// Check: the move gives check (discovered checks included).
	Check bool
	// MateThreat: the mover would have a mate in one if it moved again.
	MateThreat bool
	// Chases are the forbidden chases the move makes.
	Chases []Chase
	// Attacks counts the new capture threats on non-general pieces,
	// forbidden or not (exchange offers, protected targets …).
	Attacks int
}

// Finding is the classification of a repetition: the position after ply
// Ply occurred for the Occurrence-th time, the cycle being the moves after
// ply From up to Ply.
type Finding struct {
	Ply, From, Occurrence int
	Verdict               Verdict
	// Side is the side that must change or whose loss is proposed;
	// rules.NoColor for Allowed and MutualDraw.
	Side rules.Color
	// Patterns are what each side does in the cycle, White (Red) first.
	Patterns [2]Pattern
	// Target is, for a perpetual chase by Side, the square of the chased
	// piece after the last move of the cycle.
	Target rules.Square
	// Result is the proposed result for LossProposed ("1-0" or "0-1"),
	// "1/2-1/2" for MutualDraw, "" otherwise.
	Result string
	// Articles are the rules cited.
	Articles string
	Moves    []MoveClass
}

// ClassifyRepetitions replays moves from start and returns a Finding for
// every occurrence, from the threshold on, of a position already seen
// (board and side to move). At the threshold the cycle from the first
// occurrence is classified; at each later occurrence the cycle since the
// previous one, and a side told to change that is still violating gets
// LossProposed. An illegal move is an error naming its ply.
func ClassifyRepetitions(start *Position, moves []rules.Move, o RepetitionOptions) ([]Finding, error) {
	if o.Threshold <= 0 {
		o.Threshold = 3
	}
	positions := make([]*Position, 0, len(moves)+1)
	positions = append(positions, start)
	p := start
	for i, m := range moves {
		q, err := p.PlayMove(m)
		if err != nil {
			return nil, fmt.Errorf("xiangqi: repetition: ply %d: %w", i+1, err)
		}
		positions = append(positions, q)
		p = q
	}
	seen := map[rules.RepetitionKey][]int{}
	var toldAt [2]int // ply of the MustChange finding per side, 0 if none
	var out []Finding
	for ply, q := range positions {
		k := q.RepetitionKey()
		seen[k] = append(seen[k], ply)
		occ := seen[k]
		n := len(occ)
		if n < o.Threshold {
			continue
		}
		cycle := ply - occ[n-2]
		from := occ[n-2]
		if n == o.Threshold {
			from = occ[0]
		}
		f := classifyCycle(positions, moves, from, ply, o)
		f.Occurrence = n
		if f.Verdict == MustChange {
			switch s := f.Side; {
			case toldAt[s] == 0:
				toldAt[s] = ply
			case ply < toldAt[s]+cycle:
				continue // another position of the cycle already reported
			default:
				f.Verdict, f.Result = LossProposed, "1-0"
				if s == rules.White {
					f.Result = "0-1"
				}
			}
		}
		if l := len(out); l > 0 && out[l-1].Verdict == f.Verdict && out[l-1].Side == f.Side && ply < out[l-1].Ply+cycle {
			continue // the same repetition, seen at another position of its cycle
		}
		out = append(out, f)
	}
	return out, nil
}

// targetMove is what one move does to one target: chased by a piece other
// than a general or soldier (other), chased by a general or soldier in a
// way that would be forbidden for another piece (ks), attacked at all by
// a general or soldier (ksAny).
type targetMove struct{ other, ks, ksAny bool }

// classifyCycle classifies the moves after ply from up to ply to.
func classifyCycle(positions []*Position, moves []rules.Move, from, to int, o RepetitionOptions) Finding {
	f := Finding{Ply: to, From: from, Side: rules.NoColor, Target: rules.NoSquare}
	// ids follow each piece through the cycle (a cycle has no captures).
	ids := map[rules.Square]int{}
	for s := range nPoints {
		ids[rules.Square(s)] = s
	}
	var count, checks [2]int
	var per [2][]map[int]targetMove // side → its moves → target id → what the move does
	for ply := from + 1; ply <= to; ply++ {
		before, after, m := positions[ply-1], positions[ply], moves[ply-1]
		side := before.Turn()
		mc := MoveClass{Ply: ply, Side: side, Move: m, Check: after.InCheck(), MateThreat: mateThreat(after)}
		id := ids[m.From]
		delete(ids, m.From)
		ids[m.To] = id
		tm := map[int]targetMove{}
		for _, a := range newAttacks(before, after) {
			mc.Attacks++
			t := ids[a.Target]
			x := tm[t]
			ka := after.board[a.Attacker] & kindMask
			ks := ka == general || ka == soldier
			forbidden := forbiddenChase(after, a)
			switch {
			case ks:
				x.ksAny = true
				x.ks = x.ks || forbidden
			case forbidden:
				x.other = true
			}
			if forbidden && (!ks || o.Combined == AlwaysLoss) {
				mc.Chases = append(mc.Chases, a)
			}
			tm[t] = x
		}
		per[side] = append(per[side], tm)
		f.Moves = append(f.Moves, mc)
		count[side]++
		if mc.Check {
			checks[side]++
		}
	}
	var target [2]int
	for c := range 2 {
		target[c] = -1
		if count[c] > 0 && checks[c] == count[c] {
			f.Patterns[c] = PerpetualCheck
			continue
		}
		if t, ok := chasedThroughout(per[c], o.Combined); ok {
			f.Patterns[c], target[c] = PerpetualChase, t
		}
	}
	f.Verdict, f.Side = judge(f.Patterns, o.CheckVsChase)
	switch f.Verdict {
	case Allowed:
		f.Articles = "7.2(b), 23 P2, 24.2"
		return f
	case MutualDraw:
		f.Result, f.Articles = "1/2-1/2", "7.2(c), 24 Fig. 107"
		return f
	}
	if f.Patterns[f.Side] == PerpetualCheck {
		f.Articles = "7.1(g), 23 P1, 24.2"
		return f
	}
	f.Articles = "7.1(h), 23 P3, 24.14"
	for s, id := range ids {
		if id == target[f.Side] {
			f.Target = s
		}
	}
	return f
}

// judge gives the verdict of docs/xiangqi.md ("Repetition") on the two
// sides' patterns: no pattern, Allowed;
// both, MutualDraw when they are the same or cvc says draw, else the
// checker must change; one, that side must change.
func judge(p [2]Pattern, cvc CheckVsChase) (Verdict, rules.Color) {
	w, b := p[0], p[1]
	switch {
	case w == NoPattern && b == NoPattern:
		return Allowed, rules.NoColor
	case w != NoPattern && b != NoPattern && (w == b || cvc == CheckVsChaseDraw):
		return MutualDraw, rules.NoColor
	case w != NoPattern && b != NoPattern:
		if b == PerpetualCheck {
			return MustChange, rules.Black
		}
		return MustChange, rules.White
	case w != NoPattern:
		return MustChange, rules.White
	}
	return MustChange, rules.Black
}

// chasedThroughout returns a target that every one of the side's moves
// chases (the same piece on every move), under the combined-chase setting.
func chasedThroughout(moves []map[int]targetMove, c CombinedChase) (int, bool) {
	if len(moves) == 0 {
		return 0, false
	}
	best, found := -1, false
	for t := range moves[0] {
		all, other, ksAny := true, false, false
		for _, tm := range moves {
			x := tm[t]
			other = other || x.other
			ksAny = ksAny || x.ksAny
			chased := x.other || c == AlwaysLoss && x.ks
			all = all && chased
		}
		switch {
		case !all, !other: // a general or soldier alone never chases (24.24–24.25)
		case c == AlwaysDraw && ksAny:
		default:
			if !found || t < best {
				best, found = t, true
			}
		}
	}
	return best, found
}

// newAttacks returns the capture threats on non-general pieces of the
// side to move in after that the side which just moved has there and did
// not have in before (the threat test: newly capturable, legally; discovered
// attacks are credited to the piece that attacks). A target that was
// already capturable by some piece before is not newly threatened.
func newAttacks(before, after *Position) []Chase {
	mover := int(before.turn)
	was := map[rules.Square]bool{}
	for _, a := range captures(before, mover) {
		was[a.Target] = true
	}
	var out []Chase
	for _, a := range captures(after.nullMove(), mover) {
		if !was[a.Target] || before.board[a.Target] != after.board[a.Target] {
			out = append(out, a)
		}
	}
	return out
}

// captures lists the legal captures of non-general pieces by side c in p,
// whose side to move must be c.
func captures(p *Position, c int) []Chase {
	var l moveList
	p.genLegal(&l)
	var out []Chase
	for _, m := range l.m[:l.n] {
		if y := p.board[m.to]; y != 0 && colorOf(y) != c && y&kindMask != general {
			out = append(out, Chase{Attacker: rules.Square(m.from), Target: rules.Square(m.to)})
		}
	}
	return out
}

// nullMove returns p with the other side to move (no piece moves).
func (p *Position) nullMove() *Position {
	q := *p
	q.turn ^= 1
	q.hash ^= zSide
	return &q
}

// forbiddenChase reports whether the attack a, made by the side that just moved
// in after (whose opponent is to move), is a forbidden chase by the
// forbidden-chase test of docs/xiangqi.md, leaving aside the
// general-and-soldier exception (the caller's): not one when the target is a
// soldier that has not crossed the river (P3, 24.21), or has real protection
// and can move, unless a horse or cannon chases a chariot (P6, P7, 24.13,
// 24.31), or is of the attacker's kind, can take the attacker back and can move
// (24.20, P10). A chariot chasing a crossed soldier is always forbidden
// (24.27).
func forbiddenChase(after *Position, a Chase) bool {
	b := &after.board
	x, y := b[a.Attacker], b[a.Target]
	ka, kv := x&kindMask, y&kindMask
	victim := colorOf(y)
	if kv == soldier && ownHalf(victim, int(a.Target)) {
		return false
	}
	if ka == chariot && kv == soldier {
		return true
	}
	mobile := canMove(after, a.Target)
	if kv == ka && mobile && canTake(after, a.Target, a.Attacker) {
		return false
	}
	if mobile && reallyProtected(after, a) && !((ka == horse || ka == cannon) && kv == chariot) {
		return false
	}
	return true
}

// canMove reports whether the piece on s, of the side to move, has a
// legal move.
func canMove(p *Position, s rules.Square) bool {
	var l moveList
	p.genLegal(&l)
	for _, m := range l.m[:l.n] {
		if rules.Square(m.from) == s {
			return true
		}
	}
	return false
}

// canTake reports whether the piece on from, of the side to move, can
// legally take on to.
func canTake(p *Position, from, to rules.Square) bool {
	var l moveList
	p.genLegal(&l)
	for _, m := range l.m[:l.n] {
		if rules.Square(m.from) == from && rules.Square(m.to) == to {
			return true
		}
	}
	return false
}

// reallyProtected reports whether, were the attacker to take the target,
// the target's side could legally take back on that point (Art. 22.15;
// false protection — a pinned defender, the flying general, a cannon
// losing its screen — fails the legality test, 22.16).
func reallyProtected(after *Position, a Chase) bool {
	q := after.nullMove()
	taken, err := q.PlayMove(rules.Move{From: a.Attacker, To: a.Target})
	if err != nil {
		return false
	}
	var l moveList
	taken.genLegal(&l)
	for _, m := range l.m[:l.n] {
		if rules.Square(m.to) == a.Target {
			return true
		}
	}
	return false
}

// mateThreat reports whether the side that just moved in p would mate in
// one if it moved again (Art. 22.3).
func mateThreat(p *Position) bool {
	if p.InCheck() {
		return false
	}
	q := p.nullMove()
	var l moveList
	q.genLegal(&l)
	for _, m := range l.m[:l.n] {
		r := *q
		r.doMove(m)
		if !r.hasLegal() {
			return true
		}
	}
	return false
}

var (
	checkVsChaseNames = []string{"checker_must_change", "draw"}
	combinedNames     = []string{"by_other_pieces", "always_draw", "always_loss"}
)

// String returns the check_vs_chase setting's name.
func (c CheckVsChase) String() string { return nameOf(checkVsChaseNames, int(c)) }

// String returns the king_pawn_combined_chase setting's name.
func (c CombinedChase) String() string { return nameOf(combinedNames, int(c)) }

// ParseCheckVsChase reads a check_vs_chase setting: "checker_must_change"
// or "draw" ("" is the default).
func ParseCheckVsChase(s string) (CheckVsChase, error) {
	i, err := parseName(checkVsChaseNames, s, "check_vs_chase")
	return CheckVsChase(i), err
}

// ParseCombinedChase reads a king_pawn_combined_chase setting:
// "by_other_pieces", "always_draw" or "always_loss" ("" is the default).
func ParseCombinedChase(s string) (CombinedChase, error) {
	i, err := parseName(combinedNames, s, "king_pawn_combined_chase")
	return CombinedChase(i), err
}

func nameOf(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("setting(%d)", i)
}

func parseName(names []string, s, key string) (int, error) {
	if s == "" {
		return 0, nil
	}
	for i, n := range names {
		if n == s {
			return i, nil
		}
	}
	return 0, fmt.Errorf("xiangqi: %s %q: want one of %v", key, s, names)
}
