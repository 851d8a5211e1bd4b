// Package watch is the rehearsal's runtime: it observes a running daemon
// the way its clients do and feeds a [rehearse.Checklist].
//
// It reads the status bucket (each board's report and clock, the Lichess
// pushes), subscribes to the live feed's and the public copy's moves and
// to the blind players' announcements, asks the embedded NATS server for
// its connections (who signed in, whose password was refused, what each
// relay device received), and asks Lichess about each mapped broadcast
// round. It writes the checklist to the status bucket
// ([status.RehearsalKey]) for
// dgtbridge status. One goroutine, [Watcher.Run], owns the checklist.
package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rehearse"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/status"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Options configure a [Watcher]. Checklist, Conn and Subjects are
// required.
type Options struct {
	Checklist *rehearse.Checklist
	Subjects  broadcast.Subjects
	// Conn is a connection of the daemon's account (the live feed, the
	// relay subjects, the status bucket); Public one that reads the public
	// copy (the daemon's public account; nil: Conn).
	Conn, Public *nats.Conn
	// Server is the embedded NATS server, whose connections say who signed
	// in; nil with an external server (no sign-in is seen).
	Server *server.Server
	// LichessURL, Token and Rounds: the Lichess broadcast rounds to ask
	// about (ids), with the token; none: Lichess is not asked.
	LichessURL, Token string
	Rounds            []string
	// Client sends the Lichess requests (nil: a client of its own).
	Client *http.Client
	// Poll is how often the status bucket and the server's connections
	// are read (default a second).
	Poll time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// OnChange, when set, is called (on Run's goroutine) with the report
	// each time a line changes.
	OnChange func(rehearse.Report)
}

// Watcher feeds a checklist from a running daemon.
type Watcher struct {
	o      Options
	events chan rehearse.Event
}

// New checks the options and returns a watcher.
func New(o Options) (*Watcher, error) {
	if o.Checklist == nil || o.Conn == nil || o.Subjects.Prefix == "" {
		return nil, errors.New("watch: Checklist, Conn and Subjects are required")
	}
	if o.Public == nil {
		o.Public = o.Conn
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Watcher{o: o, events: make(chan rehearse.Event, 1024)}, nil
}

// Run observes until the rehearsal is over (every line passed, or its
// end) or ctx is done, and returns the last report. An error is a
// subscription that could not be made.
func (w *Watcher) Run(ctx context.Context) (rehearse.Report, error) {
	c := w.o.Checklist
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := w.o.Subjects.Prefix
	var subs []*nats.Subscription
	defer func() {
		for _, s := range subs {
			_ = s.Unsubscribe()
		}
	}()
	for _, s := range []struct {
		nc   *nats.Conn
		subj string
		ev   func(game.ID) rehearse.Event
	}{
		{w.o.Conn, p + ".game.*.*.*.move", func(g game.ID) rehearse.Event { return rehearse.MoveSeen{Game: g} }},
		{w.o.Public, p + ".public.*.*.*.move", func(g game.ID) rehearse.Event { return rehearse.MoveSeen{Game: g, Public: true} }},
		{w.o.Conn, p + ".relay.*.*.*.announce", func(g game.ID) rehearse.Event { return rehearse.AnnounceSeen{Game: g} }},
	} {
		sub, err := s.nc.Subscribe(s.subj, func(m *nats.Msg) {
			if g, ok := gameOf(m.Subject); ok {
				w.send(ctx, s.ev(g))
			}
		})
		if err != nil {
			return c.Report(w.o.Now()), fmt.Errorf("watch: subscribing to %s: %w", s.subj, err)
		}
		subs = append(subs, sub)
	}
	for _, nc := range []*nats.Conn{w.o.Conn, w.o.Public} {
		_ = nc.FlushTimeout(5 * time.Second)
	}
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }() // the Lichess questions end with Run
	if len(w.o.Rounds) > 0 {
		wg.Go(func() { w.askLichess(ctx) })
	}
	tick := time.NewTicker(w.o.Poll)
	defer tick.Stop()
	var kv jetstream.KeyValue
	var written time.Time
	evs := w.poll(ctx)
	for {
		for more := true; more; {
			select {
			case ev := <-w.events:
				evs = append(evs, ev)
			default:
				more = false
			}
		}
		now := w.o.Now()
		changed := c.Expire(now)
		for _, ev := range evs {
			changed = c.Apply(now, ev) || changed
		}
		evs = evs[:0]
		r := c.Report(now)
		if changed && w.o.OnChange != nil {
			w.o.OnChange(r)
		}
		if changed || now.Sub(written) >= 5*w.o.Poll || r.Ended {
			kv = w.write(ctx, kv, r)
			written = now
		}
		if r.Ended {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return r, nil
		case ev := <-w.events:
			evs = append(evs, ev)
		case <-tick.C:
			evs = w.poll(ctx)
		}
	}
}

// send hands an event to Run's goroutine.
func (w *Watcher) send(ctx context.Context, ev rehearse.Event) {
	select {
	case w.events <- ev:
	case <-ctx.Done():
	}
}

// poll reads the status bucket and the server's connections.
func (w *Watcher) poll(ctx context.Context) []rehearse.Event {
	var out []rehearse.Event
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if d, boards, err := status.Read(rctx, w.o.Conn, w.o.Subjects); err == nil {
		for _, b := range boards {
			out = append(out, boardSeen(b))
		}
		for _, l := range d.Lichess {
			out = append(out, pushSeen(l))
		}
	}
	if w.o.Server != nil {
		cz, err := w.o.Server.Connz(&server.ConnzOptions{State: server.ConnAll, Username: true, SubscriptionsDetail: true, Limit: 1 << 20})
		if err == nil {
			out = append(out, Connections(cz.Conns, w.o.Subjects.Prefix)...)
		}
	}
	return out
}

