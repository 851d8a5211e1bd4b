package handsim

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// TeamOptions configure a team-drop match (PlayTeam).
type TeamOptions struct {
	// Start is the time both boards' clocks start.
	Start time.Time
	// Plies is each board's length at most (a board stops earlier when
	// the match ends). Default 40.
	Plies int
	Pace  Pace
	// Noise and Bursts, as for a single board (Options), on each board.
	Noise, Bursts bool
	// Clock is each player's time (default 5 minutes: the regulation's
	// sudden death).
	Clock time.Duration
}

// TeamMatch is a team-drop match played on two boards.
type TeamMatch struct {
	// Match is the truth: the match the generator fed every ply at its
	// press, in the order of the presses.
	Match *teamdrop.Match
	// Boards are the two boards' games (A, then B): each ply as played
	// (drops and removals included, only those the match recorded), and
	// what the board's reader heard.
	Boards [2]Game
	// Findings are what the truth's match told the arbiter.
	Findings []teamdrop.Finding
	// Drops, Removals and Handed count the drops and removals played
	// and the drops of a piece handed over less than 1.5 s before.
	Drops, Removals, Handed int
	// End is when the last report of either board was heard.
	End time.Time
}

// seat is one board of a match while it is played: the player to move
// and what his hands are doing.
type seat struct {
	b      *board
	g      *Game
	press  time.Time    // the last press on this board
	next   time.Time    // when the player to move starts his move
	quick  bool         // that start is a blitz recapture
	lastTo rules.Square // where the last move's piece landed
	plies  int
	done   bool
	// pending is the move the hands have made and whose press is still
	// to come (ok false: none).
	pending struct {
		ok             bool
		m              rules.Move
		release, press time.Time
		quick          bool
	}
}

