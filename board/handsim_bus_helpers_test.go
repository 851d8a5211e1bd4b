package board_test

import (
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// hallBusCycle is the poll cycle the hall gives a bus board's tracker when
// the configuration sets none (hall/bus.go's busPollCycle).
const hallBusCycle = 900 * time.Millisecond

// busOutcome is how a tracker followed a polled board's game.
type busOutcome struct {
	simOutcome
	// crowded is how many answers held four lever presses or more (the
	// hall reads such an answer as the board's log; followBus feeds it
	// live).
	crowded int
}

// followBus follows g, a game of the independent hands read as a bus
// line polls the board (handsim Options.Polled), as the hall follows a
// bus board: a tracker with Polled and ScanPeriod scan (the hall's
// hallBusCycle, or the line's own cycle) that rereads the record as a hall
// board's does (tracker.reread, on by default), each answer's reports fed in
// order stamped with the answer's time, then Answered(at, asked); clock
// readings as they come; Finish at the end. The hall's ticks of a bus
// board never pass its last answer (hall/bus.go), which Answered has
// ticked already: there is nothing more to tick between the inputs.
func followBus(tb fataler, g handsim.Game, scan time.Duration) busOutcome {
	tb.Helper()
	rs, err := ruleset.Lookup("fide2018-standard")
	if err != nil {
		tb.Fatal(err)
	}
	opts := board.TrackerOptions{Start: g.Start, AutoOrientation: true, KingsCentre: true,
		Setup: board.ChessSetup(chess.Standard), IllegalStands: rs.IllegalMovesStand(), Polled: true, ScanPeriod: scan, Reread: true}
	tr, err := board.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	adj := adjudicator.New(adjudicator.GameInfo{ID: game.ID{Event: "bus", Round: 1, Board: 1}}, rs,
		adjudicator.Options{TimeControl: clock.MustParse("600+0"), Start: g.Start})
	o := busOutcome{simOutcome: simOutcome{want: g.UCI()}}
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
	presses := 0
	for _, in := range g.Inputs {
		switch in.Sensed.(type) {
		case nil:
			if presses >= 4 {
				o.crowded++
			}
			presses = 0
			take(tr.Answered(in.At, in.Asked))
			continue
		case game.LeverPress:
			presses++
		}
		take(tr.Sense(in.At, in.Sensed))
	}
	take(tr.Finish(g.End))
	o.got = record(o.evs)
	o.judge()
	return o
}
