// Package handsim plays chess (and xiangqi) games with simulated hands on
// a simulated sensor board and returns what a board's reader would hear:
// square changes in the board's scan order, clock faces at presses and
// once a second, or whole-board reads once a second on a board read only
// by dumps (no clock, the square reports lost). It is the second, independent
// source of real play the board tracker is tested against: its hands, its
// scan and its timing are its own.
//
// The hands are physically possible: a piece is lifted, may be slid and
// put down on squares on its way, and dropped; a capture takes the
// captured piece off before or after the capturing piece is lifted (or
// with the other hand at the same time); castling goes king first (the
// king sometimes put down on the square it passes), rook first or with both
// hands; a promotion puts the pawn down first or fetches the new piece from
// beside the board; a player adjusts a piece between two scans. The lever
// is pressed 0–400 ms after the last piece is released; the opponent's
// hand comes at the earliest 100 ms after the press (a blitz recapture
// 100–300 ms after it).
//
// The board scans its squares one by one, a whole scan taking 180–260 ms
// at any phase; it reports a square when a visit finds it other than it
// last reported it, so a piece that comes and goes between two visits of
// its square is never reported, and the lever often beats the scan.
// Occasional noise (a square read empty for one scan) and bursts (reports
// handed over late, all at once) are optional.
//
// A board on a DGT bus line (Options.Polled) is read as the line polls it:
// every 40–400 ms, with jitter, answers now and then read late; each
// answer holds the changes the board logged since the previous one and a
// record of each lever press (the display it halted and the time shown),
// in the order they happened; the clock is read between polls.
//
// A xiangqi game (Options.Xiangqi) is played on a 9×10 board that speaks
// the Open Board Protocol: it sends a line at each lift and each put, at
// once (no scan: a rest of a slide is seen), naming the piece or, on a
// board that senses only occupancy, not; and its clock's line at every
// press and once a second.
//
// A team-drop match (PlayTeam, teamdrop.go) is played on two boards at
// once, each with its own clock (5 minutes) and scan: a capture's piece
// goes to the partner's pocket at the capturer's press, reaches the
// partner's hand 0.1–1.5 s later, and is dropped on an empty square from
// beside the board; a pawn on the last rank is lifted off by the opponent.
// The match of package rules/teamdrop says what is legal and is the truth.
//
// Every choice comes from a [Rand], so a property-testing library can
// drive (and shrink) it. The package is pure: no goroutines, no wall
// clock.
package handsim

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// Rand is the source of every choice: IntN returns a number in [0, n)
// for n > 0. A *rand.Rand of math/rand/v2 is one.
type Rand interface{ IntN(n int) int }

// Pace is how fast the players move.
type Pace uint8

// Paces.
const (
	// Rapid: 0.5–4 s to think.
	Rapid Pace = iota
	// Blitz: 0.3–2 s to think, and a recapture 100–300 ms after the
	// opponent's press.
	Blitz
	// Slow: 3–8 s to think.
	Slow
)

// String returns "rapid", "blitz" or "slow".
func (p Pace) String() string { return [...]string{"rapid", "blitz", "slow"}[p] }

// Options configure a game.
type Options struct {
	// Start is the time the game starts (the first clock face).
	Start time.Time
	// Plies is the game's length at most (it stops earlier at a mate or
	// a stalemate). Default 40.
	Plies int
	Pace  Pace
	// DumpsOnly: the board is read only by whole-board reads once a second
	// (no clock, no square reports).
	DumpsOnly bool
	// Noise: now and then a square is read empty for one scan.
	Noise bool
	// Bursts: now and then the reports of up to 1.5 s are handed over at
	// once, late (a reader that stalled). Not on a polled board.
	Bursts bool
	// Polled: the board is on a DGT bus line and read as the line polls
	// it (bus.go): answers every 40–400 ms with the changes the board
	// logged since the previous one and its lever presses as it recorded
	// them, and clock readings between them.
	Polled bool
	// Xiangqi: the game is xiangqi, on a 9×10 board that speaks the Open
	// Board Protocol (obp.go): its lines, not square reports, are what
	// the reader hears (Game.Lines).
	Xiangqi bool
	// Occupancy: the OBP board senses only whether a point is occupied
	// (its puts say "?").
	Occupancy bool
}

// Input is one report as the board's reader hears it, at At. On a polled
// board an input with Sensed nil ends an answer: the answer read at At
// (every input of it is stamped At) is whole, and Asked is when its poll
// was sent.
type Input struct {
	At     time.Time
	Sensed game.Sensed
	Asked  time.Time
}

// Ply is one move as played.
type Ply struct {
	Move rules.Move
	UCI  string
	// Release is when the last piece of the move was let go, Press when
	// the mover pressed the lever (on a board without a clock, when he
	// would have).
	Release, Press time.Time
	// Quick: the mover's hand came less than 300 ms after the opponent's
	// press.
	Quick bool
}

