package status

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

var (
	t0 = time.Date(2026, 3, 7, 9, 0, 0, 0, time.UTC)
	g1 = game.ID{Event: "open", Round: 1, Board: 1}
	g2 = game.ID{Event: "open", Round: 1, Board: 2}
)

// records is a fake hall: board id → its current record.
type records map[string]gamerecord.Record

func (r records) get(id string) (gamerecord.Record, bool) { rec, ok := r[id]; return rec, ok }

func alert(id, kind, sev string, ply int) game.Alert {
	return game.Alert{ID: id, Game: g1, Kind: kind, Severity: sev, Ply: ply, At: game.T(t0)}
}

// TestKeeperReports: the reports follow the boards' statuses, the games'
// records and clocks; alerts are open until an arbiter command names them
// or the device is back; every configured board has a report, connected
// or not.
func TestKeeperReports(t *testing.T) {
	recs := records{"r1-b1": {Info: gamerecord.Info{Game: g1}, Moves: []gamerecord.Ply{{UCI: "e2e4", SAN: "e4"}, {UCI: "c7c5", SAN: "c5"}}, Result: "*"}}
	k := NewKeeper([]Board{{ID: "r1-b1", Port: "/dev/a", Game: g1}, {ID: "r1-b2", Port: "/dev/b", Game: g2}, {ID: "r1-b1-blind", Port: "/dev/c", Game: g1, BlindOf: "r1-b1"}}, recs.get, func() time.Time { return t0 })
	sink := k.Sink(nopSink{})
	sink.PublishBoardStatus(game.BoardStatus{BoardID: "r1-b1", Port: "/dev/a", Connected: true, Serial: "04711", Clock: "DGT 3000"})
	k.Observe(hall.Observation{Board: "r1-b1", Game: g1, Payload: game.ClockEvent{Game: g1, WhiteMS: 5_400_000, BlackMS: 5_395_000, Running: "white", At: game.T(t0)}})
	for _, a := range []game.Alert{
		alert("open.1.1.illegal_move.3.0", game.KindIllegalMove, game.Crit, 3),
		alert("open.1.1.touch_move.2.0", game.KindTouchMove, game.Warn, 2),
		alert("open.1.1.clock_disconnected.2.0", game.KindClockDisconnected, game.Crit, 2),
		alert("open.1.1.checkmate.2.0", "checkmate", game.Info, 2),
	} {
		k.Observe(hall.Observation{Board: "r1-b1", Game: g1, Payload: a})
	}
	k.Observe(hall.Observation{Board: "r1-b1", Game: g1, Payload: game.Alert{ID: "x", Kind: game.KindCommand, Severity: game.Info, Game: g1,
		Proposal: map[string]any{"cmd": "acknowledge", "alert": "open.1.1.touch_move.2.0"}}})
	k.Observe(hall.Observation{Board: "r1-b1", Game: g1, Payload: alert("open.1.1.clock_disconnected.4.0", game.KindClockDisconnected, game.Info, 4)})

	rep := k.Reports()
	if len(rep.Boards) != 3 {
		t.Fatalf("%d reports", len(rep.Boards))
	}
	b1, b2, blind := rep.Boards[0], rep.Boards[1], rep.Boards[2]
	if !b1.Connected || b1.Ply != 2 || b1.LastMove == nil || b1.LastMove.SAN != "c5" || b1.LastMove.UCI != "c7c5" ||
		b1.Clock == nil || b1.Clock.Running != "white" || b1.Clock.BlackMS != 5_395_000 || b1.Serial != "04711" || b1.Result != "*" {
		t.Errorf("board 1: %+v", b1)
	}
	if len(b1.Alerts) != 1 || b1.Alerts[0].ID != "open.1.1.illegal_move.3.0" {
		t.Errorf("open alerts %+v, want the illegal move only (touch move acknowledged, clock back, checkmate info)", b1.Alerts)
	}
	if b2.Connected || b2.Game != g2 || b2.LastMove != nil || b2.Clock != nil || b2.Error != "not connected yet" || b2.Alerts == nil {
		t.Errorf("board 2 (never connected): %+v", b2)
	}
	if blind.BlindOf != "r1-b1" || blind.Game != g1 {
		t.Errorf("blind board: %+v", blind)
	}
	var out bytes.Buffer
	Print(&out, broadcast.DaemonReport{StartedAt: game.T(t0), UpdatedAt: game.T(t0)}, rep.Boards, t0.Add(time.Second))
	for _, want := range []string{"r1-b1", "open.1.1", "connected", "c5", "1:30:00 | 1:29:55 ▸W", "illegal_move crit (ply 3)", "r1-b2", "disconnected", "not connected yet"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	Print(&out, broadcast.DaemonReport{StartedAt: game.T(t0), UpdatedAt: game.T(t0)}, rep.Boards, t0.Add(time.Minute))
	if !strings.Contains(out.String(), "daemon silent since") {
		t.Errorf("a report a minute old is not called stale:\n%s", out.String())
	}
}

// TestBlindReportFollowsSighted: the report of a blind player's board,
// which shows its sighted board's game, is written again whenever the
// sighted board's changes: before, it kept the game and ply it had when
// its own connection status last changed (in the demo, round 1 at ply 0
// while board 1 played round 2).
func TestBlindReportFollowsSighted(t *testing.T) {
	g2 := game.ID{Event: "open", Round: 2, Board: 1}
	recs := records{"r1-b1": {Info: gamerecord.Info{Game: g1}, Result: "*"}}
	k := NewKeeper([]Board{{ID: "r1-b1", Port: "/dev/a", Game: g1}, {ID: "r1-b1-blind", Port: "/dev/c", Game: g1, BlindOf: "r1-b1"}}, recs.get, func() time.Time { return t0 })
	k.Status(game.BoardStatus{BoardID: "r1-b1-blind", Port: "/dev/c", Connected: true})
	k.changed(true)
	recs["r1-b1"] = gamerecord.Record{Info: gamerecord.Info{Game: g2}, Moves: []gamerecord.Ply{{UCI: "e2e4", SAN: "e4"}}, Result: "*"}
	k.Observe(hall.Observation{Board: "r1-b1", Game: g2, Payload: game.MoveEvent{Game: g2, Ply: 1, SAN: "e4", UCI: "e2e4", At: game.T(t0)}})
	var blind *broadcast.BoardReport
	for _, r := range k.changed(false) {
		if r.BoardID == "r1-b1-blind" {
			blind = &r
		}
	}
	if blind == nil {
		t.Fatal("the blind player's board's report is not written again after its sighted board's move")
	}
	if blind.Game != g2 || blind.Ply != 1 || blind.LastMove == nil || blind.LastMove.SAN != "e4" || !blind.Connected {
		t.Errorf("blind board's report %+v", *blind)
	}
}

// TestKeeperBucket writes the reports to a real NATS server's status
// bucket and reads them back as "dgtbridge status" does; a second keeper
// (the daemon restarted) keeps the first one's open alerts and removes
// the report of a board no longer configured; stopping marks every board
// disconnected and the daemon stopped.
func TestKeeperBucket(t *testing.T) {
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	subj, _ := broadcast.NewSubjects("dgt")
	run := func(k *Keeper) (stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			k.Run(ctx, WriterOptions{Connect: srv.Dialer(), Subjects: subj, Config: "/etc/dgtbridge/dgtbridge.yaml", Every: 20 * time.Millisecond})
			close(done)
		}()
		return func() { cancel(); <-done }
	}
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	read := func() (broadcast.DaemonReport, []broadcast.BoardReport) {
		t.Helper()
		d, b, err := Read(context.Background(), nc, subj)
		if err != nil {
			t.Fatal(err)
		}
		return d, b
	}
	if _, _, err := Read(context.Background(), nc, subj); err == nil || !strings.Contains(err.Error(), "the daemon has not run here") {
		t.Fatalf("read before any daemon: %v", err)
	}

	k := NewKeeper([]Board{{ID: "r1-b1", Port: "/dev/a", Game: g1}, {ID: "r1-b2", Port: "/dev/b", Game: g2}}, nil, nil)
	stop := run(k)
	k.Status(game.BoardStatus{BoardID: "r1-b2", Connected: true})
	k.Observe(hall.Observation{Board: "r1-b2", Game: g2, Payload: alert("open.1.2.illegal_move.7.0", game.KindIllegalMove, game.Crit, 7)})
	waitFor(t, "report of board 2 connected with its alert", func() bool {
		_, b, err := Read(context.Background(), nc, subj)
		return err == nil && len(b) == 2 && b[1].Connected && len(b[1].Alerts) == 1
	})
	d, _ := read()
	if d.Config != "/etc/dgtbridge/dgtbridge.yaml" || strings.Join(d.Boards, ",") != "r1-b1,r1-b2" || !d.StoppedAt.IsZero() {
		t.Errorf("daemon report %+v", d)
	}
	stop()
	d, b := read()
	if d.StoppedAt.IsZero() || b[1].Connected || b[1].Error != "the daemon stopped" {
		t.Errorf("after the stop: %+v %+v", d, b)
	}

	k2 := NewKeeper([]Board{{ID: "r1-b2", Port: "/dev/b", Game: g2}}, nil, nil)
	stop = run(k2)
	defer stop()
	waitFor(t, "daemon report of the restarted daemon", func() bool { d, _ := read(); return d.StoppedAt.IsZero() })
	d, b = read()
	if len(b) != 1 || b[0].BoardID != "r1-b2" || len(b[0].Alerts) != 1 || b[0].Alerts[0].ID != "open.1.2.illegal_move.7.0" {
		t.Errorf("after a restart: %+v", b)
	}
	kv, _ := openBucket(context.Background(), nc, subj)
	if _, err := kv.Get(context.Background(), "r1-b1"); err == nil {
		t.Error("the report of a board no longer configured is still there")
	}
}

