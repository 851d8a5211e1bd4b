package board_test

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// pointer matches a pointer as %v prints it (a clock reading's address).
var pointer = regexp.MustCompile(`0x[0-9a-f]+`)

// TestNextDeadlineExact: a tracker ticked only when NextDeadline says
// gives exactly the events, at exactly the times, of one ticked every
// 10 ms (and at each deadline), on real games played with every habit of
// dgt/emu's hands: a wiring may tick a board only when a deadline is due.
func TestNextDeadlineExact(t *testing.T) {
	n := 20
	if !testing.Short() {
		n = 100
	}
	games := board.LoadCorpus(t, n)
	for i, g := range games {
		moves, _ := board.MainLine(t, g)
		p, err := emu.Play(emu.Game{Start: g.Start, Moves: moves, Hands: emu.DefaultHands(), Seed: uint64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		run := func(every time.Duration) []string {
			tr, err := board.New(board.TrackerOptions{Start: g.Start, AutoOrientation: true, KingsCentre: true, Setup: board.ChessSetup(chess.Standard)})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			note := func(at time.Time, evs []game.Event) {
				for _, e := range evs {
					out = append(out, pointer.ReplaceAllString(fmt.Sprintf("%s %T %v", at.Format("15:04:05.000000"), e, e), "ptr"))
				}
			}
			now := p.PowerUp
			until := func(end time.Time) {
				for {
					d, ok := tr.NextDeadline()
					next := end
					if ok && d.Before(next) {
						next = d
					}
					if every > 0 && now.Add(every).Before(next) {
						next = now.Add(every)
					}
					if !next.Before(end) {
						return
					}
					now = next
					note(now, tr.Tick(now))
				}
			}
			for _, h := range p.Heard {
				until(h.At)
				now = h.At
				for _, s := range dgtfeed.Append(nil, h.Msg) {
					note(h.At, tr.Sense(h.At, s))
				}
			}
			until(p.End)
			note(p.End, tr.Finish(p.End))
			return out
		}
		fine, exact := run(10*time.Millisecond), run(0)
		if !slices.Equal(fine, exact) {
			k := 0
			for k < len(fine) && k < len(exact) && fine[k] == exact[k] {
				k++
			}
			t.Errorf("game %d (seed %d): ticked at deadlines only, event %d differs:\n every 10 ms: %s\n deadlines:   %s", g.Index, i+1, k,
				fine[min(k, len(fine)-1)], exact[min(k, len(exact)-1)])
		}
	}
}
