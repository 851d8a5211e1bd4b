package teamdrop

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

var t0 = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

// sec returns t0 plus s seconds.
func sec(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func teamRules(t testing.TB, overrides map[string]any) ruleset.RuleSet {
	t.Helper()
	rs, err := ruleset.Lookup(ruleset.BGO2026Team)
	if err != nil {
		t.Fatal(err)
	}
	if overrides != nil {
		if rs, err = rs.WithOverrides(overrides); err != nil {
			t.Fatal(err)
		}
	}
	return rs
}

func newMatch(t testing.TB, fenA, fenB string, overrides map[string]any) *Match {
	t.Helper()
	m, err := New(teamRules(t, overrides), fenA, fenB, t0)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// parse reads a move on board b in any notation the engine reads, and,
// for an illegal move, the move the text names (as a hand made it).
func parse(t testing.TB, m *Match, b Board, text string) rules.Move {
	t.Helper()
	pos := m.Position(b)
	if strings.HasPrefix(text, "-") {
		s, err := rules.Chess8x8.ParseSquare(text[1:])
		if err != nil {
			t.Fatalf("bad lift %q", text)
		}
		return rules.Move{From: s, To: rules.NoSquare, Flags: rules.FlagRemove}
	}
	mv, err := pos.ParseMove(text)
	if err == nil {
		return mv
	}
	var ie *rules.IllegalMoveError
	if errors.As(err, &ie) && (ie.Move.From != rules.NoSquare || ie.Move.IsDrop()) {
		return ie.Move
	}
	t.Fatalf("board %s %s: %q: %v", b, pos.FEN(), text, err)
	return rules.NoMove
}

// play completes the moves on board b one second apart from at, and
// returns the findings of all of them.
func play(t testing.TB, m *Match, b Board, at float64, moves ...string) []Finding {
	t.Helper()
	var out []Finding
	for i, text := range moves {
		u, err := m.Complete(b, parse(t, m, b, text), sec(at+float64(i)))
		if err != nil {
			t.Fatalf("board %s: %s: %v", b, text, err)
		}
		out = append(out, u.Findings...)
	}
	return out
}

// only returns the findings of type T.
func only[T Finding](fs []Finding) []T {
	var out []T
	for _, f := range fs {
		if x, ok := f.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func pockets(m *Match, b Board) string {
	w, bl := m.Pockets(b)
	return dash(w) + "/" + dash(bl)
}

func describe(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s %s [%s]: %s", f.Severity(), f.Kind(), f.Where().Article, f.Message())
	}
	return b.String()
}
