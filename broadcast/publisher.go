package broadcast

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/metrics"
	"github.com/dgtbridge/dgtbridge/rules/game"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Options configures a [Publisher]. Prefix, Dir and Connect are required.
type Options struct {
	// Prefix is nats.prefix, the first subject token.
	Prefix string
	// Dir holds the outbox journal (e.g. <data_dir>/outbox).
	Dir string
	// Connect opens a NATS connection. Run calls it again whenever the
	// connection it has is closed (embedded: [Server.Dialer]; external: a
	// nats.Connect with the URL and creds file, which reconnects by itself).
	Connect func(ctx context.Context) (*nats.Conn, error)
	// Follow keeps the PGN stores up to date with the states other
	// daemons publish into the same NATS (several halls on one cluster):
	// every KV put and public state is read as it goes by, so any daemon
	// answers the PGN API and serves /pgn/ for every game. Off with the
	// embedded server, where no other daemon publishes.
	Follow bool
	// ConnectPublic, when set, opens the connection to the account public
	// users are in ([Server.PublicDialer]): every public copy is also
	// published there (core NATS, after the stream has it) and the public
	// PGN request is answered there. Nil: public users read the subjects
	// of the Connect connection.
	ConnectPublic func(ctx context.Context) (*nats.Conn, error)
	// PublicDelay is event.public_delay: how much later each organiser message
	// is republished on <p>.public.> (0: at once, still after the live one).
	PublicDelay time.Duration
	// Streams shapes the streams and KV bucket.
	Streams StreamOptions
	// Outbox tunes the journal.
	Outbox OutboxOptions
	// RenderPGN builds the PGN of a state that has none (a game in
	// progress) when it is asked for, once per change of the game (the
	// wiring passes gamerecord.StatePGN, the rules/pgn renderer); nil:
	// [FallbackPGN].
	RenderPGN func(game.GameState) string
	// Now is the clock (default time.Now). Due times are computed with it;
	// waits use real timers.
	Now func() time.Time
	// Logger (nil: discarded).
	Logger *slog.Logger
	// PublishTimeout bounds one acknowledged publish (default 5 s).
	PublishTimeout time.Duration
	// MaxInFlight is how many messages are sent before waiting for their
	// acknowledgements (default 128). 1 sends strictly one at a time.
	MaxInFlight int
	// MinBackoff and MaxBackoff bound the retry delay while NATS fails
	// (defaults 50 ms and 5 s, doubling).
	MinBackoff, MaxBackoff time.Duration
}

// Publisher journals messages and sends them to NATS (see the package doc).
// Publish and the Publish* helpers are safe for concurrent use and never wait
// for NATS. Run must be called once; Close after Run has returned.
type Publisher struct {
	o      Options
	subj   Subjects
	ob     *Outbox
	live   *Store
	public *Store
	log    *slog.Logger

	connected atomic.Bool
	lastErr   atomic.Pointer[string]
	rejected  atomic.Int64
	// journalled counts the messages journalled, by kind (public copies
	// included).
	journalled [len(kindNames)]atomic.Int64
	sendLag    *metrics.Histogram
	lastLag    atomic.Int64 // ns: how late the last message sent was (after its due time)
	lastLagAt  atomic.Int64 // unix ns when it was sent
	running    atomic.Bool
	applied    uint64 // DueStates cursor; Run's after construction
	// started is when the publisher was made (unix ms): a record due
	// before may have been sent by the last run (Run asks its stream).
	started int64

	resp *Responder

	mu  sync.Mutex // guards nc, js, pnc
	nc  *nats.Conn
	js  jetstream.JetStream
	pnc *nats.Conn // the public account's connection, or nil
}