// write puts the report into the status bucket (opened on first use; the
// daemon's status keeper makes it).
func (w *Watcher) write(ctx context.Context, kv jetstream.KeyValue, r rehearse.Report) jetstream.KeyValue {
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if kv == nil {
		js, err := jetstream.New(w.o.Conn)
		if err != nil {
			return nil
		}
		if kv, err = js.KeyValue(wctx, w.o.Subjects.StatusBucket()); err != nil {
			return nil
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return kv
	}
	_, _ = kv.Put(wctx, status.RehearsalKey, b)
	return kv
}

// boardSeen turns a board's report into the checklist's event.
func boardSeen(b broadcast.BoardReport) rehearse.BoardSeen {
	ev := rehearse.BoardSeen{Board: b.BoardID, Connected: b.Connected, Error: b.Error}
	if b.Clock != nil {
		ev.Clock = &rehearse.ClockReading{White: time.Duration(b.Clock.WhiteMS) * time.Millisecond,
			Black: time.Duration(b.Clock.BlackMS) * time.Millisecond, Running: b.Clock.Running}
	}
	return ev
}

// pushSeen is a round's push for the checklist: a push Lichess took with
// games it refused counts as refused, naming the first.
func pushSeen(l broadcast.PushReport) rehearse.PushSeen {
	ev := rehearse.PushSeen{ID: l.ID, Pushes: l.Pushes, Err: l.Error}
	if ev.Err == "" && len(l.GameErrors) > 0 {
		e := l.GameErrors[0]
		ev.Err = fmt.Sprintf("%d games refused, the first board %s (%s – %s): %s", len(l.GameErrors), e.Round, e.White, e.Black, e.Error)
	}
	return ev
}

// gameOf returns the game of a subject <p>.<root>.<event>.<round>.<board>.<leaf>.
func gameOf(subject string) (game.ID, bool) {
	f := strings.Split(subject, ".")
	if len(f) != 6 {
		return game.ID{}, false
	}
	g, err := game.ParseID(strings.Join(f[2:5], "."))
	return g, err == nil
}

// Connections returns what the server's connections say: a sign-in (or a
// refused one) per connection of a user with a name, and per user the
// messages its connections that listen under <prefix>.relay. received (a
// relay user reads nothing else but its talking clock's answers; the
// server counts what it delivers per connection, not per subscription
// imported from another account).
func Connections(conns []*server.ConnInfo, prefix string) []rehearse.Event {
	var out []rehearse.Event
	heard := map[string]uint64{}
	var order []string
	for _, ci := range conns {
		u := ci.AuthorizedUser
		if u == "" || ci.Reason == server.AuthenticationTimeout.String() {
			continue
		}
		ok := ci.Reason != server.AuthenticationViolation.String()
		out = append(out, rehearse.SignInSeen{User: u, OK: ok, From: ci.IP})
		if !ok {
			continue
		}
		if _, seen := heard[u]; !seen {
			order = append(order, u)
			heard[u] = 0
		}
		for _, s := range ci.SubsDetail {
			if strings.HasPrefix(s.Subject, prefix+".relay.") {
				heard[u] += uint64(max(ci.OutMsgs, 0))
				break
			}
		}
	}
	for _, u := range order {
		if heard[u] > 0 {
			out = append(out, rehearse.RelayHeard{User: u, Msgs: heard[u]})
		}
	}
	return out
}

// askLichess asks Lichess about each round until each has answered
// (a transport failure is asked again 10 s later).
func (w *Watcher) askLichess(ctx context.Context) {
	left := w.o.Rounds
	for len(left) > 0 {
		var again []string
		for _, id := range left {
			ev, retry := w.readRound(ctx, id)
			w.send(ctx, ev)
			if retry {
				again = append(again, id)
			}
		}
		left = again
		if len(left) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(10 * time.Second):
		}
	}
}

// readRound asks Lichess for a broadcast round with the token
// (GET /api/broadcast/-/-/<id>; the slugs are not read): the round exists
// and study.writeable says whether the token's account may push to it.
func (w *Watcher) readRound(ctx context.Context, id string) (rehearse.RoundRead, bool) {
	url := strings.TrimRight(w.o.LichessURL, "/") + "/api/broadcast/-/-/" + id
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return rehearse.RoundRead{ID: id, Err: err.Error()}, false
	}
	req.Header.Set("Authorization", "Bearer "+w.o.Token)
	req.Header.Set("Accept", "application/json")
	resp, err := w.o.Client.Do(req)
	if err != nil {
		return rehearse.RoundRead{ID: id, Err: "no answer from Lichess: " + err.Error()}, ctx.Err() == nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return rehearse.RoundRead{ID: id, Err: fmt.Sprintf("%s: %s", resp.Status, answer(body))}, false
	}
	var r struct {
		Study struct {
			Writeable bool `json:"writeable"`
		} `json:"study"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return rehearse.RoundRead{ID: id, Err: "Lichess's answer is not a broadcast round: " + err.Error()}, false
	}
	return rehearse.RoundRead{ID: id, Writeable: r.Study.Writeable}, false
}

// answer shortens an error body: Lichess's {"error":…} or the text.
func answer(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return e.Error
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
