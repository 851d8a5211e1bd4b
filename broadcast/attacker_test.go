package broadcast

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Markers of what the daemon published before the attack: a payload that
// holds one was copied from there.
const (
	markLive      = "e2e4"             // the live move, its GAMES message and KV state
	markAlert     = "alert-secret"     // the arbiters' alert
	markBoardOne  = "announce-board-1" // board 1's announcement (relay 1)
	markBoardFive = "announce-board-5" // board 5's announcement (relay 5)
)

var attackUsers = []User{
	{Name: "hall", Password: "hall-pw", Role: RoleOrganiser},
	{Name: "arb", Password: "arb-pw", Role: RoleArbiter},
	{Name: "viewer", Password: "viewer-pw", Role: RolePublic},
	{Name: "relay1", Password: "relay1-pw", Role: RoleRelay, Board: 1},
	{Name: "relay5", Password: "relay5-pw", Role: RoleRelay, Board: 5},
}

// sink is a connection that subscribes to everything its user may read
// and keeps it.
type sink struct {
	name string
	mu   sync.Mutex
	msgs []*nats.Msg
	nc   *nats.Conn
}

func (s *sink) add(m *nats.Msg) {
	s.mu.Lock()
	s.msgs = append(s.msgs, m)
	s.mu.Unlock()
}

// take returns what the sink got since the last take.
func (s *sink) take(t *testing.T) []*nats.Msg {
	t.Helper()
	if err := s.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.msgs
	s.msgs = nil
	return out
}