// NewPublisher opens the outbox in o.Dir (replaying what a previous run left
// unsent) and returns a publisher ready to accept messages.
func NewPublisher(o Options) (*Publisher, error) {
	s, err := NewSubjects(o.Prefix)
	if err != nil {
		return nil, err
	}
	if o.Dir == "" {
		return nil, errors.New("broadcast: Options.Dir is required")
	}
	if o.Connect == nil {
		return nil, errors.New("broadcast: Options.Connect is required")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.PublishTimeout <= 0 {
		o.PublishTimeout = 5 * time.Second
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = 128
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 50 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(5*time.Second, o.MinBackoff)
	}
	log := o.Logger
	if log == nil {
		log = discardLogger()
	}
	ob, err := OpenOutbox(filepath.Clean(o.Dir), o.Outbox)
	if err != nil {
		return nil, err
	}
	for _, d := range ob.Damage() {
		log.Error("outbox damaged", "damage", d.String())
	}
	p := &Publisher{o: o, subj: s, ob: ob, live: NewStore(o.RenderPGN), public: NewStore(o.RenderPGN), log: log,
		resp:    newResponder(log.With("part", "responder")),
		sendLag: metrics.NewHistogram("dgtbridge_send_lag_seconds", "From a message's due time (journalled, or its public delay over) to its acknowledgement by NATS.")}
	p.started = o.Now().UnixMilli()
	// With the embedded server's accounts, a staff request carries the
	// requester the server vouches for; an arbiter command is signed by
	// it (its "by"), whatever the body said.
	p.resp.trust = o.ConnectPublic != nil
	p.resp.stampBy = []string{s.Prefix + ".arbiter.*.*.*.cmd"}
	p.handlePGN()
	// Public states that fell due while the daemon was down are visible at
	// once; the rest are applied by Run when they fall due.
	if p.applied, err = ob.DueStates(o.Now(), 0, p.applyPublic); err != nil {
		ob.Close()
		return nil, err
	}
	return p, nil
}

// Responder is the daemon's request/reply server, served on the
// publisher's connections: add routes to it before Run.
func (p *Publisher) Responder() *Responder { return p.resp }

// Public is the store of delayed game states (public PGN).
func (p *Publisher) Public() *Store { return p.public }

// Pending returns how many journalled messages are not yet acknowledged.
func (p *Publisher) Pending() int { return p.ob.Pending() }

// Health returns nil while Run holds a working NATS connection and every
// outbox write of the last minute succeeded, otherwise the reason.
func (p *Publisher) Health() error {
	if err := p.ob.Health(); err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	if nc := p.conn(); nc != nil && !nc.IsConnected() {
		return fmt.Errorf("nats: %s", nc.Status())
	}
	if p.connected.Load() {
		return nil
	}
	if e := p.lastErr.Load(); e != nil {
		return fmt.Errorf("nats: not connected: %s", *e)
	}
	return errors.New("nats: not connected")
}

// PublicHealth is [Publisher.Health] in words anyone may read (the
// public /healthz): which part fails, without the error's text.
func (p *Publisher) PublicHealth() error {
	if p.ob.Health() != nil {
		return errors.New("outbox: writes failing")
	}
	if p.Health() != nil {
		return errors.New("nats: not connected")
	}
	return nil
}

// publish journals e and, for organiser kinds, its delayed public copy
// ([Subjects.publicCopy]); it returns once they are in the outbox.
func (p *Publisher) publish(e envelope) error {
	now := p.o.Now()
	envs := []envelope{e}
	due := []time.Time{now}
	if pub, ok := p.subj.publicCopy(e); ok {
		envs = append(envs, pub)
		due = append(due, now.Add(p.o.PublicDelay))
	}
	if err := p.ob.Append(envs, due); err != nil {
		return err
	}
	for _, e := range envs {
		if int(e.Kind) < len(p.journalled) {
			p.journalled[e.Kind].Add(1)
		}
	}
	return nil
}

func (p *Publisher) publishBuilt(e envelope, err error) error {
	if err != nil {
		return err
	}
	return p.publish(e)
}

// PublishMove journals a MoveEvent (and its public copy).
func (p *Publisher) PublishMove(ev game.MoveEvent) error {
	return p.publishBuilt(p.subj.moveEnvelope(ev))
}

// PublishCorrection journals a Correction (and its public copy).
func (p *Publisher) PublishCorrection(c game.Correction) error {
	return p.publishBuilt(p.subj.correctionEnvelope(c))
}

// PublishClock journals a ClockEvent (and its public copy).
func (p *Publisher) PublishClock(c game.ClockEvent) error {
	return p.publishBuilt(p.subj.clockEnvelope(c))
}

// PublishResult journals a Result (and its public copy).
func (p *Publisher) PublishResult(r game.Result) error {
	return p.publishBuilt(p.subj.resultEnvelope(r))
}

// PublishState records st in the live store, and journals the KV put and
// the delayed public state. A state without PGN (a game in progress) is
// published so: its PGN is rendered on request only (Options.RenderPGN).
func (p *Publisher) PublishState(st game.GameState) error {
	e, err := p.subj.stateEnvelope(st)
	if err != nil {
		return err
	}
	if err := p.publish(e); err != nil {
		return err
	}
	p.live.Put(st)
	return nil
}

// PublishAlert journals an arbiter alert (never copied to public).
func (p *Publisher) PublishAlert(a game.Alert) error {
	return p.publishBuilt(p.subj.alertEnvelope(a))
}

// PublishAnnouncement journals a blind-player announcement.
func (p *Publisher) PublishAnnouncement(a game.Announcement) error {
	return p.publishBuilt(p.subj.announceEnvelope(a))
}

// PublishBoardStatus journals a board status.
func (p *Publisher) PublishBoardStatus(b game.BoardStatus) error {
	return p.publishBuilt(p.subj.statusEnvelope(b))
}

// Sync makes every message journalled so far durable (the outbox's
// fsync; nothing when the publisher's own pass already did it). The hall
// calls it before it records that a game's messages were journalled.
func (p *Publisher) Sync() error { return p.ob.SyncDirty() }

// LostMessages reports journalled messages that were never sent and are
// gone (a damaged outbox set aside at start, a record that no longer
// reads back): how many, and where. The hall then hands every game's
// messages again (the streams drop the repeats by message id).
func (p *Publisher) LostMessages() (int, string) {
	n := 0
	var where []string
	for _, d := range p.ob.Damage() {
		n += d.Lost
		where = append(where, d.String())
	}
	return n, strings.Join(where, "; ")
}

// Close closes the outbox; unsent messages stay journalled for the next run.
// Call it after Run has returned.
func (p *Publisher) Close() error { return p.ob.Close() }

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// sent notes the records acknowledged now (their lag after their due time).
func (p *Publisher) sent(recs []OutboxEntry, now time.Time) {
	for _, r := range recs {
		p.sendLag.Observe(now.Sub(r.DueTime()))
	}
	if n := len(recs); n > 0 {
		p.lastLag.Store(int64(now.Sub(recs[n-1].DueTime())))
		p.lastLagAt.Store(now.UnixNano())
	}
}

// Backlog says when the messages go out late (lines "behind: …", nil when
// the last message sent within the last minute was less than 2 s late).
func (p *Publisher) Backlog() []string {
	lag := time.Duration(p.lastLag.Load())
	at := time.Unix(0, p.lastLagAt.Load())
	if lag <= 2*time.Second || time.Since(at) > time.Minute {
		return nil
	}
	return []string{fmt.Sprintf("behind: NATS: messages sent %.1f s after they were due, %d waiting", lag.Seconds(), p.Pending())}
}

// WriteMetrics writes the publisher's metrics in the Prometheus text format.
func (p *Publisher) WriteMetrics(w io.Writer) {
	up := 0.0
	if p.Health() == nil {
		up = 1
	}
	metrics.Gauge(w, "dgtbridge_nats_connected", "1 while the publisher holds a working NATS connection.", up)
	metrics.Gauge(w, "dgtbridge_outbox_pending", "Messages journalled and not yet acknowledged by NATS (the delayed public copies included).", float64(p.Pending()))
	metrics.Header(w, "dgtbridge_messages_journalled_total", "Messages journalled for NATS, by kind (public copies included).", "counter")
	for k := kindMove; int(k) < len(kindNames); k++ {
		fmt.Fprintf(w, "dgtbridge_messages_journalled_total{kind=%q} %d\n", k.String(), p.journalled[k].Load())
	}
	metrics.Counter(w, "dgtbridge_messages_rejected_total", "Messages NATS refused for good, set aside in rejected.jsonl.", float64(p.Rejected()))
	metrics.Counter(w, "dgtbridge_requests_refused_total", "Requests refused for their reply subject (not an inbox they may be answered on).", float64(p.resp.Refused()))
	p.sendLag.Write(w)
}
