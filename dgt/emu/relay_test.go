package emu

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

func TestRelayScripts(t *testing.T) {
	start := chess.StartPosition(chess.Standard)
	var moves []rules.Move
	pos := rules.Position(start)
	for _, u := range []string{"e2e4", "d7d5", "e4d5", "d8d5", "b1c3"} {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	for _, blind := range []rules.Color{rules.White, rules.Black} {
		t.Run("blind "+blind.String(), func(t *testing.T) {
			s, b, err := RelayScripts(start, moves, RelayOptions{Blind: blind})
			if err != nil {
				t.Fatal(err)
			}
			// Presses: the start, then one per move, all on the sighted
			// board's clock, alternating sides.
			var sides []string
			for _, a := range s {
				if a.Kind == Press {
					sides = append(sides, a.Side.String())
				}
			}
			for _, a := range b {
				if a.Kind == Press {
					t.Errorf("press on the blind player's board: %v", a)
				}
			}
			if got := strings.Join(sides, " "); got != "right left right left right left" {
				t.Errorf("presses %s", got)
			}
			// Both boards end in the game's final position.
			t0 := time.Date(2026, 2, 8, 9, 0, 0, 0, time.UTC)
			for name, sc := range map[string]Script{"sighted": s, "blind": b} {
				e := New(Setup{}, t0)
				e.Schedule(t0, sc)
				e.Advance(t0.Add(sc.Duration() + time.Second))
				if got, want := e.Placement(), pos.Placement(); got != want {
					t.Errorf("%s board ends in\n%s\nwant\n%s", name, got.String(), want.String())
				}
			}
			// Each move is made on its player's board before the other's.
			if blind == rules.Black && !(s[1].At < b[0].At) {
				t.Errorf("White's first move starts at %v on his board, %v on the blind board", s[1].At, b[0].At)
			}
		})
	}
	if _, _, err := RelayScripts(start, []rules.Move{moves[1]}, RelayOptions{Blind: rules.Black}); err == nil || !strings.Contains(err.Error(), "ply 1") {
		t.Errorf("illegal first move: %v", err)
	}
}
