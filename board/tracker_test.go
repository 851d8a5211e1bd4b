package board

import (
	"errors"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/chess"
)

func TestNewNeedsStart(t *testing.T) {
	if _, err := New(Options{}); !errors.Is(err, ErrNoStart) {
		t.Fatalf("err %v, want ErrNoStart", err)
	}
}

func TestPlainMovesWithClock(t *testing.T) {
	s := newScript(t, Options{})
	s.move("e2e4", true)
	s.move("e7e5", true)
	s.move("g1f3", true)
	s.do("wait")
	s.want("MoveMade", "MoveCompleted", "MoveMade", "MoveCompleted", "MoveMade", "MoveCompleted")
	if got := strings.Join(ucis(s.evs), " "); got != "e2e4 e7e5 g1f3" {
		t.Fatalf("moves %q", got)
	}
	mc := find[*MoveCompleted](s)
	if mc.Clock == nil || mc.SAN != "e4" || mc.MadeAt.After(mc.At) {
		t.Fatalf("completed %+v", mc)
	}
}

func TestCaptureEitherOrder(t *testing.T) {
	for _, victimFirst := range []bool{true, false} {
		s := newScript(t, Options{})
		s.move("e2e4", true)
		s.move("d7d5", true)
		s.do("wait")
		s.reset()
		if victimFirst {
			s.do("-d5", "-e4", "+d5=P", "press")
		} else {
			s.do("-e4", "+d5=P", "press") // victim's removal never reported
		}
		s.do("wait")
		s.want("MoveMade", "MoveCompleted")
		if mc := find[*MoveCompleted](s); mc.SAN != "exd5" {
			t.Fatalf("%v", mc.SAN)
		}
	}
}

func TestClockWithoutMove(t *testing.T) {
	s := newScript(t, Options{})
	s.move("e2e4", true)
	s.do("wait")
	s.reset()
	s.do("press", "wait")
	s.want("ClockWithoutMove")
	if c := find[*ClockWithoutMove](s); c.Side.String() != "black" {
		t.Fatalf("side %v", c.Side)
	}
}

func TestStableWindowWithoutClock(t *testing.T) {
	s := newScript(t, Options{Completion: StableWindow, Start: chess.StartPosition(chess.Standard)})
	s.move("e2e4", false)
	s.do("wait")
	s.want("MoveMade")
	s.do("wait:3s")
	s.want("MoveMade", "MoveCompleted")
}

func TestReleaseCompletion(t *testing.T) {
	s := newScript(t, Options{Completion: Release})
	s.move("e2e4", false)
	s.do("wait")
	s.want("MoveMade", "MoveCompleted")
	if mc := find[*MoveCompleted](s); mc.Clock != nil || !mc.MadeAt.Equal(mc.At) {
		t.Fatalf("%+v", mc)
	}
}

func TestStableWindowCompletesWhenOpponentStarts(t *testing.T) {
	s := newScript(t, Options{Completion: StableWindow})
	s.move("e2e4", false)
	s.do("wait:600ms")
	s.want("MoveMade")
	s.do("-e7")
	s.want("MoveMade", "MoveCompleted")
}

func TestBadOptions(t *testing.T) {
	_, err := New(Options{Start: mustPos(t, 0, ""), Completion: Completion(9)})
	if !errors.Is(err, ErrBadOption) {
		t.Fatalf("err %v", err)
	}
}
