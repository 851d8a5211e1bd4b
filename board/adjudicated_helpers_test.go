package board_test

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The tests of this package (board_test) run the tracker and the
// adjudicator together, as the daemon does: neither package imports the
// other.

var t0 = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

func gid(s string) game.ID {
	g, err := game.ParseID(s)
	if err != nil {
		panic(err)
	}
	return g
}

func mustTC(s string) clock.TimeControl { return clock.MustParse(s) }

// feedDGT translates one DGT message and feeds it to tr at time at.
func feedDGT(tr *board.Tracker, at time.Time, m dgt.Message) []game.Event {
	var evs []game.Event
	for _, s := range dgtfeed.Append(nil, m) {
		evs = append(evs, tr.Sense(at, s)...)
	}
	return evs
}

// alerts returns the alerts among out, optionally only of kind.
func alerts(out []game.Verdict, kind string) []game.Alert {
	var as []game.Alert
	for _, o := range out {
		if al, ok := o.(game.Alert); ok && (kind == "" || al.Kind == kind) {
			as = append(as, al)
		}
	}
	return as
}

// one returns the only alert of kind in out, failing otherwise.
func one(t *testing.T, out []game.Verdict, kind string) game.Alert {
	t.Helper()
	as := alerts(out, kind)
	if len(as) != 1 {
		t.Fatalf("want one %s alert, got %d in %+v", kind, len(as), out)
	}
	return as[0]
}