// quietConnect connects as user; permission violations are expected and
// dropped.
func quietConnect(t *testing.T, srv *Server, u User) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect("", nats.InProcessServer(srv.NATS()), nats.UserInfo(u.Name, u.Password),
		nats.CustomInboxPrefix(inboxPrefix(u.Role)), nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	if err != nil {
		t.Fatalf("connect as %s: %v", u.Name, err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// newSink subscribes on everything a user's permissions let it subscribe
// to (the daemon's: every subject of the feeds and the KV buckets, and the
// plain inboxes, which nothing of the daemon's uses).
func newSink(t *testing.T, srv *Server, u *User) *sink {
	t.Helper()
	s := &sink{name: "daemon"}
	var subjects []string
	if u == nil {
		s.nc = srv.mustConnect(t)
		subjects = []string{"dgt.game.>", "dgt.public.>", "dgt.arbiter.*.*.*.alert", "dgt.relay.>", "dgt.board.>", "$KV.>", "_INBOX.>"}
	} else {
		s.name, s.nc = u.Name, quietConnect(t, srv, *u)
		subj, _ := NewSubjects(testPrefix)
		perm, err := rolePermissions(subj, *u)
		if err != nil {
			t.Fatal(err)
		}
		subjects = perm.Subscribe.Allow
	}
	for _, subj := range subjects {
		if _, err := s.nc.Subscribe(subj, s.add); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return s
}

// attackTargets are the subjects an attacker names as reply subjects,
// deliver subjects and plain publish subjects.
var attackTargets = []string{
	"dgt.public.open2026.1.1.move", "dgt.public.open2026.1.1.state", "dgt.game.open2026.1.1.move",
	"dgt.arbiter.open2026.1.1.alert", "dgt.relay.open2026.1.5.announce", "dgt.board.b1.status",
	"$KV.dgt_games.open2026.1.1", "$KV.dgt_status.b1", "dgt.api.pgn.open2026.1",
	"_INBOX.x", PublicInboxPrefix + ".x", OrganiserInboxPrefix + ".x", ArbiterInboxPrefix + ".x",
	RelayInboxPrefix + ".x", DaemonInboxPrefix + ".x",
}

var attackStreams = map[string]string{ // stream → a subject it holds
	"DGT_GAMES": "dgt.game.open2026.1.1.move", "DGT_PUBLIC": "dgt.public.open2026.1.1.move",
	"DGT_ALERTS": "dgt.arbiter.open2026.1.1.alert", "KV_dgt_games": "$KV.dgt_games.open2026.1.1",
	"KV_dgt_status": "$KV.dgt_status.b1",
}

type call struct{ subject, body string }

// attackCalls are every request an attacker sends with each target as its
// reply (target names the deliver subject of push consumers and
// snapshots too).
func attackCalls(target string) []call {
	calls := []call{
		{"$JS.API.INFO", ""}, {"$JS.API.STREAM.NAMES", ""}, {"$JS.API.STREAM.LIST", ""},
		{"$JS.API.STREAM.CREATE.SPY", `{"name":"SPY","subjects":["spy.>"],"sources":[{"name":"DGT_GAMES"},{"name":"DGT_ALERTS"}]}`},
		{"dgt.api.pgn.open2026.1", ""}, {"dgt.api.pgn.public.open2026.1", ""}, {"dgt.api.boards", ""},
		{"dgt.arbiter.open2026.1.1.cmd", `{"cmd":"set_result","result":"1-0"}`}, {"dgt.input.open2026.1.1.move", `{"move":"e4"}`},
		{"dgt.api.relay.open2026.1.1.time", ""}, {"dgt.api.relay.open2026.1.5.time", ""},
	}
	for st, subj := range attackStreams {
		push := func(extra string) string {
			return fmt.Sprintf(`{"stream_name":%q,"config":{"deliver_subject":%q,"ack_policy":"none","deliver_policy":"all"%s}}`, st, target, extra)
		}
		calls = append(calls,
			call{"$JS.API.STREAM.INFO." + st, ""},
			call{"$JS.API.STREAM.MSG.GET." + st, fmt.Sprintf(`{"last_by_subj":%q}`, subj)},
			call{"$JS.API.DIRECT.GET." + st, fmt.Sprintf(`{"last_by_subj":%q}`, subj)},
			call{"$JS.API.DIRECT.GET." + st, `{"seq":1,"batch":20}`},
			call{"$JS.API.DIRECT.GET." + st + "." + subj, ""},
			call{"$JS.API.CONSUMER.CREATE." + st, push("")},
			call{"$JS.API.CONSUMER.CREATE." + st + ".spy", push(`,"name":"spy"`)},
			call{"$JS.API.CONSUMER.CREATE." + st + ".spyd." + subj, push(`,"name":"spyd","durable_name":"spyd","filter_subject":"` + subj + `"`)},
			call{"$JS.API.CONSUMER.DURABLE.CREATE." + st + ".spy2", push(`,"durable_name":"spy2"`)},
			call{"$JS.API.CONSUMER.CREATE." + st + ".dur", fmt.Sprintf(`{"stream_name":%q,"config":{"name":"dur","durable_name":"dur","ack_policy":"none"}}`, st)},
			call{"$JS.API.CONSUMER.MSG.NEXT." + st + ".pull", `{"batch":5,"no_wait":true}`},
			call{"$JS.API.CONSUMER.DELETE." + st + ".pull", ""},
			call{"$JS.API.STREAM.UPDATE." + st, fmt.Sprintf(`{"name":%q,"subjects":["spy.>"]}`, st)},
			call{"$JS.API.STREAM.PURGE." + st, ""},
			call{"$JS.API.STREAM.MSG.DELETE." + st, `{"seq":1}`},
			call{"$JS.API.STREAM.SNAPSHOT." + st, fmt.Sprintf(`{"deliver_subject":%q}`, target)},
			call{"$JS.API.STREAM.DELETE." + st, ""},
		)
	}
	return calls
}

// TestAttacker: every role (and a client without credentials) tries every
// way in: a plain publish on every sensitive subject, and every JetStream
// and KV API call and every request of the daemon with every sensitive
// subject as its reply (and as the deliver subject of push consumers and
// snapshots), with the public delay an hour away. Afterwards nothing has
// changed in the daemon's streams or on the daemon's subjects (where the
// spectators' view reads the public copy); no other user got anything;
// and what the attacker got itself holds nothing its role may not read
// (public: nothing live; relay: nothing but its own board's announcement;
// organiser: no alert).
func TestAttacker(t *testing.T) {
	srv := startServer(t, t.TempDir(), attackUsers...)
	t.Cleanup(srv.Shutdown)
	p := newDaemonPublisher(t, srv, time.Hour)
	p.Responder().Handle("dgt.arbiter.*.*.*.cmd", Staff, func(context.Context, Request) Reply { return StatusReply(nil) })
	p.Responder().Handle("dgt.api.relay.*.*.*.time", Staff, func(context.Context, Request) Reply { return StatusReply(nil) })
	runPublisher(t, p)
	waitFor(t, "publisher connected", 5*time.Second, func() bool { return p.Health() == nil })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	daemonJS, _ := jetstream.New(srv.mustConnect(t))
	if _, err := daemonJS.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "dgt_status"}); err != nil {
		t.Fatal(err)
	}
	if _, err := daemonJS.Publish(ctx, "$KV.dgt_status.b1", []byte(`{"board_id":"b1","note":"`+markLive+`"}`)); err != nil {
		t.Fatal(err)
	}
	mv := move(1, 0)
	mv.UCI = markLive
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(p.PublishMove(mv))
	must(p.PublishState(game.GameState{Game: testGame, Event: testGame.Event, Round: 1, Board: 1, Moves: []string{markLive}, Result: "*"}))
	must(p.PublishAlert(game.Alert{ID: markAlert, Game: testGame, Kind: "flag_fall"}))
	for b, text := range map[int]string{1: markBoardOne, 5: markBoardFive} {
		must(p.PublishAnnouncement(game.Announcement{Game: game.ID{Event: testGame.Event, Round: 1, Board: b}, Ply: 1, Lang: "en", Text: text, Kind: game.AnnounceMove}))
	}
	waitFor(t, "live messages sent", 5*time.Second, func() bool { return p.Pending() <= 2 }) // the public copies wait an hour

	streams := map[string]jetstream.StreamInfo{}
	snapshot := func() map[string]jetstream.StreamInfo {
		out := map[string]jetstream.StreamInfo{}
		for st := range attackStreams {
			s, err := daemonJS.Stream(ctx, st)
			if err != nil {
				t.Fatalf("stream %s: %v", st, err)
			}
			out[st] = *s.CachedInfo()
		}
		return out
	}
	streams = snapshot()
	daemon := newSink(t, srv, nil)
	sinks := map[string]*sink{}
	for i := range attackUsers {
		sinks[attackUsers[i].Name] = newSink(t, srv, &attackUsers[i])
	}

	if nc, err := nats.Connect("", nats.InProcessServer(srv.NATS())); err == nil {
		nc.Close()
		t.Error("a client without credentials was let in")
	}
	for _, attacker := range attackUsers {
		t.Run(string(attacker.Role)+"-"+attacker.Name, func(t *testing.T) {
			nc := quietConnect(t, srv, attacker)
			// A pull consumer of the attacker's own (where it may make one),
			// for the MSG.NEXT calls.
			for st := range attackStreams {
				body := fmt.Sprintf(`{"stream_name":%q,"config":{"name":"pull","ack_policy":"none","inactive_threshold":60000000000}}`, st)
				nc.Request("$JS.API.CONSUMER.CREATE."+st+".pull", []byte(body), time.Second) //nolint:errcheck // refused to most
			}
			for _, target := range attackTargets {
				nc.Publish(target, []byte(`{"forged":true}`)) //nolint:errcheck // a violation is reported asynchronously
				for _, c := range attackCalls(target) {
					if err := nc.PublishRequest(c.subject, target, []byte(c.body)); err != nil {
						t.Fatal(err)
					}
				}
				if err := nc.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			// Let the proxy and the server answer everything.
			time.Sleep(time.Second)
			if got := daemon.take(t); len(got) > 0 {
				t.Errorf("%d message(s) reached the daemon's account, the first on %s: %.80s", len(got), got[0].Subject, got[0].Data)
			}
			for name, s := range sinks {
				got := s.take(t)
				if name != attacker.Name {
					if len(got) > 0 {
						t.Errorf("user %s got %d message(s), the first on %s: %.80s", name, len(got), got[0].Subject, got[0].Data)
					}
					continue
				}
				for _, m := range got {
					if bad := forbidden(attacker, m); bad != "" {
						t.Errorf("the attacker got %s it may not read, on %s: %.100s", bad, m.Subject, m.Data)
						break
					}
				}
			}
			after := snapshot()
			for st, before := range streams {
				a := after[st]
				if a.State.Msgs != before.State.Msgs || a.State.LastSeq != before.State.LastSeq || strings.Join(a.Config.Subjects, ",") != strings.Join(before.Config.Subjects, ",") {
					t.Errorf("stream %s changed: %d messages (last %d, subjects %v), %d before (last %d, subjects %v)", st,
						a.State.Msgs, a.State.LastSeq, a.Config.Subjects, before.State.Msgs, before.State.LastSeq, before.Config.Subjects)
				}
			}
			for st := range attackStreams {
				s, err := daemonJS.Stream(ctx, st)
				if err != nil {
					t.Fatal(err)
				}
				for c := range s.ListConsumers(ctx).Info() {
					if c.Config.DeliverSubject != "" || c.Config.Durable != "" {
						t.Errorf("consumer %s on %s made (deliver subject %q, durable %q)", c.Name, st, c.Config.DeliverSubject, c.Config.Durable)
					}
				}
			}
			names := daemonJS.StreamNames(ctx)
			for n := range names.Name() {
				if _, ok := attackStreams[n]; !ok {
					t.Errorf("a stream %s was made", n)
				}
			}
		})
	}
}

// forbidden names what of the daemon's data m holds that attacker's role
// may not read ("" when none).
func forbidden(attacker User, m *nats.Msg) string {
	data := string(m.Data) + fmt.Sprint(m.Header)
	marks := map[string]bool{markLive: true, markAlert: true, markBoardOne: true, markBoardFive: true}
	switch attacker.Role {
	case RoleArbiter:
		return ""
	case RoleOrganiser:
		marks = map[string]bool{markAlert: true}
	case RoleRelay:
		delete(marks, map[int]string{1: markBoardOne, 5: markBoardFive}[attacker.Board])
	}
	for mark := range marks {
		if strings.Contains(data, mark) {
			return mark
		}
	}
	return ""
}

// TestRelayRole: a relay device hears its own board's announcements (every
// round) and asks its own board's talking clock; another board's are
// neither delivered nor answered.
func TestRelayRole(t *testing.T) {
	srv := startServer(t, t.TempDir(), attackUsers...)
	t.Cleanup(srv.Shutdown)
	p := newDaemonPublisher(t, srv, 0)
	asked := make(chan Request, 4)
	p.Responder().Handle("dgt.api.relay.*.*.*.time", Staff, func(_ context.Context, r Request) Reply {
		asked <- r
		return StatusReply(nil)
	})
	runPublisher(t, p)
	waitFor(t, "publisher connected", 5*time.Second, func() bool { return p.Health() == nil })
	relay := connectAs(t, srv, "relay5", "relay5-pw", nats.CustomInboxPrefix(RelayInboxPrefix))
	heard, err := relay.nc.SubscribeSync("dgt.relay.*.*.5.announce")
	if err != nil {
		t.Fatal(err)
	}
	relay.nc.Flush()
	for _, g := range []game.ID{{Event: "open2026", Round: 1, Board: 1}, {Event: "open2026", Round: 2, Board: 5}} {
		if err := p.PublishAnnouncement(game.Announcement{Game: g, Ply: 1, Lang: "en", Text: g.String(), Kind: game.AnnounceMove}); err != nil {
			t.Fatal(err)
		}
	}
	m, err := heard.NextMsg(5 * time.Second)
	if err != nil || m.Subject != "dgt.relay.open2026.2.5.announce" {
		t.Fatalf("relay 5 heard %v, %v; want round 2 board 5", m, err)
	}
	if m, err := heard.NextMsg(300 * time.Millisecond); err == nil {
		t.Errorf("relay 5 heard %s", m.Subject)
	}
	if _, err := relay.nc.Request("dgt.api.relay.open2026.2.5.time", nil, 5*time.Second); err != nil {
		t.Errorf("relay 5 asking its board's clock: %v", err)
	}
	if r := <-asked; r.Game != (game.ID{Event: "open2026", Round: 2, Board: 5}) {
		t.Errorf("talking clock asked for %v", r.Game)
	}
	relay.nc.Request("dgt.api.relay.open2026.2.1.time", nil, 300*time.Millisecond) //nolint:errcheck // denied
	if !relay.violation("dgt.api.relay.open2026.2.1.time", 2*time.Second) {
		t.Error("relay 5 asked board 1's clock without a permission violation")
	}
	for _, subj := range []string{"dgt.relay.>", "dgt.relay.*.*.1.announce", "dgt.game.>", "dgt.public.>"} {
		relay.nc.SubscribeSync(subj) //nolint:errcheck // denied asynchronously
		relay.nc.Flush()
		if !relay.violation(subj, 2*time.Second) {
			t.Errorf("relay 5 subscribed to %s without a permission violation", subj)
		}
	}
	select {
	case r := <-asked:
		t.Errorf("the talking clock was asked for %v by relay 5", r.Game)
	default:
	}
	if _, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: t.TempDir(), Users: []User{{Name: "r", Password: "x", Role: RoleRelay}}}); err == nil {
		t.Error("a relay user without a board was accepted")
	}
}
