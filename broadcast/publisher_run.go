package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
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
	l := &runLoop{p: p, ctx: ctx, applied: p.applied, needSetup: true, timer: time.NewTimer(time.Hour),
		known: map[uint64]bool{}, unsure: map[uint64]bool{}, asked: map[uint64]bool{}}
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
	// known: records their streams hold, not yet acked in the outbox
	// (stored after an earlier record failed, or found by ask); unsure:
	// sent without an answer; asked: records of an earlier run already
	// asked about. By sequence number.
	known, unsure, asked map[uint64]bool
	cannotAsk            bool // the streams said they cannot be asked (logged once)
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
	if err := l.ready(); err != nil {
		return l.fail(err)
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
	if err := l.ask(recs); err != nil {
		if l.ctx.Err() != nil {
			return false
		}
		l.needSetup = true
		return l.fail(err)
	}
	n, err := l.settle(recs, p.sendBatch(l.ctx, recs, l.known))
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

// ready connects the publisher when it is not, and makes its streams
// when a connection is new.
func (l *runLoop) ready() error {
	p := l.p
	if p.closed() {
		p.disconnect()
		if err := p.connect(l.ctx); err != nil {
			return err
		}
		l.needSetup = true
	}
	if l.needSetup {
		if err := p.setup(l.ctx, !l.loaded); err != nil {
			return err
		}
		l.loaded, l.needSetup = true, false
		p.connected.Store(true)
	}
	return nil
}

// settle reads a batch's results: the leading records done (stored, or
// refused for good and set aside) are the first n, which leave the
// outbox; of the others, the stored ones are not sent again and the
// unsure ones are asked about first. err is what stopped the batch.
func (l *runLoop) settle(recs []OutboxEntry, res []sent) (n int, err error) {
	for ; n < len(recs); n++ {
		r := res[n]
		if r.outcome == stored {
			continue
		}
		if r.outcome == notSent && r.err != nil && permanent(r.err) {
			// recs[n] will never be taken: set it aside and go on.
			if err = l.p.setAside(recs[n], r.err); err == nil {
				continue
			}
			break
		}
		// A record not sent without an error of its own follows one
		// set aside: the next pass sends it.
		err = r.err
		break
	}
	for i := n; i < len(recs); i++ {
		switch res[i].outcome {
		case stored:
			l.known[recs[i].Seq] = true
		case unsure:
			l.unsure[recs[i].Seq] = true
		}
	}
	return n, err
}

// ask finds, among recs, the records whose outcome is unknown (sent in
// this run without an answer, or due before this run started: the last
// run may have sent them) and asks their streams whether they hold them:
// those they hold are not sent again (l.known). An error: the streams
// could not be asked now (nothing is sent; the pass is tried again).
func (l *runLoop) ask(recs []OutboxEntry) error {
	p := l.p
	var ask []OutboxEntry
	for _, r := range recs {
		if l.known[r.Seq] || r.Target == targetCore {
			continue
		}
		if l.unsure[r.Seq] || r.Due < p.started && !l.asked[r.Seq] {
			ask = append(ask, r)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	nc := p.conn()
	if nc == nil {
		return errors.New("not connected")
	}
	ctx, cancel := context.WithTimeout(l.ctx, p.o.PublishTimeout)
	defer cancel()
	found, err := p.held(ctx, nc, ask)
	if errors.Is(err, errCannotAsk) {
		if !l.cannotAsk {
			p.log.Warn("cannot ask the streams what they hold: messages whose outcome is unknown are sent again (core subscribers may receive them twice)", "err", err)
		}
		l.cannotAsk, found, err = true, nil, nil
	}
	if err != nil {
		return err
	}
	for _, r := range ask {
		delete(l.unsure, r.Seq)
		if r.Due < p.started {
			l.asked[r.Seq] = true
		}
		if found[r.Seq] {
			l.known[r.Seq] = true
		}
	}
	if len(found) > 0 {
		p.log.Info("messages already in their streams are not sent again", "held", len(found), "asked", len(ask))
	}
	return nil
}

// acked takes the records the streams acknowledged out of the outbox.
func (l *runLoop) acked(recs []OutboxEntry) {
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
		// Not acked: taken again by the next pass, which does not send
		// them again (the streams hold them).
		p.log.Error("outbox ack failed", "err", aerr)
		for _, seq := range seqs {
			l.known[seq] = true
		}
	} else {
		for _, seq := range seqs {
			delete(l.known, seq)
			delete(l.asked, seq)
		}
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

func (p *Publisher) applyPublic(r OutboxEntry) {
	var st game.GameState
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
			var gs game.GameState
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

func toMsg(r OutboxEntry) *nats.Msg {
	m := nats.NewMsg(r.Subject)
	m.Data = r.Data
	m.Header.Set(jetstream.MsgIDHeader, r.MsgID)
	return m
}

// outcome is what became of one record of a batch.
type outcome uint8

const (
	// notSent: not sent, or refused: send it again.
	notSent outcome = iota
	// stored: its stream acknowledged it (or held it already), or core
	// NATS took it.
	stored
	// unsure: sent, and no answer came (a time-out, a lost connection):
	// its stream may hold it. Ask before sending it again ([Publisher.held]).
	unsure
)

// sent is a record's outcome and, when it is not stored, why.
type sent struct {
	outcome outcome
	err     error
}

// sendBatch publishes recs pipelined (JetStream publishes asynchronously,
// core ones on the same connection) and waits for the acknowledgements in
// order, then says what became of each record. Records in have are held by
// their streams already: they are not sent again (only their public
// account copy is made). After the first failure the answers already
// there are still taken (a later record may be stored although an earlier
// one timed out); a record with no answer is unsure.
func (p *Publisher) sendBatch(ctx context.Context, recs []OutboxEntry, have map[uint64]bool) []sent {
	res := make([]sent, len(recs))
	p.mu.Lock()
	nc, js, pnc := p.nc, p.js, p.pnc
	p.mu.Unlock()
	if nc == nil {
		for i := range res {
			res[i].err = errors.New("not connected")
		}
		return res
	}
	ctx, cancel := context.WithTimeout(ctx, p.o.PublishTimeout)
	defer cancel()
	futs := make([]jetstream.PubAckFuture, 0, len(recs))
	var core []int
	var submitErr error
	for i, r := range recs {
		switch {
		case have[r.Seq]:
			res[i].outcome = stored
		case r.Target == targetCore:
			if submitErr = nc.PublishMsg(toMsg(r)); submitErr != nil {
				break
			}
			core = append(core, i)
		default:
			f, err := js.PublishMsgAsync(toMsg(r), jetstream.WithRetryAttempts(0)) // retries are ours, in order
			if err != nil {
				submitErr = err
				break
			}
			futs = append(futs, f)
			res[i].outcome = unsure
			continue
		}
		if submitErr != nil {
			break
		}
		futs = append(futs, nil)
	}
	submitted := len(futs)
	if submitted < len(recs) {
		res[submitted].err = submitErr // the others after it were not sent (no error of theirs)
	}
	failed := false
	if len(core) > 0 {
		outcome, err := stored, nc.FlushWithContext(ctx)
		if err != nil {
			outcome, failed = notSent, true // sent again: a repeat for core subscribers
		}
		for _, i := range core {
			res[i] = sent{outcome, err}
		}
	}
	copied := false
	for i, f := range futs {
		if f != nil {
			res[i] = answer(ctx, f, failed)
			failed = failed || res[i].outcome != stored
		}
		if res[i].outcome == stored && pnc != nil && recs[i].Public {
			// The public account's copy, once the stream has it: public
			// users never see what a restart could take back.
			if err := pnc.PublishMsg(toMsg(recs[i])); err != nil {
				res[i] = sent{notSent, fmt.Errorf("public account: %w", err)}
				failed = true
				continue
			}
			copied = true
		}
	}
	if copied {
		if err := pnc.FlushWithContext(ctx); err != nil {
			for i, r := range recs[:submitted] {
				if r.Public && res[i].outcome == stored {
					res[i] = sent{notSent, fmt.Errorf("public account: %w", err)}
				}
			}
		}
	}
	return res
}

// answer waits for f's acknowledgement (only takes one already there when
// an earlier record failed): stored, refused (notSent: the server said no,
// nothing was stored) or unsure.
func answer(ctx context.Context, f jetstream.PubAckFuture, failed bool) sent {
	took := func(err error) sent {
		var api *jetstream.APIError
		if errors.As(err, &api) || errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse) {
			return sent{notSent, err} // refused, or no stream took it
		}
		return sent{unsure, err}
	}
	select {
	case <-f.Ok():
		return sent{outcome: stored}
	case err := <-f.Err():
		return took(err)
	default:
	}
	if failed {
		return sent{unsure, errors.New("no answer yet")}
	}
	select {
	case <-f.Ok():
		return sent{outcome: stored}
	case err := <-f.Err():
		return took(err)
	case <-ctx.Done():
		return sent{unsure, fmt.Errorf("waiting for ack: %w", ctx.Err())}
	}
}
