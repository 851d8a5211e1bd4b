package board

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestCatchUpWithACaptureInTheAir: the board's full read after a
// reconnect (or a daemon restart) finds three plies made meanwhile and
// the next move, a capture, in the players' hands (the capturing knight
// lifted, and the captured pawn too or not yet); the knight then lands
// and the clock is pressed. The read's deeper search goes on while pieces
// are in the hand: the three plies and the capture are made, in order,
// and the game is followed on (the next move too), with no alert. Before, a read with
// pieces in the hand ended the deeper search at once, the capture's
// landing was searched only two plies deep, and the game was never
// followed again: every later move was lost (TestRestartMidGameCatchesUp
// in hall; TestDaemonKillAndNATSRestart under load).
func TestCatchUpWithACaptureInTheAir(t *testing.T) {
	for _, c := range []struct {
		name   string
		lifted []string // off the board in the read
	}{
		{"knight lifted", []string{"f3"}},
		{"knight and pawn lifted", []string{"f3", "d4"}},
		{"pawn and knight lifted", []string{"d4", "f3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newScript(t, TrackerOptions{Completion: ClockPress})
			for _, u := range []string{"e2e4", "c7c5", "g1f3"} {
				s.move(u, true)
			}
			s.do("wait")
			s.reset()
			away := playUCI(t, s.tr.Position(), "d7d6", "d2d4", "c5d4")
			pl := away.Placement()
			for _, q := range c.lifted {
				pl.Sq[s.sq(q)] = rules.NoPiece
			}
			s.now = s.now.Add(6 * time.Second)
			// The port was away: a gap for the clock too (as the hall
			// tells the tracker).
			s.add(s.tr.ClockLost(s.now))
			s.add(s.tr.ClockBack(s.now))
			s.clk.Running = rules.White // Black pressed after 3... cxd4
			s.add(s.tr.Clock(s.now, s.clk))
			s.now = s.now.Add(150 * time.Millisecond)
			s.add(s.tr.Dump(s.now, pl))
			if len(c.lifted) == 1 {
				s.do("-d4")
			}
			s.do("wait:200ms", "+d4=N", "press", "wait:3s")
			s.move("g8f6", true)
			s.do("wait:3s")
			want := "d7d6 d2d4 c5d4 f3d4 g8f6"
			if got := strings.Join(madeUCIs(s.evs), " "); got != want {
				t.Fatalf("made %s, want %s\n%s", got, want, s.dump())
			}
			for _, e := range s.evs {
				switch e.(type) {
				case game.Unexplained, game.DisplacedPieces, game.IllegalMove:
					t.Errorf("%T\n%s", e, s.dump())
				}
			}
		})
	}
}
