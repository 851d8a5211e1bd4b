package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// Audience says who may send a request to a route and where its reply may
// go.
type Audience uint8

const (
	// Staff routes are served on the staff connection only, and their
	// replies go only to staff inboxes: "_INBOX." or "_INBOX_<name>.",
	// never [PublicInboxPrefix] (live data must not reach public users,
	// even in a single-account setup where a staff user could name a
	// public inbox as the reply subject).
	Staff Audience = iota + 1
	// Everyone routes are also served on the public connection, and may
	// reply to public inboxes.
	Everyone
)

// Request is one request the [Responder] accepted.
type Request struct {
	// Subject is the subject the request was sent on.
	Subject string
	// Game is the game the subject names, for routes whose subject has
	// the three game tokens as wildcards (zero otherwise).
	Game game.ID
	// Data is the request's body: a JSON object's request_id taken out,
	// and on the arbiter command route its "by" set to the authenticated
	// user ([Identity]).
	Data []byte
	// From is who sent it, as far as the server vouches for it.
	From Identity
}

// Reply is the answer to a request.
type Reply struct {
	Data   []byte
	Header nats.Header
}

// Handler answers one request. It runs on a goroutine of its own (at most
// [maxStaffRequests] staff and [maxPublicRequests] public at once); ctx is
// done when the responder stops, and the handler must then return
// promptly.
type Handler func(ctx context.Context, req Request) Reply

// CommandReply is the {ok, error} reply of arbiter commands, relay time
// requests and operator input (docs/contract.md §3.1).
type CommandReply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// StatusReply is the {ok, error} reply for err (nil: ok).
func StatusReply(err error) Reply {
	r := CommandReply{OK: err == nil}
	if err != nil {
		r.Error = err.Error()
	}
	b, _ := json.Marshal(r) // two plain fields: cannot fail
	return Reply{Data: b}
}

// maxStaffRequests and maxPublicRequests bound the handlers running at
// once for Staff and Everyone routes, each its own pool, so that public
// requests never hold up the arbiters'; a request beyond its pool's
// bound is answered at once with an error (try again). A request refused
// for any reason never holds a slot.
const (
	maxStaffRequests  = 64
	maxPublicRequests = 32
)

// maxRequestBytes bounds a request's body: no request of the daemon needs
// more (each of its strings is at most [maxTextBytes]).
const maxRequestBytes = 8 << 10

// errBusy is the reply to a request beyond its pool's bound.
var errBusy = errors.New("broadcast: too many requests in progress, try again")

type route struct {
	subject string
	aud     Audience
	gameAt  int // index of the game's first token in the subject, or -1
	h       Handler
}

// Responder is the one request/reply server of the daemon: the PGN API,
// arbiter commands, relay time requests and operator input all go through
// it. It answers a request only when its reply subject is an inbox its
// route allows (see [Audience]): a request with any other reply subject
// (e.g. a feed subject such as <p>.game.<g>.move, which the daemon, allowed
// everything, could otherwise be made to publish on) is refused without a
// reply and counted ([Responder.Refused]); its handler never runs.
//
// Routes are added with Handle before the publisher connects; the
// [Publisher] subscribes them on its connections and stops them (waiting
// for the handlers in progress to reply) before it closes them.
type Responder struct {
	log *slog.Logger

	mu      sync.Mutex
	routes  []route
	subs    map[*nats.Conn][]*nats.Subscription
	ctx     context.Context
	cancel  context.CancelFunc
	running sync.WaitGroup
	staff   chan struct{} // slots of Staff routes
	public  chan struct{} // slots of Everyone routes
	ids     requestIDs
	// trust: requests that came through a service import carry an
	// identity the server vouches for (the embedded server with users).
	trust bool
	// stampBy are the subjects (wildcards allowed) whose JSON body gets
	// "by" set to the authenticated user.
	stampBy []string

	refused  atomic.Int64
	lastWarn atomic.Int64 // unix ns of the last refusal logged
}