// PlayTeam plays a team-drop match on the two boards of m, a new match
// (teamdrop.New) whose rules say what is legal: both boards' players move
// at once, each on his own board and clock; a capture's piece goes to the
// partner's pocket at the capturer's press (the truth: m is fed each ply
// at its press, in press order) and is handed over 0.1–1.5 s after it;
// a player drops it on an empty square (from beside the board, put down
// now and then on a square on its way, or adjusted once it stands), lifts
// an opponent's pawn off the last rank when the rules want it removed,
// and otherwise moves as on a single board. Only legal moves are played;
// the match stops at its end (a mate) or when each board has made
// o.Plies plies or its player has nothing to play for 20 s. Every choice
// comes from r.
func PlayTeam(r Rand, m *teamdrop.Match, o TeamOptions) TeamMatch {
	if o.Plies <= 0 {
		o.Plies = 40
	}
	if o.Clock <= 0 {
		o.Clock = 5 * time.Minute
	}
	tm := TeamMatch{Match: m}
	var seats [2]*seat
	for i := range seats {
		start := m.Start(teamdrop.Board(i))
		tm.Boards[i] = Game{Start: start}
		b := newBoard(start.Placement(), o.Start)
		b.clock = o.Clock
		seats[i] = &seat{b: b, g: &tm.Boards[i], press: o.Start, lastTo: rules.NoSquare}
		seats[i].next = o.Start.Add(think(r, o.Pace))
	}
	// handed: when each side's pocket pieces reach its hand, by board
	// and colour, in the order they came.
	var handed [2][2][]handover
	idle := [2]time.Duration{}
	for {
		// The earliest event: a press to complete, else a move to start.
		k, isPress := -1, false
		var at time.Time
		for i, s := range seats {
			if s.pending.ok && (k < 0 || s.pending.press.Before(at) || (s.pending.press.Equal(at) && !isPress)) {
				k, isPress, at = i, true, s.pending.press
			}
		}
		for i, s := range seats {
			if !s.done && !s.pending.ok && (k < 0 || s.next.Before(at)) {
				k, isPress, at = i, false, s.next
			}
		}
		if k < 0 {
			break
		}
		s, b := seats[k], teamdrop.Board(k)
		if isPress {
			p := s.pending
			s.pending.ok = false
			s.b.presses = append(s.b.presses, p.press)
			pos := m.Position(b)
			uci := pos.UCI(p.m)
			u, err := m.Complete(b, p.m, p.press)
			if err != nil {
				panic("handsim: the match refused a legal move: " + err.Error())
			}
			tm.Findings = append(tm.Findings, u.Findings...)
			s.press, s.lastTo = p.press, p.m.To
			if u.Recorded {
				s.g.Plies = append(s.g.Plies, Ply{Move: p.m, UCI: uci, Release: p.release, Press: p.press, Quick: p.quick})
				s.plies++
				if pl := m.Plies(b); len(pl) > 0 {
					if last := pl[len(pl)-1]; last.TakenToPocket {
						to := last.TakenTo
						handed[to.Board][to.Color] = append(handed[to.Board][to.Color],
							handover{at: p.press.Add(between(r, 100*time.Millisecond, 1500*time.Millisecond)), kind: last.Taken.Kind})
					}
				}
			}
			if m.Result(teamdrop.A).Result != "*" || m.Result(teamdrop.B).Result != "*" {
				for _, o := range seats {
					o.done = true // the players stop at the match's end
				}
				continue
			}
			if s.plies >= o.Plies {
				s.done = true
				continue
			}
			s.next, s.quick = p.press.Add(think(r, o.Pace)), false
			if o.Pace == Blitz && hasRecapture(m.Position(b), s.lastTo) && chance(r, 60) {
				s.next, s.quick = p.press.Add(between(r, 100*time.Millisecond, 300*time.Millisecond)), true
			}
			continue
		}
		// A player starts his move at at, with the pieces in his hand by
		// then.
		pos := m.Position(b)
		side := pos.Turn()
		moves := pos.LegalMoves(nil)
		moves = inHandOnly(moves, pos, side, handed[b][side], at)
		if len(moves) == 0 {
			// Nothing to play (a stalemate waits for a piece): look again
			// in a second, for 20 s at most.
			idle[k] += time.Second
			if idle[k] > 20*time.Second {
				s.done = true
			}
			s.next = at.Add(time.Second)
			continue
		}
		idle[k] = 0
		mv := chooseTeam(r, pos, moves, s.lastTo, s.quick)
		next, err := pos.Play(mv)
		if err != nil {
			panic("handsim: a legal move does not play: " + err.Error())
		}
		h := &hand{r: r, b: s.b, at: at, fast: o.Pace == Blitz}
		h.adjust(pos)
		switch {
		case mv.IsDrop():
			tm.Drops++
			if n := len(handed[b][side]); n > 0 && at.Sub(handed[b][side][n-1].at) < 1500*time.Millisecond {
				tm.Handed++
			}
			h.drop(pos, mv.To, rules.Piece{Color: side, Kind: mv.Drop})
		case mv.Flags&rules.FlagRemove != 0:
			tm.Removals++
			h.step() // the hand goes to the pawn
			h.lift(mv.From)
		default:
			h.play(pos, next, mv)
		}
		lever := between(r, 0, 400*time.Millisecond)
		if o.Pace == Blitz && chance(r, 70) {
			lever = between(r, 0, 150*time.Millisecond)
		}
		s.pending.ok, s.pending.m, s.pending.release, s.pending.press, s.pending.quick = true, mv, h.at, h.at.Add(lever), s.quick
	}
	var end time.Time
	for _, s := range seats {
		if s.press.After(end) {
			end = s.press
		}
	}
	tm.End = end.Add(5 * time.Second)
	for i, s := range seats {
		g := s.g
		g.End = tm.End
		g.Scan = between(r, 180*time.Millisecond, 260*time.Millisecond)
		g.Phase = between(r, 0, g.Scan)
		noise := 0
		if o.Noise {
			noise = r.IntN(3)
		}
		reports, noiseAt := s.b.scan(r, g.Scan, g.Phase, g.End, noise)
		g.NoiseAt = noiseAt
		g.Inputs = merge(reports, s.b.faces(o.Start, g.End, m.Start(teamdrop.Board(i)).Turn()))
		if o.Bursts {
			g.Inputs = bursts(r, g.Inputs)
		}
	}
	return tm
}

