package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func (p *Publisher) setErr(err error) {
	s := err.Error()
	p.lastErr.Store(&s)
}

// Run sends the outbox to NATS until ctx is done and returns nil. A
// failing disk does not stop it: outbox reads, acks and syncs that fail
// are retried with back-off (Health says why meanwhile). It must be called
// at most once.
func (p *Publisher) Run(ctx context.Context) error {
	if !p.running.CompareAndSwap(false, true) {
		return errors.New("broadcast: Publisher.Run called twice")
	}
	defer p.disconnect()
	defer p.resp.stop() // before the connections close: replies in progress go out
	l := &runLoop{p: p, ctx: ctx, applied: p.applied, needSetup: true, timer: time.NewTimer(time.Hour)}
	defer l.timer.Stop()
	for ctx.Err() == nil {
		if !l.pass() {
			break
		}
	}
	return nil
}

// runLoop is Run's state between its passes.
type runLoop struct {
	p         *Publisher
	ctx       context.Context
	applied   uint64        // DueStates cursor
	backoff   time.Duration // the last retry delay; 0 after a success
	loaded    bool          // the streams' state was loaded once
	needSetup bool          // streams and consumers to (re)create
	timer     *time.Timer
}

// pass sends one batch of due records (connecting and setting up first
// when needed) or waits for the next; false when ctx ended.
func (l *runLoop) pass() bool {
	p := l.p
	var err error
	l.applied, err = p.ob.DueStates(p.o.Now(), l.applied, p.applyPublic)
	if err != nil {
		return l.diskFail(err)
	}
	if p.closed() {
		p.disconnect()
		if err := p.connect(l.ctx); err != nil {
			return l.fail(err)
		}
		l.needSetup = true
	}
	if l.needSetup {
		if err := p.setup(l.ctx, !l.loaded); err != nil {
			return l.fail(err)
		}
		l.loaded, l.needSetup = true, false
		p.connected.Store(true)
	}
	recs, wake, err := p.ob.NextBatch(p.o.Now(), p.o.MaxInFlight)
	if err != nil {
		return l.diskFail(err)
	}
	if len(recs) == 0 {
		if err := p.ob.SyncDirty(); err != nil {
			return l.diskFail(err)
		}
		d := time.Hour
		if !wake.IsZero() {
			d = max(wake.Sub(p.o.Now()), time.Millisecond)
		}
		return l.wait(d)
	}
	n, err := p.sendBatch(l.ctx, recs)
	if err != nil && n < len(recs) && permanent(err) {
		// recs[n] will never be taken: set it aside and go on.
		if serr := p.setAside(recs[n], err); serr != nil {
			err = serr
		} else {
			n, err = n+1, nil
		}
	}
	if n > 0 {
		l.acked(recs[:n])
	}
	if serr := p.ob.SyncDirty(); serr != nil {
		p.log.Error("outbox sync failed", "err", serr)
	}
	if err != nil {
		if l.ctx.Err() != nil {
			return false
		}
		l.needSetup = true
		return l.fail(err)
	}
	l.backoff = 0
	p.connected.Store(true)
	return true
}

// acked takes the records the streams acknowledged out of the outbox.
func (l *runLoop) acked(recs []Record) {
	p := l.p
	seqs := make([]uint64, len(recs))
	for i, r := range recs {
		seqs[i] = r.Seq
		if r.Public && r.Kind == kindState && r.Seq > l.applied {
			// fell due after this pass's scan: apply before it leaves the outbox
			p.applyPublic(r)
		}
		if r.Public {
			l.applied = max(l.applied, r.Seq)
		}
	}
	if aerr := p.ob.Ack(seqs...); aerr != nil {
		// Not acked: sent again later, dropped by the streams as a
		// repeat.
		p.log.Error("outbox ack failed", "err", aerr)
	}
	p.sent(recs, p.o.Now())
}

// wait waits d, or until the outbox has news; false when ctx ended.
func (l *runLoop) wait(d time.Duration) bool {
	if !l.timer.Stop() {
		select {
		case <-l.timer.C:
		default:
		}
	}
	l.timer.Reset(d)
	select {
	case <-l.ctx.Done():
		return false
	case <-l.timer.C:
	case <-l.p.ob.Notify():
	}
	return true
}

// backOff waits the next retry delay (doubling from MinBackoff to
// MaxBackoff); false when ctx ended meanwhile.
func (l *runLoop) backOff() bool {
	if l.backoff == 0 {
		l.backoff = l.p.o.MinBackoff
	} else {
		l.backoff = min(2*l.backoff, l.p.o.MaxBackoff)
	}
	t := time.NewTimer(l.backoff)
	defer t.Stop()
	select {
	case <-l.ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// fail: publishing failed (the connection, the streams): the state is
// synced, the error kept for health, and the pass tried again after a
// back-off.
func (l *runLoop) fail(err error) bool {
	p := l.p
	if serr := p.ob.SyncDirty(); serr != nil {
		p.log.Error("outbox sync failed", "err", serr)
	}
	p.setErr(err)
	p.connected.Store(false)
	p.log.Warn("nats publish failed; retrying", "err", err)
	return l.backOff()
}

// diskFail: an outbox read or sync failed. The records stay journalled;
// the pass is tried again after a back-off, and the outbox's health says
// why meanwhile.
func (l *runLoop) diskFail(err error) bool {
	l.p.log.Error("outbox failed; retrying", "err", err)
	return l.backOff()
}

func (p *Publisher) applyPublic(r Record) {
	var st GameState
	if err := json.Unmarshal(r.Data, &st); err != nil {
		p.log.Error("outbox: bad public state", "seq", r.Seq, "err", err)
		return
	}
	p.public.Put(st)
}

func (p *Publisher) conn() *nats.Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nc
}

// closed reports whether a connection is missing or closed for good.
func (p *Publisher) closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nc == nil || p.nc.IsClosed() || p.o.ConnectPublic != nil && (p.pnc == nil || p.pnc.IsClosed())
}