// TestKeeperBucketTwoDaemons: two daemons (two halls) write into one
// bucket, each under its own name: "dgtbridge status" reads the boards of
// both; a daemon restarted with another board removes the report of the
// board it had and leaves the other hall's alone; a daemon of before (the
// plain _daemon key) is replaced by its named report. Before, one shared
// report held the boards of the daemon that wrote last, and a daemon
// starting deleted every other hall's board reports.
func TestKeeperBucketTwoDaemons(t *testing.T) {
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	subj, _ := broadcast.NewSubjects("dgt")
	run := func(k *Keeper, name string) (stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			k.Run(ctx, WriterOptions{Connect: srv.Dialer(), Subjects: subj, Name: name, Config: name + ".yaml", Every: 20 * time.Millisecond})
			close(done)
		}()
		return func() { cancel(); <-done }
	}
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	boards := func() string {
		_, b, err := Read(context.Background(), nc, subj)
		if err != nil {
			return err.Error()
		}
		var ids []string
		for _, r := range b {
			if r.UpdatedAt.IsZero() {
				return "no report yet for " + r.BoardID
			}
			ids = append(ids, r.BoardID)
		}
		return strings.Join(ids, ",")
	}
	waitBoards := func(want string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for got := boards(); got != want; got = boards() {
			if time.Now().After(deadline) {
				t.Fatalf("boards %q, want %q", got, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	// A daemon of before: the plain _daemon key.
	old := run(NewKeeper([]Board{{ID: "r1-b1", Game: g1}}, nil, nil), "")
	waitBoards("r1-b1")
	old()
	stopA := run(NewKeeper([]Board{{ID: "r1-b1", Game: g1}}, nil, nil), "hall-a")
	defer func() { stopA() }()
	stopB := run(NewKeeper([]Board{{ID: "r1-b2", Game: g2}}, nil, nil), "hall-b")
	defer stopB()
	waitBoards("r1-b1,r1-b2")
	kv, _ := openBucket(context.Background(), nc, subj)
	if _, err := kv.Get(context.Background(), broadcast.DaemonKey); err == nil {
		t.Error("the daemon of before's report is still there")
	}
	d, _, _ := Read(context.Background(), nc, subj)
	if d.Config != "hall-a.yaml, hall-b.yaml" || !d.StoppedAt.IsZero() {
		t.Errorf("merged report %+v", d)
	}

	// Hall A restarts with board 3 instead of board 1.
	stopA()
	stopA = run(NewKeeper([]Board{{ID: "r1-b3", Game: game.ID{Event: "open", Round: 1, Board: 3}}}, nil, nil), "hall-a")
	waitBoards("r1-b3,r1-b2")
	if _, err := kv.Get(context.Background(), "r1-b1"); err == nil {
		t.Error("hall A's old board's report is still there")
	}
	if _, err := kv.Get(context.Background(), "r1-b2"); err != nil {
		t.Errorf("hall B's board's report: %v", err)
	}
}

func TestDaemonName(t *testing.T) {
	a, b := DaemonName("hall-pc.local", "/var/lib/dgtbridge"), DaemonName("hall-pc.local", "/srv/other")
	if a == b || a != DaemonName("hall-pc.local", "/var/lib/dgtbridge") || !strings.HasPrefix(a, "hall-pc_local-") {
		t.Errorf("names %q %q", a, b)
	}
}

// waitFor polls cond every 10 ms until it holds, and fails naming what
// it waited for after 60 s (a generous bound for a loaded machine).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 60 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// nopSink drops everything (the keeper's Sink wraps it).
type nopSink struct{}

func (nopSink) PublishMove(game.MoveEvent) error          { return nil }
func (nopSink) PublishCorrection(game.Correction) error   { return nil }
func (nopSink) PublishClock(game.ClockEvent) error        { return nil }
func (nopSink) PublishResult(game.Result) error           { return nil }
func (nopSink) PublishState(game.GameState) error         { return nil }
func (nopSink) PublishAlert(game.Alert) error             { return nil }
func (nopSink) PublishBoardStatus(game.BoardStatus) error { return nil }

// announceSink is a sink that also publishes announcements.
type announceSink struct {
	nopSink
	got []game.Announcement
}

func (a *announceSink) PublishAnnouncement(x game.Announcement) error {
	a.got = append(a.got, x)
	return nil
}

// TestSinkKeepsAnnouncements: the keeper's Sink wrapper still offers the
// inner sink's PublishAnnouncement, which the hall looks for to publish
// the blind players' announcements (the wrapper once hid it, and no
// announcement reached NATS).
func TestSinkKeepsAnnouncements(t *testing.T) {
	inner := &announceSink{}
	s := NewKeeper(nil, nil, nil).Sink(inner)
	p, ok := s.(interface {
		PublishAnnouncement(game.Announcement) error
	})
	if !ok {
		t.Fatal("the wrapper hides PublishAnnouncement")
	}
	p.PublishAnnouncement(game.Announcement{Game: g1, Ply: 1, Text: "e4"})
	if len(inner.got) != 1 || inner.got[0].Text != "e4" {
		t.Errorf("announcements %+v", inner.got)
	}
}
