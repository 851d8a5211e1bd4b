package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A message whose outcome is unknown (sent, and no acknowledgement came: a
// time-out, a lost connection, a restart while it was in flight) may be in
// its stream already. Sending it again costs nothing in the stream, which
// drops the repeat by its Nats-Msg-Id, but every core subscriber of the
// subject (the load test, a spectator's page, an organiser's script)
// receives it a second time. So before sending such a message again the
// publisher asks the stream whether it holds it: it reads the messages the
// stream stored on the message's subject since shortly before the message
// was due (JetStream direct get, next_by_subj from start_time, nats-server
// 2.11 or later) and compares their Nats-Msg-Id with the message's.

// heldSlack is how long before a message's due time the search of its
// stream starts: the stream's timestamps are the server's clock.
const heldSlack = 10 * time.Second

// heldSteps bounds the messages read per subject in one search; a subject
// with more since the search's start is treated as not holding the rest
// (they are sent again: at worst a repeat for core subscribers).
const heldSteps = 256

// errCannotAsk: the server cannot answer the search (no direct get, or a
// server too old for its request): the messages are sent again.
var errCannotAsk = errors.New("broadcast: the stream cannot say what it holds")

// held returns the records of recs (JetStream targets) that their streams
// already hold. An error means the streams could not be asked now (the
// connection, a time-out): try again later. errCannotAsk means they never
// can (sent again without asking).
func (p *Publisher) held(ctx context.Context, nc *nats.Conn, recs []OutboxEntry) (map[uint64]bool, error) {
	type group struct {
		stream string
		since  time.Time
		recs   []OutboxEntry
	}
	var order []string
	groups := map[string]*group{}
	for _, r := range recs {
		g := groups[r.Subject]
		if g == nil {
			stream, ok := p.subj.streamOf(r)
			if !ok {
				continue
			}
			g = &group{stream: stream, since: r.DueTime()}
			groups[r.Subject] = g
			order = append(order, r.Subject)
		}
		if r.DueTime().Before(g.since) {
			g.since = r.DueTime()
		}
		g.recs = append(g.recs, r)
	}
	found := map[uint64]bool{}
	for _, subj := range order {
		g := groups[subj]
		ids, err := p.idsOn(ctx, nc, g.stream, subj, g.since.Add(-heldSlack))
		if err != nil {
			return nil, err
		}
		last := -1
		for i, r := range g.recs {
			if ids[r.MsgID] {
				found[r.Seq] = true
				last = i
			}
		}
		if r := g.recs[0]; r.Target == targetKV {
			// The bucket keeps one state per game: an older state than
			// the one it holds is superseded, never to be put back.
			for _, r := range g.recs[:last+1] {
				found[r.Seq] = true
			}
		}
	}
	return found, nil
}

// idsOn returns the Nats-Msg-Ids of the messages stream holds on subj
// stored at or after since (at most heldSteps of them).
func (p *Publisher) idsOn(ctx context.Context, nc *nats.Conn, stream, subj string, since time.Time) (map[string]bool, error) {
	type getReq struct {
		Seq       uint64     `json:"seq,omitempty"`
		NextFor   string     `json:"next_by_subj"`
		StartTime *time.Time `json:"start_time,omitempty"`
	}
	ids := map[string]bool{}
	since = since.UTC()
	req := getReq{NextFor: subj, StartTime: &since}
	for range heldSteps {
		body, err := json.Marshal(req)
		if err != nil {
			return nil, err
		}
		m, err := nc.RequestWithContext(ctx, "$JS.API.DIRECT.GET."+stream, body)
		if errors.Is(err, nats.ErrNoResponders) {
			return nil, fmt.Errorf("%w: %s: no direct get", errCannotAsk, stream)
		}
		if err != nil {
			return nil, fmt.Errorf("broadcast: ask %s what it holds on %s: %w", stream, subj, err)
		}
		switch st := m.Header.Get("Status"); {
		case st == "404":
			return ids, nil
		case st != "":
			return nil, fmt.Errorf("%w: %s: %s %s", errCannotAsk, stream, st, m.Header.Get("Description"))
		}
		seq, err := strconv.ParseUint(m.Header.Get(jetstream.SequenceHeader), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: reply without a sequence", errCannotAsk, stream)
		}
		if id := m.Header.Get(jetstream.MsgIDHeader); id != "" {
			ids[id] = true
		}
		req = getReq{Seq: seq + 1, NextFor: subj}
	}
	return ids, nil
}

// streamOf returns the stream that stores r's subject (false: none, a core
// subject).
func (s Subjects) streamOf(r OutboxEntry) (string, bool) {
	switch {
	case r.Target == targetKV:
		return "KV_" + s.bucket(), true
	case r.Target != targetStream:
		return "", false
	case strings.HasPrefix(r.Subject, s.Prefix+".game."):
		return s.gamesStream(), true
	case strings.HasPrefix(r.Subject, s.Prefix+".public."):
		return s.publicStream(), true
	case strings.HasPrefix(r.Subject, s.Prefix+".arbiter."):
		return s.alertsStream(), true
	}
	return "", false
}