func (p *Publisher) connect(ctx context.Context) error {
	nc, err := p.o.Connect(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncTimeout(p.o.PublishTimeout), jetstream.WithPublishAsyncMaxPending(4*p.o.MaxInFlight))
	if err != nil {
		nc.Close()
		return fmt.Errorf("jetstream: %w", err)
	}
	var pnc *nats.Conn
	if p.o.ConnectPublic != nil {
		if pnc, err = p.o.ConnectPublic(ctx); err != nil {
			nc.Close()
			return fmt.Errorf("connect (public account): %w", err)
		}
	}
	p.mu.Lock()
	p.nc, p.js, p.pnc = nc, js, pnc
	p.mu.Unlock()
	return nil
}

func (p *Publisher) disconnect() {
	p.connected.Store(false)
	p.mu.Lock()
	nc, pnc := p.nc, p.pnc
	p.nc, p.js, p.pnc = nil, nil, nil
	p.mu.Unlock()
	for _, c := range []*nats.Conn{nc, pnc} {
		if c != nil {
			p.resp.detach(c)
			c.Close()
		}
	}
}

// setup makes sure the streams and the KV bucket exist, subscribes the
// responder's routes on the connections and, the first time, loads the
// stores.
func (p *Publisher) setup(ctx context.Context, load bool) error {
	p.mu.Lock()
	nc, js, pnc := p.nc, p.js, p.pnc
	p.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, 2*p.o.PublishTimeout)
	defer cancel()
	kv, err := ensureStreams(ctx, js, p.subj, p.o.Streams)
	if err != nil {
		return err
	}
	if err := p.resp.attach(nc, true); err != nil {
		return fmt.Errorf("subscribe requests: %w", err)
	}
	if pnc != nil {
		if err := p.resp.attach(pnc, false); err != nil {
			return fmt.Errorf("subscribe public requests: %w", err)
		}
	}
	if p.o.Follow {
		if err := p.follow(nc); err != nil {
			return err
		}
	}
	if load || p.o.Follow {
		// Following, each new connection loads again what it may have
		// missed (newer states win).
		if err := p.loadStores(ctx, js, kv); err != nil {
			return err
		}
	}
	return nil
}

// follow subscribes nc to every KV put and public state (Options.Follow);
// the subscriptions end with the connection.
func (p *Publisher) follow(nc *nats.Conn) error {
	take := func(st *Store) nats.MsgHandler {
		return func(m *nats.Msg) {
			var gs GameState
			if err := json.Unmarshal(m.Data, &gs); err != nil || gs.Game.Validate() != nil {
				return
			}
			st.PutNewer(gs)
		}
	}
	if _, err := nc.Subscribe("$KV."+p.subj.bucket()+".>", take(p.live)); err != nil {
		return fmt.Errorf("follow the KV bucket: %w", err)
	}
	if _, err := nc.Subscribe(p.subj.Prefix+".public.*.*.*.state", take(p.public)); err != nil {
		return fmt.Errorf("follow the public states: %w", err)
	}
	return nc.Flush()
}

func toMsg(r Record) *nats.Msg {
	m := nats.NewMsg(r.Subject)
	m.Data = r.Data
	m.Header.Set(jetstream.MsgIDHeader, r.MsgID)
	return m
}

// sendBatch publishes recs pipelined (JetStream publishes asynchronously,
// core ones on the same connection) and waits for the acknowledgements in
// order. It returns how many leading records are delivered and, if not all,
// why. Records after a failed one may have been stored too: they are sent
// again and the stream drops them by message id.
func (p *Publisher) sendBatch(ctx context.Context, recs []Record) (int, error) {
	p.mu.Lock()
	nc, js, pnc := p.nc, p.js, p.pnc
	p.mu.Unlock()
	if nc == nil {
		return 0, errors.New("not connected")
	}
	ctx, cancel := context.WithTimeout(ctx, p.o.PublishTimeout)
	defer cancel()
	futs := make([]jetstream.PubAckFuture, 0, len(recs))
	firstCore := -1
	var submitErr error
	for i, r := range recs {
		m := toMsg(r)
		if r.Target == targetCore {
			if submitErr = nc.PublishMsg(m); submitErr != nil {
				break
			}
			if firstCore < 0 {
				firstCore = i
			}
			futs = append(futs, nil)
			continue
		}
		f, err := js.PublishMsgAsync(m, jetstream.WithRetryAttempts(0)) // retries are ours, in order
		if err != nil {
			submitErr = err
			break
		}
		futs = append(futs, f)
	}
	if firstCore >= 0 {
		if err := nc.FlushWithContext(ctx); err != nil {
			return 0, err // conservative: resend from the start (ids dedup the rest)
		}
	}
	copied := false
	for i, f := range futs {
		if f != nil {
			select {
			case <-f.Ok():
			case err := <-f.Err():
				return i, err
			case <-ctx.Done():
				return i, fmt.Errorf("waiting for ack: %w", ctx.Err())
			}
		}
		if pnc != nil && recs[i].Public {
			// The public account's copy, once the stream has it: public
			// users never see what a restart could take back.
			if err := pnc.PublishMsg(toMsg(recs[i])); err != nil {
				return i, fmt.Errorf("public account: %w", err)
			}
			copied = true
		}
	}
	if copied {
		if err := pnc.FlushWithContext(ctx); err != nil {
			return 0, fmt.Errorf("public account: %w", err)
		}
	}
	if submitErr != nil {
		return len(futs), submitErr
	}
	return len(futs), nil
}
