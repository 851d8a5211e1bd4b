package board

import (
	"errors"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

func TestNewNeedsStart(t *testing.T) {
	if _, err := New(TrackerOptions{}); !errors.Is(err, ErrNoStart) {
		t.Fatalf("err %v, want ErrNoStart", err)
	}
}

func TestPlainMovesWithClock(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	s.move("e2e4", true)
	s.move("e7e5", true)
	s.move("g1f3", true)
	s.do("wait")
	s.want("game.MoveMade", "game.MoveCompleted", "game.MoveMade", "game.MoveCompleted", "game.MoveMade", "game.MoveCompleted")
	if got := strings.Join(ucis(s.evs), " "); got != "e2e4 e7e5 g1f3" {
		t.Fatalf("moves %q", got)
	}
	mc := find[game.MoveCompleted](s)
	if mc.Clock == nil || mc.SAN != "e4" || mc.MadeAt.After(mc.At) {
		t.Fatalf("completed %+v", mc)
	}
}

func TestCaptureEitherOrder(t *testing.T) {
	for _, victimFirst := range []bool{true, false} {
		s := newScript(t, TrackerOptions{})
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
		s.want("game.MoveMade", "game.MoveCompleted")
		if mc := find[game.MoveCompleted](s); mc.SAN != "exd5" {
			t.Fatalf("%v", mc.SAN)
		}
	}
}

func TestClockWithoutMove(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	s.move("e2e4", true)
	s.do("wait")
	s.reset()
	s.do("press", "wait")
	s.want("game.ClockWithoutMove")
	if c := find[game.ClockWithoutMove](s); c.Side.String() != "black" {
		t.Fatalf("side %v", c.Side)
	}
}

func TestStableWindowWithoutClock(t *testing.T) {
	s := newScript(t, TrackerOptions{Completion: StableWindow, Start: chess.StartPosition(chess.Standard)})
	s.move("e2e4", false)
	s.do("wait")
	s.want("game.MoveMade")
	s.do("wait:3s")
	s.want("game.MoveMade", "game.MoveCompleted")
}

func TestReleaseCompletion(t *testing.T) {
	s := newScript(t, TrackerOptions{Completion: Release})
	s.move("e2e4", false)
	s.do("wait")
	s.want("game.MoveMade", "game.MoveCompleted")
	if mc := find[game.MoveCompleted](s); mc.Clock != nil || !mc.MadeAt.Equal(mc.At) {
		t.Fatalf("%+v", mc)
	}
}

func TestStableWindowCompletesWhenOpponentStarts(t *testing.T) {
	s := newScript(t, TrackerOptions{Completion: StableWindow})
	s.move("e2e4", false)
	s.do("wait:600ms")
	s.want("game.MoveMade")
	s.do("-e7")
	s.want("game.MoveMade", "game.MoveCompleted")
}

func TestBadOptions(t *testing.T) {
	_, err := New(TrackerOptions{Start: mustPos(t, 0, ""), Completion: Completion(9)})
	if !errors.Is(err, ErrBadOption) {
		t.Fatalf("err %v", err)
	}
}
