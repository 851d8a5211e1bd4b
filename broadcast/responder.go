package broadcast

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Reply headers of the PGN request/reply API.
const (
	// HeaderGames carries the number of games in a PGN reply.
	HeaderGames = "Dgtbridge-Games"
	// HeaderError carries why a request was refused (the body is then empty).
	HeaderError = "Dgtbridge-Error"
)

// subscribeResponders answers, on this connection:
//
//	<p>.api.pgn.<event>.<round>         → the live round PGN (organisers)
//	<p>.api.pgn.public.<event>.<round>  → the delayed round PGN (everyone)
//
// A request whose reply subject is not an inbox (_INBOX…) is ignored: a
// public client could otherwise make the daemon, which may publish anywhere,
// write PGN into a feed subject.
func (p *Publisher) subscribeResponders(nc *nats.Conn) error {
	p.mu.Lock()
	same := p.respConn == nc
	p.mu.Unlock()
	if same {
		return nil
	}
	base := p.subj.Prefix + ".api.pgn."
	if _, err := nc.Subscribe(base+"*.*", func(m *nats.Msg) { p.answerPGN(m, p.live, m.Subject[len(base):]) }); err != nil {
		return fmt.Errorf("subscribe pgn api: %w", err)
	}
	if _, err := nc.Subscribe(base+"public.*.*", func(m *nats.Msg) { p.answerPGN(m, p.public, m.Subject[len(base+"public."):]) }); err != nil {
		return fmt.Errorf("subscribe public pgn api: %w", err)
	}
	if h := p.o.Commands; h != nil {
		if _, err := nc.Subscribe(p.subj.Prefix+".arbiter.*.*.*.cmd", func(m *nats.Msg) { p.answerCommand(m, h) }); err != nil {
			return fmt.Errorf("subscribe arbiter commands: %w", err)
		}
	}
	if err := nc.Flush(); err != nil {
		return err
	}
	p.mu.Lock()
	p.respConn = nc
	p.mu.Unlock()
	return nil
}

func (p *Publisher) answerPGN(m *nats.Msg, st *Store, rest string) {
	if !strings.HasPrefix(m.Reply, "_INBOX") {
		p.log.Warn("pgn request without an inbox reply subject ignored", "subject", m.Subject, "reply", m.Reply)
		return
	}
	r := nats.NewMsg(m.Reply)
	ev, rs, _ := strings.Cut(rest, ".")
	round, err := strconv.Atoi(rs)
	if err != nil || !ValidToken(ev) || round < 1 {
		r.Header.Set(HeaderError, "want <event>.<round>, got "+rest)
	} else {
		pgn, n := st.RoundPGN(ev, round)
		r.Data = []byte(pgn)
		r.Header.Set(HeaderGames, strconv.Itoa(n))
	}
	if err := m.RespondMsg(r); err != nil {
		p.log.Warn("pgn reply failed", "err", err)
	}
}

// CommandHandler handles one arbiter command (interfaces.md §3.1,
// <p>.arbiter.<g>.cmd) for game g; body is the ArbiterCommand JSON as sent.
// It runs on the NATS connection's callback goroutine, one command at a
// time, and must return promptly (hand the work to the game's owner). A nil
// error replies {"ok":true,"error":""}; an error replies {"ok":false,
// "error":"<message>"}.
type CommandHandler func(ctx context.Context, g GameID, body []byte) error

// CommandReply is the reply to an arbiter command.
type CommandReply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

func (p *Publisher) answerCommand(m *nats.Msg, h CommandHandler) {
	if !strings.HasPrefix(m.Reply, "_INBOX") {
		p.log.Warn("arbiter command without an inbox reply subject ignored", "subject", m.Subject, "reply", m.Reply)
		return
	}
	var rep CommandReply
	g, err := ParseGameID(strings.TrimSuffix(strings.TrimPrefix(m.Subject, p.subj.Prefix+".arbiter."), ".cmd"))
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), p.o.PublishTimeout)
		err = h(ctx, g, m.Data)
		cancel()
	}
	if err != nil {
		rep.Error = err.Error()
	} else {
		rep.OK = true
	}
	b, _ := json.Marshal(rep)
	if err := m.Respond(b); err != nil {
		p.log.Warn("arbiter command reply failed", "err", err)
	}
}

// loadStores fills the stores from what NATS kept: the KV bucket (live) and
// the last <p>.public.<g>.state of each game (public). States the stores
// already hold (published or fallen due since start) are newer and kept.
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
			var st GameState
			if err := json.Unmarshal(e.Value(), &st); err != nil {
				p.log.Warn("kv: undecodable game state", "key", e.Key(), "err", err)
				continue
			}
			p.live.PutIfAbsent(st)
		}
	}
	stream, err := js.Stream(ctx, p.subj.PublicStream())
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
		var st GameState
		if err := json.Unmarshal(m.Data, &st); err != nil {
			p.log.Warn("public: undecodable game state", "subject", subj, "err", err)
			continue
		}
		p.public.PutIfAbsent(st)
	}
	return nil
}
