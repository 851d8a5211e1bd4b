package board

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Test helpers over the tracker's and the relay's state (compiled into
// the tests only; the external test package board_test uses them too).

// Moves returns a copy of the moves made, completed or not.
func (t *Tracker) Moves() []rules.Move { return append([]rules.Move(nil), t.line.moves...) }

// ClockIsLost reports whether the tracker completes moves without the
// clock.
func (t *Tracker) ClockIsLost() bool { return t.clk.phase == clockLost }

// Squares feeds sensed square changes of board b (see [Tracker.Squares]).
func (r *Relay) Squares(b game.Which, at time.Time, changes []game.SquareChange) []game.Event {
	return r.step(at, b, r.tr[b].Squares(at, changes), nil)
}

// Clock feeds a clock reading to the sighted board's tracker.
func (r *Relay) Clock(at time.Time, c game.ClockReading) []game.Event {
	cc := c
	r.clock = &cc
	return r.step(at, game.SightedBoard, r.tr[game.SightedBoard].Clock(at, c), nil)
}

// LoadCorpus reads the first n real games of the corpus (corpus_test.go).
var LoadCorpus = loadCorpus

// MainLine returns a corpus game's main line and its UCI text.
var MainLine = mainLine

// ScanPeriodLearnt returns the scan period the tracker learnt from the
// board's reports (0: none yet).
func (t *Tracker) ScanPeriodLearnt() time.Duration { return t.scan.period }