// Game is a game played: the truth and what the reader heard.
type Game struct {
	Start  rules.Position
	Plies  []Ply
	Inputs []Input
	// Scan is the board's scan period, Phase when its first scan began
	// after Options.Start.
	Scan, Phase time.Duration
	// End is when the last report was heard, a few seconds after the last
	// press.
	End time.Time
	// NoiseAt are the times the board misread a square.
	NoiseAt []time.Time
	// Line is the bus line of a polled board (Options.Polled).
	Line Line
	// Lines are an OBP board's lines as the reader hears them
	// (Options.Xiangqi; Inputs is then empty).
	Lines []Sent
}

// UCI returns the moves played, in UCI.
func (g *Game) UCI() []string {
	out := make([]string, len(g.Plies))
	for i, p := range g.Plies {
		out[i] = p.UCI
	}
	return out
}

// between returns a duration in [lo, hi].
func between(r Rand, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(r.IntN(int((hi-lo)/time.Millisecond)+1))*time.Millisecond
}

// chance reports true with probability pct %.
func chance(r Rand, pct int) bool { return r.IntN(100) < pct }

// Play plays a game of standard chess (or xiangqi, Options.Xiangqi) with
// moves chosen by r (captures and recaptures preferred now and then) and
// returns it.
func Play(r Rand, o Options) Game {
	if o.Plies <= 0 {
		o.Plies = 40
	}
	var start rules.Position = chess.StartPosition(chess.Standard)
	if o.Xiangqi {
		start = xiangqi.StartPosition()
	}
	g := Game{Start: start}
	b := newBoard(start.Placement(), o.Start)
	pos := rules.Position(start)
	press := o.Start         // the opponent's press the first move answers
	lastTo := rules.NoSquare // where the previous move's piece landed
	var moves []rules.Move
	for len(g.Plies) < o.Plies && pos.Status() == rules.Ongoing {
		moves = pos.LegalMoves(moves[:0])
		if len(moves) == 0 {
			break
		}
		m := choose(r, moves, lastTo)
		quick := false
		var think time.Duration
		switch o.Pace {
		case Blitz:
			think = between(r, 300*time.Millisecond, 2*time.Second)
			if m.IsCapture() && m.To == lastTo && chance(r, 80) {
				think, quick = between(r, 100*time.Millisecond, 300*time.Millisecond), true
			}
		case Slow:
			think = between(r, 3*time.Second, 8*time.Second)
		default:
			think = between(r, 500*time.Millisecond, 4*time.Second)
		}
		next, err := pos.Play(m)
		if err != nil {
			break // a legal move the engine refuses: end the game here
		}
		hand := &hand{r: r, b: b, at: press.Add(think), fast: o.Pace == Blitz}
		hand.adjust(pos)
		hand.play(pos, next, m)
		release := hand.at
		lever := between(r, 0, 400*time.Millisecond)
		if o.Pace == Blitz && chance(r, 70) {
			lever = between(r, 0, 150*time.Millisecond) // a blitz player's hand goes straight to the lever
		}
		press = release.Add(lever)
		b.presses = append(b.presses, press)
		g.Plies = append(g.Plies, Ply{Move: m, UCI: pos.UCI(m), Release: release, Press: press, Quick: quick})
		lastTo = m.To
		pos = next
	}
	g.End = press.Add(5 * time.Second)
	if o.Xiangqi {
		g.Lines = b.obpLines(r, start.Turn(), g.End, o.Occupancy, o.Noise)
		return g
	}
	g.Scan = between(r, 180*time.Millisecond, 260*time.Millisecond)
	g.Phase = between(r, 0, g.Scan)
	noise := 0
	if o.Noise {
		noise = r.IntN(3)
	}
	reports, noiseAt := b.scan(r, g.Scan, g.Phase, g.End, noise)
	g.NoiseAt = noiseAt
	switch {
	case o.DumpsOnly:
		g.Inputs = dumps(r, start.Placement(), reports, o.Start, g.End)
	case o.Polled:
		g.Inputs, g.Line = b.poll(r, start.Turn(), reports, g.End)
		if last := g.Inputs[len(g.Inputs)-1].At; last.After(g.End) {
			g.End = last
		}
	default:
		g.Inputs = merge(reports, b.faces(o.Start, g.End, start.Turn()))
		if o.Bursts {
			g.Inputs = bursts(r, g.Inputs)
		}
	}
	return g
}

// choose picks a move: a capture of the piece just moved often,
// a capture now and then, else any.
func choose(r Rand, moves []rules.Move, lastTo rules.Square) rules.Move {
	var caps, recaps []rules.Move
	for _, m := range moves {
		if m.IsCapture() {
			caps = append(caps, m)
			if m.To == lastTo {
				recaps = append(recaps, m)
			}
		}
	}
	switch {
	case len(recaps) > 0 && chance(r, 70):
		return recaps[r.IntN(len(recaps))]
	case len(caps) > 0 && chance(r, 30):
		return caps[r.IntN(len(caps))]
	}
	return moves[r.IntN(len(moves))]
}