// think is how long a player thinks at pace p.
func think(r Rand, p Pace) time.Duration {
	switch p {
	case Blitz:
		return between(r, 300*time.Millisecond, 2*time.Second)
	case Slow:
		return between(r, 3*time.Second, 8*time.Second)
	}
	return between(r, 500*time.Millisecond, 4*time.Second)
}

// hasRecapture reports whether the side to move can take the piece on s.
func hasRecapture(pos rules.Position, s rules.Square) bool {
	if s == rules.NoSquare {
		return false
	}
	for _, m := range pos.LegalMoves(nil) {
		if m.IsCapture() && m.To == s {
			return true
		}
	}
	return false
}

// handover is a piece on its way to a player's hand: it is there at at.
type handover struct {
	at   time.Time
	kind rules.Kind
}

// inHandOnly keeps the moves a player can make at at with the pieces he
// holds: a drop of a kind needs one more piece of it in the pocket than
// are still on their way to his hand.
func inHandOnly(moves []rules.Move, pos rules.Position, side rules.Color, coming []handover, at time.Time) []rules.Move {
	var away [rules.King]int
	for _, c := range coming {
		if c.at.After(at) {
			away[c.kind]++
		}
	}
	out := moves[:0]
	for _, m := range moves {
		if !m.IsDrop() || pos.Pocket(side, m.Drop) > away[m.Drop] {
			out = append(out, m)
		}
	}
	return out
}

// chooseTeam picks a move: a blitz recapture when the player came for one,
// else often a pawn's step to the last rank (whose removal the opponent
// then owes), a drop now and then, a capture of the piece just moved
// often, a capture now and then, else any board move.
func chooseTeam(r Rand, pos rules.Position, moves []rules.Move, lastTo rules.Square, quick bool) rules.Move {
	var drops, board, recaps, last []rules.Move
	p := pos.Placement()
	for _, m := range moves {
		switch {
		case m.IsDrop():
			drops = append(drops, m)
		default:
			board = append(board, m)
			if m.IsCapture() && m.To == lastTo {
				recaps = append(recaps, m)
			}
			if m.From != rules.NoSquare && m.To != rules.NoSquare && p.Sq[m.From].Kind == rules.Pawn {
				if r := p.Geo.Rank(m.To); r == 0 || r == p.Geo.Ranks-1 {
					last = append(last, m)
				}
			}
		}
	}
	switch {
	case quick && len(recaps) > 0:
		return recaps[r.IntN(len(recaps))]
	case len(last) > 0 && chance(r, 50):
		return last[r.IntN(len(last))]
	case len(drops) > 0 && (len(board) == 0 || chance(r, 30)):
		return drops[r.IntN(len(drops))]
	case len(board) > 0:
		return choose(r, board, lastTo)
	}
	return moves[r.IntN(len(moves))]
}

// drop puts pc, fetched from beside the board, on the empty square to:
// now and then put down first on another empty square next to it and
// moved on, or adjusted once it stands (lifted and put back).
func (h *hand) drop(pos rules.Position, to rules.Square, pc rules.Piece) {
	h.at = h.at.Add(between(h.r, 50*time.Millisecond, 400*time.Millisecond)) // the hand takes the piece
	p := pos.Placement()
	geo := p.Geo
	if chance(h.r, 10) {
		var near []rules.Square
		for df := -1; df <= 1; df++ {
			for dr := -1; dr <= 1; dr++ {
				f, r := geo.File(to)+df, geo.Rank(to)+dr
				if (df != 0 || dr != 0) && f >= 0 && f < geo.Files && r >= 0 && r < geo.Ranks && p.Sq[geo.Square(f, r)].IsEmpty() {
					near = append(near, geo.Square(f, r))
				}
			}
		}
		if len(near) > 0 {
			s := near[h.r.IntN(len(near))]
			h.put(s, pc)
			h.at = h.at.Add(between(h.r, 30*time.Millisecond, 300*time.Millisecond))
			h.lift(s)
			h.step()
		}
	}
	h.put(to, pc)
	if chance(h.r, 8) {
		h.at = h.at.Add(between(h.r, 40*time.Millisecond, 200*time.Millisecond))
		h.lift(to)
		h.at = h.at.Add(between(h.r, 20*time.Millisecond, 120*time.Millisecond))
		h.put(to, pc)
	}
}
