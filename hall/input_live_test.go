package hall

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/nats-io/nats.go"
)

// enter sends one entered move as nc and returns the reply.
func enter(t *testing.T, nc *nats.Conn, g game.ID, body string) session.InputReply {
	t.Helper()
	rep, err := nc.Request(testPrefix+".input."+g.String()+".move", []byte(body), 20*time.Second)
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var r session.InputReply
	if err := json.Unmarshal(rep.Data, &r); err != nil {
		t.Fatalf("reply %s: %v", rep.Data, err)
	}
	return r
}

// TestInputLive: through a real NATS server, as an arbiter user: a
// xiangqi game on a manual board entered move by move in Vietnamese
// notation, WXF and ICCS (with clock times), each reply naming the ply and
// each MoveEvent carrying ICCS and the 001 notation; an illegal entry is
// refused with the board's illegal-move alert for the arbiter; a chess
// move entered for a board whose port never answers (the game exists from
// the start) is published as SAN. Hostile clients are refused: an
// organiser and a public user may not send moves, and a request whose
// reply subject is not an inbox is never applied.
func TestInputLive(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	rs, err := ruleset.Lookup(ruleset.XiangqiVN2004)
	if err != nil {
		t.Fatal(err)
	}
	xg := game.ID{Event: "open2026", Round: 1, Board: 3}
	manual := Board{ID: "r1-b3", Protocol: ProtocolManual, Session: session.SessionOptions{
		Info:    gamerecord.Info{Game: xg, White: "Lü Qin", Black: "Xu Yinchuan", Variant: "xiangqi", Ruleset: rs.Name, TimeControl: "5400+30"},
		RuleSet: rs, Tracker: session.DefaultTrackerOptions()}}
	cg := game.ID{Event: "open2026", Round: 1, Board: 4}
	silent := boardFor(t, "r1-b4", cg, func(context.Context) (io.ReadWriteCloser, error) { return nil, errors.New("no answer") })
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	xMoves := subscribe(t, arb, testPrefix+".game."+xg.String()+".move")
	cMoves := subscribe(t, arb, testPrefix+".game."+cg.String()+".move")
	alerts := subscribe(t, arb, testPrefix+".arbiter."+xg.String()+".alert")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, manual, silent)
	waitFor(t, 20*time.Second, "the manual board", func() bool { _, dis := d.h.Summary(); return dis == 1 })
	// The publisher subscribes the responder's routes once connected.
	waitFor(t, 20*time.Second, "the daemon to answer", func() bool {
		_, err := arb.Request(testPrefix+".input."+xg.String()+".move", []byte(`{"move":""}`), 5*time.Second)
		return err == nil
	})

	entries := []struct{ body, iccs, note string }{
		{`{"move":"P2-5","notation":"vi","clock":{"white_ms":5390000,"black_ms":5400000}}`, "h2e2", "P2-5"},
		{`{"move":"H8+7","notation":"wxf","clock":{"white_ms":5390000,"black_ms":5395000}}`, "h9g7", "M8.7"},
		{`{"move":"h0g2","notation":"iccs"}`, "h0g2", "M2.3"},
		{`{"move":"X9-8","notation":"vi"}`, "i9h9", "X9-8"},
		{`{"move":"X1-2"}`, "i0h0", "X1-2"},
		{`{"move":"P8-9","notation":"vi"}`, "h7i7", "P8-9"},
	}
	for i, e := range entries {
		r := enter(t, arb, xg, e.body)
		if !r.OK || r.Ply != i+1 || r.Error != "" {
			t.Fatalf("entry %d %s: %+v", i+1, e.body, r)
		}
	}
	for i, e := range entries {
		select {
		case m := <-xMoves:
			var ev game.MoveEvent
			if decode(t, m.Data, &ev) && (ev.Ply != i+1 || ev.UCI != e.iccs || ev.Notation != e.note) {
				t.Errorf("move %d: %+v, want %s %s", i+1, ev, e.iccs, e.note)
			}
			if i == 0 && (ev.Clock == nil || ev.Clock.WhiteMS != 5390000) {
				t.Errorf("clock %+v", ev.Clock)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("move %d not published", i+1)
		}
	}
	// An illegal entry: Red's chariot through its own soldier.
	r := enter(t, arb, xg, `{"move":"X9.5","notation":"vi"}`)
	if r.OK || r.Ply != 0 || !strings.Contains(r.Error, "illegal") {
		t.Fatalf("illegal entry: %+v", r)
	}
	awaitAlert(t, alerts, 20*time.Second, "the illegal move's alert", nil, func(a game.Alert) bool {
		return a.Kind == game.KindIllegalMove && a.Severity == game.Crit && a.Ply == 7 && a.Side == "white" && a.Proposal["technical_error"] == "white"
	})
	if r := enter(t, arb, xg, `{"move":"Q7.1","notation":"vi"}`); r.OK || !strings.Contains(r.Error, "not readable") {
		t.Errorf("unreadable: %+v", r)
	}
	if r := enter(t, arb, xg, `{"move":"P2-5","notation":"vi","colour":"red"}`); r.OK {
		t.Errorf("unknown field accepted: %+v", r)
	}

	// The chess board whose port never answered: the game is there.
	if r := enter(t, arb, cg, `{"move":"e4","notation":"san","clock":{"white_ms":5399000}}`); !r.OK || r.Ply != 1 {
		t.Fatalf("chess entry: %+v", r)
	}
	select {
	case m := <-cMoves:
		var ev game.MoveEvent
		if decode(t, m.Data, &ev) && (ev.SAN != "e4" || ev.UCI != "e2e4" || ev.Notation != "") {
			t.Errorf("chess move %+v", ev)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("chess move not published")
	}

	// Hostile clients.
	org := connect(t, srv, "hall", "hall-pw")
	if _, err := org.Request(testPrefix+".input."+xg.String()+".move", []byte(`{"move":"P7.1","notation":"vi"}`), 2*time.Second); err == nil {
		t.Error("an organiser's entry was answered")
	}
	pub := connect(t, srv, "viewer", "viewer-pw", nats.CustomInboxPrefix(broadcast.PublicInboxPrefix))
	if _, err := pub.Request(testPrefix+".input."+xg.String()+".move", []byte(`{"move":"P7.1","notation":"vi"}`), 2*time.Second); err == nil {
		t.Error("a public user's entry was answered")
	}
	// An arbiter's entry whose reply names the feed is an entry like any
	// other (ply 7): the server hands the responder a reply subject of its
	// own and the answer stays in the arbiter's account, so the feed holds
	// MoveEvents only.
	if err := arb.PublishMsg(&nats.Msg{Subject: testPrefix + ".input." + xg.String() + ".move",
		Reply: testPrefix + ".game." + xg.String() + ".move", Data: []byte(`{"move":"B7.1","notation":"vi"}`)}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the entry applied as ply 7", func() bool {
		rec, _ := d.h.Record(xg)
		return len(rec.Moves) == len(entries)+1
	})
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	feed := streamMsgs(t, nc, "DGT_GAMES", testPrefix+".game."+xg.String()+".move", 0, 2*time.Second)
	if len(feed) != len(entries)+1 {
		t.Errorf("%d messages on the feed, want %d MoveEvents", len(feed), len(entries)+1)
	}
	for _, m := range feed {
		var ev game.MoveEvent
		if !decode(t, m.Data(), &ev) || ev.Game != xg || ev.Ply == 0 {
			t.Errorf("not a MoveEvent on the feed: %s", m.Data())
		}
	}
}
