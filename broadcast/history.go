package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go/jetstream"
)

// History is what was published of one game's record, read back: the
// MoveEvents, Corrections and Results of <p>.game.<g>.{move,correction,end}
// in the order they were published. It is what a daemon whose copy of the
// record was damaged recovers the game from (the hall's record damage
// path).
type History struct {
	// Payloads: game.MoveEvent, game.Correction and game.Result.
	Payloads []game.Payload
	// FromStream of them were read from the stream (named Stream), the
	// rest were still in the outbox, not yet sent.
	FromStream int
	Stream     string
}

// historyKind reports whether a History holds records of kind k.
func historyKind(k kind) bool { return k == kindMove || k == kindCorrection || k == kindEnd }

// History reads back game g's record as published: every message of its
// record in the <P>_GAMES stream, then those still waiting in the outbox
// (a message sent meanwhile is counted once: by its message id). It waits
// for the connection to NATS (Run connects), until ctx is done; without it
// the error says why and the History holds what the outbox has.
func (p *Publisher) History(ctx context.Context, g game.ID) (History, error) {
	h := History{Stream: p.subj.gamesStream()}
	if err := g.Validate(); err != nil {
		return h, err
	}
	// The outbox first: a record sent while the stream is read is then
	// in the stream's part.
	pending, err := p.ob.pendingOf(g)
	if err != nil {
		return h, err
	}
	var js jetstream.JetStream
	for {
		p.mu.Lock()
		js = p.js
		p.mu.Unlock()
		if js != nil && p.connected.Load() {
			break
		}
		select {
		case <-ctx.Done():
			err := fmt.Errorf("broadcast: history of %s: not connected to NATS: %w", g, ctx.Err())
			if e := p.lastErr.Load(); e != nil {
				err = fmt.Errorf("broadcast: history of %s: not connected to NATS (%s): %w", g, *e, ctx.Err())
			}
			h.add(p.subj, pending, nil)
			return h, err
		case <-time.After(20 * time.Millisecond):
		}
	}
	seen := map[string]bool{}
	msgs, err := p.streamOf(ctx, js, g)
	for _, m := range msgs {
		id := m.Headers().Get(jetstream.MsgIDHeader)
		if pl, ok := decodeHistory(p.subj, g, m.Subject(), m.Data()); ok && !seen[id] {
			seen[id] = true
			h.Payloads = append(h.Payloads, pl)
		}
	}
	h.FromStream = len(h.Payloads)
	h.add(p.subj, pending, seen)
	return h, err
}

// add appends the outbox's records not seen in the stream.
func (h *History) add(s Subjects, recs []OutboxEntry, seen map[string]bool) {
	for _, r := range recs {
		if seen[r.MsgID] {
			continue
		}
		if pl, ok := decodeHistory(s, r.Game, r.Subject, r.Data); ok {
			h.Payloads = append(h.Payloads, pl)
		}
	}
}

// streamOf reads every message of g's record in the games stream.
func (p *Publisher) streamOf(ctx context.Context, js jetstream.JetStream, g game.ID) ([]jetstream.Msg, error) {
	cons, err := js.OrderedConsumer(ctx, p.subj.gamesStream(), jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{p.subj.move(g), p.subj.correction(g), p.subj.end(g)}})
	if err != nil {
		return nil, fmt.Errorf("broadcast: history of %s: %w", g, err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("broadcast: history of %s: %w", g, err)
	}
	var msgs []jetstream.Msg
	for left := info.NumPending; left > 0; {
		m, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			return msgs, fmt.Errorf("broadcast: history of %s: read %d of %d messages: %w", g, len(msgs), len(msgs)+int(left), err)
		}
		msgs = append(msgs, m)
		meta, err := m.Metadata()
		if err != nil {
			return msgs, fmt.Errorf("broadcast: history of %s: %w", g, err)
		}
		left = meta.NumPending
	}
	return msgs, nil
}

// decodeHistory decodes a message of g's record by its subject.
func decodeHistory(s Subjects, g game.ID, subject string, data []byte) (game.Payload, bool) {
	var (
		pl  game.Payload
		err error
	)
	switch subject {
	case s.move(g):
		var ev game.MoveEvent
		if err = json.Unmarshal(data, &ev); err == nil {
			pl = ev
		}
	case s.correction(g):
		var c game.Correction
		if err = json.Unmarshal(data, &c); err == nil {
			pl = c
		}
	case s.end(g):
		var r game.Result
		if err = json.Unmarshal(data, &r); err == nil {
			pl = r
		}
	default:
		err = errors.New("not a record subject")
	}
	return pl, err == nil && pl != nil && pl.GameID() == g
}

// pendingOf returns game g's records still waiting to be sent (live
// copies: its moves, corrections and results), in order.
func (o *Outbox) pendingOf(g game.ID) ([]OutboxEntry, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil, ErrClosed
	}
	var out []OutboxEntry
	for _, e := range o.queues[0][o.heads[0]:] {
		if !historyKind(e.kind) {
			continue
		}
		rec, err := o.readLocked(e)
		if errors.Is(err, ErrCorruptJournal) {
			continue
		}
		if err != nil {
			return out, err
		}
		if rec.Game == g {
			out = append(out, rec)
		}
	}
	return out, nil
}
