package handsim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPolledAnswersHoldTheLog: a polled board's answers end in the game's
// position, come every 40–400 ms (a tenth more with jitter; a second
// look after a press at least 30 ms before the next poll; after an answer
// read late, as the line catches up), each stamped with its reading time, after its poll, and hold
// one press record per ply, in the answer to the first poll after the
// press, naming the mover's display (White on the left) and the whole
// seconds it showed.
func TestPolledAnswersHoldTheLog(t *testing.T) {
	late := 0
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 3))
		g := Play(r, Options{Start: t0, Plies: 30, Pace: Pace(seed % 3), Noise: seed%2 == 0, Polled: true})
		l := g.Line
		if l.Boards < 1 || l.Boards > 32 || l.Cycle < 40*time.Millisecond || l.Cycle > 400*time.Millisecond {
			t.Fatalf("seed %d: line %+v", seed, l)
		}
		late += l.Late
		pos := g.Start
		for _, p := range g.Plies {
			pos, _ = pos.Play(p.Move)
		}
		if got, want := final(g), pos.Placement(); got != want {
			t.Fatalf("seed %d: the answers end in\n%s\nnot\n%s", seed, got.String(), want.String())
		}
		var presses []game.LeverPress
		var pressAnswer []time.Time // the poll of the answer that held each press
		var pending []int
		var asked, read time.Time
		answers := 0
		for i, in := range g.Inputs {
			if i > 0 && in.At.Before(g.Inputs[i-1].At) {
				t.Fatalf("seed %d: input %d at %v before the one before", seed, i, in.At)
			}
			switch s := in.Sensed.(type) {
			case nil:
				if in.Asked.After(in.At) {
					t.Fatalf("seed %d: an answer read at %v to a poll sent at %v", seed, in.At, in.Asked)
				}
				if !asked.IsZero() {
					gap := in.Asked.Sub(asked)
					heldUp := read.Sub(asked) > 100*time.Millisecond // the answer before was read late
					if (gap < 30*time.Millisecond && !heldUp) || (gap > l.Cycle*11/10 && !heldUp) {
						t.Fatalf("seed %d: polls %v apart on a line of cycle %v", seed, gap, l.Cycle)
					}
				}
				for _, k := range pending {
					pressAnswer[k] = in.Asked
				}
				pending = pending[:0]
				asked, read = in.Asked, in.At
				answers++
			case game.LeverPress:
				presses = append(presses, s)
				pressAnswer = append(pressAnswer, time.Time{})
				pending = append(pending, len(presses)-1)
			}
		}
		if answers != l.Answers || len(presses) != len(g.Plies) {
			t.Fatalf("seed %d: %d answers (line says %d), %d press records for %d plies", seed, answers, l.Answers, len(presses), len(g.Plies))
		}
		for i, p := range g.Plies {
			d := game.LeftDisplay
			if i%2 == 1 {
				d = game.RightDisplay
			}
			if presses[i].Display != d || presses[i].Time%time.Second != 0 || presses[i].Time <= 0 || presses[i].Time > 10*time.Minute {
				t.Fatalf("seed %d ply %d: press record %+v", seed, i+1, presses[i])
			}
			if pressAnswer[i].Before(p.Press) || pressAnswer[i].After(p.Press.Add(l.Cycle*11/10+1500*time.Millisecond)) {
				t.Fatalf("seed %d ply %d: pressed at %v, answered to the poll of %v", seed, i+1, p.Press, pressAnswer[i])
			}
		}
	}
	if late == 0 {
		t.Fatalf("no answer read late in 60 games")
	}
}