// newResponder returns a responder with no routes.
func newResponder(log *slog.Logger) *Responder {
	if log == nil {
		log = discardLogger()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Responder{log: log, subs: map[*nats.Conn][]*nats.Subscription{}, ctx: ctx, cancel: cancel,
		staff: make(chan struct{}, maxStaffRequests), public: make(chan struct{}, maxPublicRequests)}
}

// Handle adds a route: requests on subject (wildcards allowed) go to h.
// When subject has three consecutive "*" tokens, they are the game and
// Request.Game holds it (a subject whose game does not parse is answered
// with an error, h is not called).
func (r *Responder) Handle(subject string, aud Audience, h Handler) {
	toks := strings.Split(subject, ".")
	at := -1
	for i := 0; i+2 < len(toks); i++ {
		if toks[i] == "*" && toks[i+1] == "*" && toks[i+2] == "*" {
			at = i
			break
		}
	}
	r.mu.Lock()
	r.routes = append(r.routes, route{subject: subject, aud: aud, gameAt: at, h: h})
	r.mu.Unlock()
}

// Refused is how many requests were refused for their reply subject.
func (r *Responder) Refused() int64 { return r.refused.Load() }

// attach subscribes the routes on nc: every route when staff, the
// Everyone routes otherwise (the public connection). A connection already
// attached is left as it is.
func (r *Responder) attach(nc *nats.Conn, staff bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.subs[nc]; ok {
		return nil
	}
	var subs []*nats.Subscription
	for _, rt := range r.routes {
		if !staff && rt.aud != Everyone {
			continue
		}
		rt, public := rt, !staff
		s, err := nc.Subscribe(rt.subject, func(m *nats.Msg) { r.dispatch(rt, public, m) })
		if err != nil {
			for _, s := range subs {
				_ = s.Unsubscribe()
			}
			return err
		}
		subs = append(subs, s)
	}
	r.subs[nc] = subs
	return nc.Flush()
}

// detach unsubscribes the routes of a connection that is going away.
func (r *Responder) detach(nc *nats.Conn) {
	r.mu.Lock()
	subs := r.subs[nc]
	delete(r.subs, nc)
	r.mu.Unlock()
	for _, s := range subs {
		_ = s.Unsubscribe()
	}
}

// stop unsubscribes every route and waits for the handlers in progress,
// whose ctx is done, to reply.
func (r *Responder) stop() {
	r.mu.Lock()
	conns := make([]*nats.Conn, 0, len(r.subs))
	for nc := range r.subs {
		conns = append(conns, nc)
	}
	r.mu.Unlock()
	for _, nc := range conns {
		r.detach(nc)
	}
	r.cancel()
	r.running.Wait()
}

// replyAllowed reports whether reply is an inbox that aud may answer on
// from a connection (public: the public connection).
func replyAllowed(reply string, aud Audience, public bool) bool {
	first, _, ok := strings.Cut(reply, ".")
	if ok && first == "_R_" {
		// A request that came through a service import (from a staff
		// account into the daemon's): the reply goes back to the
		// requester's account, whatever subject it named there.
		return !public
	}
	if !ok || (first != "_INBOX" && !strings.HasPrefix(first, "_INBOX_")) {
		return false
	}
	if first == PublicInboxPrefix {
		return aud == Everyone
	}
	return !public // public users only ever get replies on public inboxes
}

func (r *Responder) dispatch(rt route, public bool, m *nats.Msg) {
	if !replyAllowed(m.Reply, rt.aud, public) {
		r.refused.Add(1)
		now := time.Now().UnixNano()
		if last := r.lastWarn.Load(); now-last > int64(time.Second) && r.lastWarn.CompareAndSwap(last, now) {
			r.log.Warn("request refused: its reply subject is not an inbox it may be answered on",
				"subject", m.Subject, "reply", m.Reply, "refused_total", r.refused.Load())
		}
		return
	}
	if len(m.Data) > maxRequestBytes {
		r.respond(m, StatusReply(fmt.Errorf("broadcast: request of %d bytes refused (at most %d)", len(m.Data), maxRequestBytes)))
		return
	}
	b, err := readBody(m.Data)
	if err != nil {
		r.respond(m, StatusReply(err))
		return
	}
	from := identify(m, r.trust && !public)
	req := Request{Subject: m.Subject, From: from, Data: b.rewrite(m.Data, from, r.stamps(m.Subject))}
	if rt.gameAt >= 0 {
		toks := strings.Split(m.Subject, ".")
		g, err := game.ParseID(strings.Join(toks[rt.gameAt:min(rt.gameAt+3, len(toks))], "."))
		if err != nil {
			r.respond(m, StatusReply(err))
			return
		}
		req.Game = g
	}
	var key idKey
	var entry *idEntry
	if b.requestID != "" {
		key = idKey{user: from.User, subject: m.Subject, id: b.requestID}
		e, st, err := r.ids.begin(key, time.Now())
		switch {
		case err != nil:
			r.respond(m, StatusReply(err))
			return
		case st == idDone:
			r.respond(m, e.reply)
			return
		case st == idRunning:
			go func() {
				defer r.ids.waited()
				<-e.done
				r.respond(m, e.reply)
			}()
			return
		}
		entry = e
	}
	sem := r.staff
	if rt.aud == Everyone {
		sem = r.public
	}
	select {
	case sem <- struct{}{}:
	default:
		rep := StatusReply(errBusy)
		if entry != nil {
			r.ids.drop(key, entry, rep)
		}
		r.respond(m, rep)
		return
	}
	r.running.Add(1)
	go func() {
		defer r.running.Done()
		defer func() { <-sem }()
		rep := rt.h(r.ctx, req)
		if entry != nil {
			r.ids.finish(entry, rep, time.Now())
		}
		r.respond(m, rep)
	}()
}

// stamps reports whether subject is one whose body gets "by" set.
func (r *Responder) stamps(subject string) bool {
	for _, pat := range r.stampBy {
		if subjectMatches(pat, subject) {
			return true
		}
	}
	return false
}

// subjectMatches reports whether subject matches pattern, whose tokens
// may be "*" (any one token).
func subjectMatches(pattern, subject string) bool {
	p, s := strings.Split(pattern, "."), strings.Split(subject, ".")
	if len(p) != len(s) {
		return false
	}
	for i := range p {
		if p[i] != "*" && p[i] != s[i] {
			return false
		}
	}
	return true
}

func (r *Responder) respond(m *nats.Msg, rep Reply) {
	out := &nats.Msg{Subject: m.Reply, Data: rep.Data, Header: rep.Header}
	if err := m.RespondMsg(out); err != nil {
		r.log.Warn("reply failed", "subject", m.Subject, "err", err)
	}
}
