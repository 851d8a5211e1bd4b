package board_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// simBeat is the wiring's tick (the hall ticks every 50 ms).
const simBeat = 50 * time.Millisecond

// simOutcome is how a tracker followed a game of the independent hands
// (internal/handsim).
type simOutcome struct {
	want, got []string // the game played, the record (UCI)
	evs       []game.Event
	alerts    []game.Alert
	// diff is the first ply (from 1) where the record differs, 0 when it
	// is exact.
	diff int
	// cover names the open alert that covers the difference ("" when none).
	cover string
}

func (o simOutcome) exact() bool { return o.diff == 0 }

// stuck: the record differs and no open alert says so.
func (o simOutcome) stuck() bool { return o.diff != 0 && o.cover == "" }

// fataler is what followSim needs of a test (a *testing.T or a *rapid.T).
type fataler interface {
	Helper()
	Fatal(args ...any)
}

// followSim follows g with a tracker and an adjudicator as the hall does:
// inputs as they come, a tick every 50 ms between them, Finish at the end.
// The tracker rereads the record, as a hall board's does, unless
// DGTBRIDGE_SIM_REREAD=off (the figures without it).
func followSim(tb fataler, g handsim.Game, dumpsOnly bool) simOutcome {
	tb.Helper()
	return followSimWith(tb, g, dumpsOnly, os.Getenv("DGTBRIDGE_SIM_REREAD") != "off")
}

// followSimWith is followSim with the tracker's rereading on or off
// (TrackerOptions.Reread).
func followSimWith(tb fataler, g handsim.Game, dumpsOnly, reread bool) simOutcome {
	tb.Helper()
	rs, err := ruleset.Lookup("fide2018-standard")
	if err != nil {
		tb.Fatal(err)
	}
	opts := board.TrackerOptions{Start: g.Start, AutoOrientation: true, KingsCentre: true,
		Setup: board.ChessSetup(chess.Standard), IllegalStands: rs.IllegalMovesStand(), Reread: reread}
	aopts := adjudicator.Options{TimeControl: clock.MustParse("600+0"), Start: g.Start}
	if dumpsOnly {
		opts.Completion, opts.DumpsOnly = board.StableWindow, true
		aopts.TimeControl = clock.TimeControl{Untimed: true}
	}
	tr, err := board.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	adj := adjudicator.New(adjudicator.GameInfo{ID: game.ID{Event: "sim", Round: 1, Board: 1}}, rs, aopts)
	o := simOutcome{want: g.UCI()}
	take := func(evs []game.Event) {
		for _, ev := range evs {
			o.evs = append(o.evs, ev)
			for _, v := range adj.Handle(ev) {
				if a, ok := v.(game.Alert); ok {
					o.alerts = append(o.alerts, a)
				}
			}
		}
	}
	beat := g.Inputs[0].At.Truncate(simBeat)
	for _, in := range g.Inputs {
		for ; beat.Before(in.At); beat = beat.Add(simBeat) {
			take(tr.Tick(beat))
		}
		take(tr.Sense(in.At, in.Sensed))
	}
	for ; beat.Before(g.End); beat = beat.Add(simBeat) {
		take(tr.Tick(beat))
	}
	take(tr.Finish(g.End))
	o.got = record(o.evs)
	o.judge()
	return o
}

// judge finds the first difference and the open alert that covers it: a
// lost record or an unexplained board not found again, or an ambiguity
// named at the ply.
func (o *simOutcome) judge() {
	if slices.Equal(o.got, o.want) {
		return
	}
	d := 0
	for d < len(o.got) && d < len(o.want) && o.got[d] == o.want[d] {
		d++
	}
	o.diff = d + 1
	open := ""
	for _, ev := range o.evs {
		switch e := ev.(type) {
		case game.Unexplained:
			open = "unexplained"
			if e.Lost {
				open = game.KindRecordLost
			}
		case game.Explained:
			open = ""
		case game.Ambiguous:
			if e.Ply <= o.diff && o.diff < e.Ply+len(e.Chosen) {
				o.cover = game.KindAmbiguous
			}
		}
	}
	if o.cover == "" {
		o.cover = open
	}
}

// reread reports whether the tracker corrected the record from an
// earlier ply (the alerts of such a game are true: a move was misread).
func (o simOutcome) reread() bool {
	for _, ev := range o.evs {
		if c, ok := ev.(game.Correction); ok && c.Reason == game.Reread {
			return true
		}
	}
	return false
}

// falseAlerts returns the crit and warn alerts of a game whose record is
// exact that are not about how the game really ended, by kind.
func (o simOutcome) falseAlerts() map[string]int {
	out := map[string]int{}
	for _, a := range o.alerts {
		if a.Severity == game.Info || endOfGame(a, len(o.want)) {
			continue
		}
		out[a.Severity+" "+a.Kind]++
	}
	return out
}

// brief says where the record differs and what covers it; with
// DGTBRIDGE_SIM_VERBOSE set, every event too.
func (o simOutcome) brief() string {
	if os.Getenv("DGTBRIDGE_SIM_VERBOSE") != "" {
		return o.String()
	}
	return fmt.Sprintf("the record differs at ply %d of %d (covered by %q): got %v, want %v", o.diff, len(o.want), o.cover, around(o.got, o.diff-1), around(o.want, o.diff-1))
}

func (o simOutcome) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "record differs at ply %d (cover %q): got %v, want %v\n", o.diff, o.cover, around(o.got, o.diff-1), around(o.want, o.diff-1))
	for _, ev := range o.evs {
		switch ev.(type) {
		case game.ClockChanged, game.TurnStarted:
			continue
		}
		fmt.Fprintf(&b, "  %s %T %+v\n", ev.When().Format("15:04:05.000"), ev, ev)
	}
	return b.String()
}
