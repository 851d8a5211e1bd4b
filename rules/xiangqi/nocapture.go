package xiangqi

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// NoCaptureRule is the move-count limit of Art. 12 (docs/xiangqi.md, "The
// no-capture count") as a rule set configures it.
type NoCaptureRule struct {
	// Limit is the number of moves (move pairs) without a capture after
	// which a draw claim succeeds: 50 by default (Art. 12; 20.4 b.6 says
	// 60 [CONFLICT]).
	Limit int
	// ChecksCounted: checking moves count up to this many (Art. 12(c));
	// the ones beyond are not counted. 5 by default.
	ChecksCounted int
	// CapTotal: the cap is for both sides together; false: per side
	// [AMBIGUOUS], the default.
	CapTotal bool
}

// NoCapture is the Art. 12 count after the last move of a game.
type NoCapture struct {
	// Plies since the last capture (or the start), and of those the
	// checking moves of White (Red) and Black.
	Plies  int
	Checks [2]int
	// Counted is the plies that count: all of them less the checks beyond
	// the cap. Moves is Counted in move pairs (Counted/2), the law's unit;
	// international events count each player's moves, which is Counted.
	Counted, Moves int
	// Claimable: Moves has reached the Limit: a claim is upheld (12(a));
	// before that a claim gives the opponent the false-claim bonus (12(b)).
	Claimable bool
}

// CountNoCapture replays moves from start and returns the Art. 12 count
// after the last one. An illegal move is an error naming its ply.
func CountNoCapture(start *Position, moves []rules.Move, r NoCaptureRule) (NoCapture, error) {
	if r.Limit <= 0 {
		r.Limit = 50
	}
	var n NoCapture
	p := start
	for i, m := range moves {
		capture := m.To >= 0 && m.To < nPoints && p.board[m.To] != 0
		q, err := p.PlayMove(m)
		if err != nil {
			return NoCapture{}, fmt.Errorf("xiangqi: no-capture count: ply %d: %w", i+1, err)
		}
		if capture {
			n = NoCapture{}
		} else {
			n.Plies++
			if q.InCheck() {
				n.Checks[p.turn]++
			}
		}
		p = q
	}
	excess := 0
	if r.CapTotal {
		excess = max(n.Checks[0]+n.Checks[1]-r.ChecksCounted, 0)
	} else {
		excess = max(n.Checks[0]-r.ChecksCounted, 0) + max(n.Checks[1]-r.ChecksCounted, 0)
	}
	n.Counted = n.Plies - excess
	n.Moves = n.Counted / 2
	n.Claimable = n.Moves >= r.Limit
	return n, nil
}
