package broadcast

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Reply headers of the PGN request/reply API.
const (
	// headerGames carries the number of games in a PGN reply.
	headerGames = "Dgtbridge-Games"
	// headerError carries why a request was refused (the body is then empty).
	headerError = "Dgtbridge-Error"
)

// handlePGN adds the PGN API to the responder:
//
//	<p>.api.pgn.<event>.<round>         → the live round PGN (staff)
//	<p>.api.pgn.public.<event>.<round>  → the delayed round PGN (everyone)
func (p *Publisher) handlePGN() {
	base := p.subj.Prefix + ".api.pgn."
	p.resp.Handle(base+"*.*", Staff, func(_ context.Context, r Request) Reply {
		return roundPGN(p.live, r.Subject[len(base):])
	})
	p.resp.Handle(base+"public.*.*", Everyone, func(_ context.Context, r Request) Reply {
		return roundPGN(p.public, r.Subject[len(base+"public."):])
	})
}

func roundPGN(st *Store, rest string) Reply {
	h := nats.Header{}
	ev, rs, _ := strings.Cut(rest, ".")
	round, err := strconv.Atoi(rs)
	if err != nil || !ValidToken(ev) || round < 1 {
		h.Set(headerError, "want <event>.<round>, got "+rest)
		return Reply{Header: h}
	}
	pgn, n := st.RoundPGN(ev, round)
	h.Set(headerGames, strconv.Itoa(n))
	return Reply{Data: []byte(pgn), Header: h}
}

// loadStores fills the stores from what NATS kept: the KV bucket (live) and
// the last <p>.public.<g>.state of each game (public). States the stores
// already hold that are newer (published or fallen due since start) are
// kept.
func (p *Publisher) loadStores(ctx context.Context, js jetstream.JetStream, kv jetstream.KeyValue) error {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return fmt.Errorf("load kv: %w", err)
	}
	defer w.Stop()
	for done := false; !done; {
		select {
		case <-ctx.Done():
			return fmt.Errorf("load kv: %w", ctx.Err())
		case e := <-w.Updates():
			if e == nil {
				done = true
				break
			}
			var st game.GameState
			if err := json.Unmarshal(e.Value(), &st); err != nil {
				p.log.Warn("kv: undecodable game state", "key", e.Key(), "err", err)
				continue
			}
			p.live.PutNewer(st)
		}
	}
	stream, err := js.Stream(ctx, p.subj.publicStream())
	if err != nil {
		return fmt.Errorf("load public: %w", err)
	}
	info, err := stream.Info(ctx, jetstream.WithSubjectFilter(p.subj.Prefix+".public.*.*.*.state"))
	if err != nil {
		return fmt.Errorf("load public: %w", err)
	}
	for subj := range info.State.Subjects {
		m, err := stream.GetLastMsgForSubject(ctx, subj)
		if err != nil {
			return fmt.Errorf("load public %s: %w", subj, err)
		}
		var st game.GameState
		if err := json.Unmarshal(m.Data, &st); err != nil {
			p.log.Warn("public: undecodable game state", "subject", subj, "err", err)
			continue
		}
		p.public.PutNewer(st)
	}
	return nil
}
