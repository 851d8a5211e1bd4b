package board_test

import (
	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/obp/obpfeed"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// obpOutcome is how a tracker followed an OBP board's xiangqi game.
type obpOutcome struct {
	simOutcome
	// unnamed is how many lines the translator could not name a piece in
	// (the hall raises an unidentified alert for each), unnamedAt the
	// record's length at the first (-1: none).
	unnamed, unnamedAt int
}

// xiangqiSetup recognises the xiangqi start position, as the hall's
// session does for a xiangqi game.
func xiangqiSetup(p rules.Placement) (rules.Position, int, bool) {
	if !xiangqi.IsStart(p) {
		return nil, -1, false
	}
	pos, err := xiangqi.FromPlacement(p, rules.White, xiangqi.Options{})
	if err != nil {
		return nil, -1, false
	}
	return pos, -1, true
}

// followOBP follows g, a xiangqi game of the independent hands on a board
// that speaks the Open Board Protocol, as the hall follows an OBP board:
// each line through obpfeed's translator (which names the pieces an
// occupancy board cannot, with the game's rules as the hall gives them) to
// the tracker, set up as the session sets up a
// xiangqi game (no kings-in-the-centre gesture, the xiangqi set-up, the
// rule set's IllegalStands, reports at once as the hall says of an OBP
// board), a tick every 50 ms between the lines, Finish
// at the end; the adjudicator judges with rule set rs. A line whose piece
// the translator cannot name is the hall's unidentified alert, open from
// the record's ply then: it covers a difference there or later.
func followOBP(tb fataler, g handsim.Game, rs string) obpOutcome {
	tb.Helper()
	set, err := ruleset.Lookup(rs)
	if err != nil {
		tb.Fatal(err)
	}
	tr, err := board.New(board.TrackerOptions{Start: g.Start, AutoOrientation: true, Setup: xiangqiSetup, IllegalStands: set.IllegalMovesStand(), Immediate: true})
	if err != nil {
		tb.Fatal(err)
	}
	adj := adjudicator.New(adjudicator.GameInfo{ID: game.ID{Event: "obp", Round: 1, Board: 1}}, set,
		adjudicator.Options{TimeControl: clock.MustParse("600+0"), Start: g.Start})
	o := obpOutcome{simOutcome: simOutcome{want: g.UCI()}, unnamedAt: -1}
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
	feed := obpfeed.New(g.Start.Placement())
	feed.SetTurn(g.Start.Turn())
	feed.SetCanTake(func(from, to rules.Square) bool { return obpfeed.CanTake(tr.Position(), feed.Shown(), from, to) })
	var buf []game.Sensed
	beat := g.Lines[0].At.Truncate(simBeat)
	for _, l := range g.Lines {
		for ; beat.Before(l.At); beat = beat.Add(simBeat) {
			take(tr.Tick(beat))
		}
		buf, err = feed.Append(buf[:0], l.Msg)
		if err != nil {
			o.unnamed++
			if o.unnamedAt < 0 {
				o.unnamedAt = tr.Completed()
			}
		}
		for _, s := range buf {
			take(tr.Sense(l.At, s))
		}
	}
	for ; beat.Before(g.End); beat = beat.Add(simBeat) {
		take(tr.Tick(beat))
	}
	take(tr.Finish(g.End))
	o.got = record(o.evs)
	o.judge()
	if o.stuck() && o.unnamedAt >= 0 && o.diff >= o.unnamedAt {
		// The hall's unidentified alert (a warn, open until the arbiter
		// names the piece) says from that ply on that the position may be
		// read wrong.
		o.cover = game.KindUnidentified
	}
	return o
}

// obpRuleSet is the rule set of a xiangqi game at pace p.
func obpRuleSet(p handsim.Pace) string {
	switch p {
	case handsim.Blitz:
		return ruleset.XiangqiVN2004Blitz
	case handsim.Rapid:
		return ruleset.XiangqiVN2004Rapid
	}
	return ruleset.XiangqiVN2004
}
