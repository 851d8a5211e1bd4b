package hall

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// TestOBPBoardsReportAtOnce: the hall tells an OBP board's tracker that
// the board reports each lift and put at once (board.TrackerOptions
// Immediate: a piece lifted after the press was lifted by the opponent),
// and a DGT board's that it does not (its scan may report the mover's own
// lift after the press).
func TestOBPBoardsReportAtOnce(t *testing.T) {
	none := func(context.Context) (io.ReadWriteCloser, error) { return nil, errors.New("no port") }
	ob := obpBoardFor(t, "obp-1", game.ID{Event: "open2026", Round: 1, Board: 1}, ruleset.XiangqiVN2004Blitz, "", "300+3", none)
	db := boardFor(t, "dgt-2", game.ID{Event: "open2026", Round: 1, Board: 2}, nil)
	db.Open = none
	h, err := New(Options{Boards: []Board{ob, db}, Sink: &timedSink{}, DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, br := range h.boards {
		if got, want := br.b.Session.Tracker.Immediate, br.b.Protocol == ProtocolOBP; got != want {
			t.Errorf("board %s (protocol %v): tracker reports at once %v, want %v", br.b.ID, br.b.Protocol, got, want)
		}
	}
}
