package clock

import (
	"testing"
)

// TestModelResumeCountsRecordedMoves: a game of 2/60+5:30+5
// resumed after White's and Black's first moves (the record replayed as
// MoveCompleted before the first reading). Each side's second move is a
// period boundary: the clock adds 30 s. Before, the resumed model counted
// presses from zero, so it expected the addition two moves late: a false
// time_added (counter differs) at the real boundary and a false
// period_time_missing two moves later; now the addition is expected where
// the clock makes it.
func TestModelResumeCountsRecordedMoves(t *testing.T) {
	steps := []step{
		{at: 0, move: true, moveOf: W, w: 55, b: 58, run: W}, // record: 1. e4, resumed at White's 2nd move
		{at: 10, w: 80, b: 58, run: B, want: []string{"period white 1 +0:30 after 2"}},
		{at: 20, w: 80, b: 83, run: W, want: []string{"period black 1 +0:30 after 2"}},
		{at: 30, w: 75, b: 83, run: B},
		{at: 40, w: 75, b: 78, run: W},
	}
	m := NewModel(MustParse("2/60+5:30+5"), Options{MidGame: true})
	m.MoveCompleted(B, t0) // the record's 1... e5, replayed before any reading
	for i, s := range steps {
		if s.move {
			m.MoveCompleted(s.moveOf, t0)
		}
		var got []string
		for _, e := range m.Observe(Reading{White: secs(s.w), Black: secs(s.b), Running: s.run}, t0.Add(secs(s.at))) {
			got = append(got, summary(e))
		}
		if len(got) != len(s.want) || len(got) > 0 && got[0] != s.want[0] {
			t.Fatalf("step %d: events %q, want %q", i, got, s.want)
		}
	}
}

// TestModelResumeHostControlled: a clock put under host
// control (SetNRun, e.g. a penalty applied with penalties: auto) before a
// restart adds no increments after it. Before, the resumed model expected
// the increment at every press: a false crit clock defect (time_jump) each
// move; with HostControlled from the record it expects none.
func TestModelResumeHostControlled(t *testing.T) {
	run(t, "5400+30", Options{MidGame: true, HostControlled: true}, []step{
		{at: 0, w: 5000, b: 5100, run: W},
		{at: 10, w: 4990, b: 5100, run: B},
		{at: 20, w: 4990, b: 5090, run: W},
	})
	run(t, "5400+30", Options{MidGame: true}, []step{
		{at: 0, w: 5000, b: 5100, run: W},
		{at: 10, w: 4990, b: 5100, run: B, want: []string{"time_jump white"}},
	})
}

// TestModelBurstAfterRestart: the first readings after a
// (re)connection arrive in one burst (the port's buffer held them): all
// stamped with the same time, the displayed time falling by a second from
// one to the next, a press among them. Before, the model judged them
// against each other and raised a crit time_jump for each; now the
// latest counts, the press counts as a move, and timing goes on from it.
func TestModelBurstAfterRestart(t *testing.T) {
	m := run(t, "5400+30", Options{MidGame: true}, []step{
		{at: 100, w: 5000, b: 5100, run: W},
		{at: 100, w: 4999, b: 5100, run: W},
		{at: 100, w: 4998, b: 5100, run: W},
		{at: 100.001, w: 5027, b: 5100, run: B}, // White pressed (+30)
		{at: 100.002, w: 5027, b: 5099, run: B},
		{at: 101, w: 5027, b: 5098, run: B},
		{at: 110, w: 5027, b: 5089, run: B},
		{at: 111, w: 5020, b: 5089, run: B, want: []string{"time_jump white"}}, // a real jump is still seen
	})
	if m.Moves(W) != 1 {
		t.Errorf("white's moves %d, want the press in the burst counted", m.Moves(W))
	}
	m2 := NewModel(MustParse("5400+30"), Options{MidGame: true})
	m2.Observe(Reading{White: secs(5000), Black: secs(5100), Running: W}, t0.Add(secs(100)))
	m2.Observe(Reading{White: secs(4999), Black: secs(5100), Running: W}, t0.Add(secs(101)))
	if ev := m2.Observe(Reading{White: secs(4990), Black: secs(5100), Running: W}, t0.Add(secs(101.01))); len(ev) == 0 {
		t.Error("a jump in live readings 10 ms apart raised nothing: only a burst right after a (re)start is taken as stale")
	}
}
