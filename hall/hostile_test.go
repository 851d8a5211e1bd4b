package hall

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestHallForgedCommandReply: an arbiter command whose reply subject is
// the game's own move subject never puts anything on the feed: the reply
// stays in the arbiter's account (the server gives the responder its own
// reply subject), so the GAMES stream keeps moves only; a command without
// a reply is refused. Before, the hall's command responder published its
// {ok, error} reply on <p>.game.<g>.move, where the GAMES stream kept it
// among the moves.
func TestHallForgedCommandReply(t *testing.T) {
	g := game.ID{Event: "open2026", Round: 1, Board: 4}
	f := startHall(t, "r1-b4", g, "00004", nil)
	arb := f.arbiter(t)
	moveSubj := testPrefix + ".game." + g.String() + ".move"
	body := []byte(`{"cmd":"set_result","result":"1-0","by":"forger"}`)
	for _, reply := range []string{moveSubj, ""} {
		if err := arb.PublishMsg(&nats.Msg{Subject: testPrefix + ".arbiter." + g.String() + ".cmd", Reply: reply, Data: body}); err != nil {
			t.Fatal(err)
		}
	}
	if err := arb.Flush(); err != nil {
		t.Fatal(err)
	}
	// The request without a reply is refused. The one whose reply names a
	// feed subject is an arbiter's command like any other: the server
	// hands the responder a reply subject of its own, and the answer goes
	// back to the arbiter's account, never onto the daemon's feed.
	waitFor(t, 10*time.Second, "the request without a reply refused", func() bool { return f.d.p.Responder().Refused() == 1 })
	nc, err := f.srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if msgs := streamMsgs(t, nc, "DGT_GAMES", moveSubj, 0, 2*time.Second); len(msgs) != 0 {
		t.Errorf("%d message(s) on %s, first %s", len(msgs), moveSubj, msgs[0].Data())
	}
	// A command with an inbox is answered and applied.
	rep, err := arb.Request(testPrefix+".arbiter."+g.String()+".cmd", []byte(`{"cmd":"set_result","result":"0-1"}`), 10*time.Second)
	var cr CommandReply
	if err != nil || !decode(t, rep.Data, &cr) || !cr.OK {
		t.Fatalf("proper command: %v %v", rep, err)
	}
	if r, _ := f.d.h.Record(g); r.Result != "0-1" {
		t.Errorf("proper command not applied: result %q", r.Result)
	}
}

// TestHallRefusesHugeNames: a player name that would put every game state
// over NATS's max payload (1.1 MB) is refused at the edge with the board
// and field named, and nothing starts.
func TestHallRefusesHugeNames(t *testing.T) {
	hb := boardFor(t, "r1-b1", game.ID{Event: "open2026", Round: 1, Board: 1}, nil)
	hb.Open = func(context.Context) (io.ReadWriteCloser, error) { return nil, errors.New("no port") }
	hb.Session.Info.White = strings.Repeat("x", 1100<<10)
	_, err := New(Options{Boards: []Board{hb}, Sink: &timedSink{}, DataDir: t.TempDir()})
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "board r1-b1: white is 1126400 bytes long, at most 200") {
		t.Errorf("New: %v", err)
	}
}
