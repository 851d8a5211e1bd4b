package emu

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Action is one thing that happens at a board. The concrete types are
// [Lift], [Put], [Lever], [Garble], [Fault] and [ClockSet].
type Action interface {
	fmt.Stringer
	action()
}

// Lift: a hand takes the piece off Square.
type Lift struct{ Square rules.Square }

// Put: a hand puts Piece down on Square (whatever stood there is gone:
// lift it first to model a capture).
type Put struct {
	Square rules.Square
	Piece  rules.Piece
}

// Lever: the player Side presses the clock lever: Side's clock stops and
// the other's runs. Pressed on a clock that has not started, it starts
// the other side's clock.
type Lever struct{ Side rules.Color }

// Garble: the next line the board sends is damaged on the wire.
type Garble struct{}

// Fault: the board reports a fault ("E <code> <text>").
type Fault struct{ Code, Text string }

// ClockSet: the arbiter sets the clock: First and Second are the times
// left, Running the side whose clock then runs (rules.NoColor: stopped,
// waiting for a lever to start it, as before a game).
type ClockSet struct {
	First, Second time.Duration
	Running       rules.Color
}

func (Lift) action()   {}
func (Put) action()    {}
func (Lever) action()  {}
func (Garble) action() {}
func (Fault) action()  {}

func (ClockSet) action() {}

func (a Lift) String() string  { return fmt.Sprintf("lift %d", a.Square) }
func (a Put) String() string   { return fmt.Sprintf("put %v on %d", a.Piece, a.Square) }
func (a Lever) String() string { return "lever " + a.Side.String() }
func (Garble) String() string  { return "garble" }
func (a Fault) String() string { return "fault " + a.Code }
func (a ClockSet) String() string {
	return fmt.Sprintf("clock set %v %v %s", a.First, a.Second, a.Running)
}

// Step is an action at offset At from the start of its script.
type Step struct {
	At     time.Duration
	Action Action
}

// Script is a sequence of steps sorted by At (ties keep their order).
type Script []Step

// Duration returns the offset of the last step.
func (s Script) Duration() time.Duration {
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].At
}

// Then returns s followed by t, t's offsets counted from s's end plus gap.
func (s Script) Then(gap time.Duration, t Script) Script {
	out := append(Script(nil), s...)
	base := s.Duration() + gap
	for _, st := range t {
		out = append(out, Step{At: base + st.At, Action: st.Action})
	}
	return out
}
