package hall

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// art24 are Article 24 cycles (positions of our own showing each case's
// pattern, as rules/xiangqi's catalogue test has them): the side that must
// change ("" when the cycle is allowed).
var art24 = []struct {
	name, fen, cycle, side string
}{
	{"24.2 perpetual check by one piece", "3k3R1/9/9/9/9/9/9/9/9/5K3 b - - 0 1", "d9d8 h9h8 d8d9 h8h9", "white"},
	{"24.9 one check one idle move", "3k5/9/7R1/9/9/9/9/9/9/5K3 w - - 0 1", "h7h9 d9d8 h9h7 d8d9", ""},
	{"24.8 one check one chase", "3k5/9/9/c8/7R1/9/9/9/9/5K3 w - - 0 1", "h5h9 d9d8 h9h6 a6a5 h6h8 d8d9 h8h5 a5a6", ""},
	{"24.14 perpetual chase of an unprotected piece", "3k5/9/9/c8/9/9/9/9/9/R3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0", "white"},
	{"24.29 a horse and the chariot it uncovers chase one piece", "3k5/9/9/c8/9/9/1N7/9/9/R3K4 b - - 0 1", "a6c6 b3a5 c6a6 a5b3", "white"},
	{"24.16 cannon and horse chase a chariot in turn", "3k5/9/9/r8/9/9/1N7/B8/9/C3K4 b - - 0 1", "a6c6 b3a5 c6a6 a5b3", "white"},
	{"24.20 a cannon chasing a cannon that can take back", "3k5/9/9/c8/9/9/1N7/B8/9/C3K4 b - - 0 1", "a6c6 b3a5 c6a6 a5b3", ""},
	{"24.27 a chariot chasing a protected crossed soldier", "1rr1k4/9/9/9/9/2p6/9/9/9/2RK5 b - - 0 1", "c4b4 c0b0 b4c4 b0c0", "white"},
	{"24.13 attacking a protected piece", "r2k5/2n6/9/c8/9/9/9/9/9/R3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0", ""},
	{"24.11 a cannon chasing a protected chariot", "3k5/9/9/r1r6/9/9/PH7/9/9/C3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0", "white"},
	{"24.12 one cannon threatening two chariots in turn", "3k5/9/9/rr7/9/9/PH7/9/9/C3K4 w - - 0 1", "a0b0 d9d8 b0a0 d8d9", ""},
	{"24.20 a chariot chasing a chariot that can take back", "3k5/9/9/r8/9/9/9/9/9/R3K4 b - - 0 1", "a6b6 a0b0 b6a6 b0a0", ""},
}

// TestArticle24Live plays each Article 24 cycle into a running game (a
// manual board's session, the moves entered as an operator would) three
// times: after the second cycle the arbiter gets the perpetual alert
// naming the side that must change (warn) or an allowed cycle (info), after
// the third the loss of the side that did not change is proposed (crit);
// an allowed cycle never gets a decisive proposal, and no result is set.
func TestArticle24Live(t *testing.T) {
	for _, c := range art24 {
		t.Run(c.name, func(t *testing.T) {
			o := xqSessionOptions(t, ruleset.XiangqiVN2004)
			o.StartFEN = c.fen
			s, err := session.NewSession(o, nil, t0)
			if err != nil {
				t.Fatal(err)
			}
			at := t0
			var perp []game.Alert
			moves := strings.Fields(c.cycle)
			for round := range 3 {
				for _, m := range moves {
					at = at.Add(10 * time.Second)
					st, _, err := s.Enter(at, session.Input{Move: m, Notation: "iccs"})
					if err != nil {
						t.Fatalf("round %d %s: %v", round+1, m, err)
					}
					for _, p := range st.Out {
						if a, ok := p.(game.Alert); ok && a.Kind == game.KindPerpetual {
							perp = append(perp, a)
						}
					}
				}
			}
			n := len(moves)
			if len(perp) < 2 {
				t.Fatalf("perpetual alerts: %+v", perp)
			}
			first, last := perp[0], perp[len(perp)-1]
			if first.Ply != 2*n || last.Ply != 3*n {
				t.Errorf("alerts at plies %d and %d, want %d and %d", first.Ply, last.Ply, 2*n, 3*n)
			}
			if c.side == "" {
				for _, a := range perp {
					if a.Severity != game.Info || a.Side != "" || a.Proposal["result"] != nil {
						t.Errorf("allowed cycle: %+v", a)
					}
				}
			} else {
				loss := map[string]string{"white": "0-1", "black": "1-0"}[c.side]
				if first.Severity != game.Warn || first.Side != c.side || first.Proposal["must_change"] != c.side || first.Proposal["result"] != nil {
					t.Errorf("third occurrence: %+v", first)
				}
				if last.Severity != game.Crit || last.Side != c.side || last.Proposal["result"] != loss {
					t.Errorf("fourth occurrence: %+v", last)
				}
			}
			if r := s.Record().Result; r != "*" {
				t.Errorf("the daemon set a result: %s", r)
			}
		})
	}
}
