package emu

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// ActionKind is what a hand (or a player at the clock) does.
type ActionKind uint8

// Physical actions.
const (
	// Lift takes the piece off Square (the square reads empty).
	Lift ActionKind = iota
	// Place puts Piece on Square (whatever stood there is gone: lift it
	// first to model a capture faithfully).
	Place
	// PlaceMagic puts the magic piece Magic (dgt.MagicDraw …) on Square.
	PlaceMagic
	// Press is the player on Side pressing the clock lever.
	Press
	// Pause presses the clock's play/pause button (stops the clock).
	Pause
)

// String returns the action's name.
func (k ActionKind) String() string {
	switch k {
	case Lift:
		return "lift"
	case Place:
		return "place"
	case PlaceMagic:
		return "magic"
	case Press:
		return "press"
	case Pause:
		return "pause"
	}
	return fmt.Sprintf("action(%d)", k)
}

// Action is one physical action at offset At from the start of its
// script. Squares are chess squares ([rules.Chess8x8]); the emulator maps
// them to fields with its [Setup.Orientation].
type Action struct {
	At     time.Duration
	Kind   ActionKind
	Square rules.Square
	Piece  rules.Piece   // Place
	Magic  dgt.PieceCode // PlaceMagic
	Side   Side          // Press
}

// String describes the action, e.g. "+1.2s lift e2".
func (a Action) String() string {
	switch a.Kind {
	case Place:
		return fmt.Sprintf("+%v place %v %s", a.At, a.Piece, rules.Chess8x8.Name(a.Square))
	case PlaceMagic:
		return fmt.Sprintf("+%v magic %v %s", a.At, a.Magic, rules.Chess8x8.Name(a.Square))
	case Press, Pause:
		return fmt.Sprintf("+%v %v %v", a.At, a.Kind, a.Side)
	}
	return fmt.Sprintf("+%v %v %s", a.At, a.Kind, rules.Chess8x8.Name(a.Square))
}

// Script is a sequence of actions with offsets from a common start,
// sorted by At (ties keep their order).
type Script []Action

// Duration returns the offset of the last action.
func (s Script) Duration() time.Duration {
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].At
}

// Then returns s followed by t shifted to start gap after s's last action.
func (s Script) Then(gap time.Duration, t Script) Script {
	off := s.Duration() + gap
	out := append(Script(nil), s...)
	for _, a := range t {
		a.At += off
		out = append(out, a)
	}
	return out
}

// timedAction is an action at an absolute time; seq keeps ties in order.
type timedAction struct {
	at  time.Time
	seq int
	a   Action
}
