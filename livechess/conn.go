package livechess

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/coder/websocket"
)

// maxRequest bounds one client frame: the largest request (a setup with
// its FEN) is well under a kilobyte.
const maxRequest = 64 << 10

// writeTimeout bounds one frame's write: a client that does not read is
// dropped rather than held.
const writeTimeout = 10 * time.Second

// initialWait is how long a new feed's first frame waits for a setup:
// Lichess's page sends setup right after subscribe, without waiting for
// the answer, and then takes any move of the first frame as the player's.
// With the wait, the first frame already counts from the setup.
const initialWait = 200 * time.Millisecond

// inbound is a decoded request, or why a frame could not be decoded.
type inbound struct {
	req request
	err *Error
}

// session is one WebSocket client: its feeds by id. Owned by the
// goroutine running [session.run], which writes every frame.
type session struct {
	s     *Server
	c     *websocket.Conn
	feeds map[int]*feed
	// waiting holds the feeds whose first frame waits for a setup, until
	// when.
	waiting map[int]time.Time
}

// run serves the client until it goes or ctx ends.
func (ss *session) run(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	in := make(chan inbound)
	go ss.read(ctx, in)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		changed := ss.s.view.changes()
		if err := ss.push(ctx, 0); err != nil {
			return
		}
		var wake <-chan time.Time
		if next := ss.nextWait(); !next.IsZero() {
			timer.Reset(max(time.Until(next), time.Millisecond))
			wake = timer.C
		}
		select {
		case <-wake:
		case <-ctx.Done():
			// No close handshake: a stopping daemon does not wait on its
			// clients (they reconnect when it is back).
			ss.c.CloseNow()
			return
		case m, ok := <-in:
			if !ok {
				return
			}
			if err := ss.handle(ctx, m); err != nil {
				return
			}
		case <-changed:
		}
	}
}

// read decodes the client's frames and hands them to run; it closes in
// when the connection ends.
func (ss *session) read(ctx context.Context, in chan<- inbound) {
	defer close(in)
	for {
		typ, data, err := ss.c.Read(ctx)
		if err != nil {
			return
		}
		var m inbound
		if typ != websocket.MessageText {
			m.err = errorf("expected a text frame holding a JSON request")
		} else if err := json.Unmarshal(data, &m.req); err != nil {
			m.err = errorf("invalid request: %v", err)
		}
		select {
		case in <- m:
		case <-ctx.Done():
			return
		}
	}
}

// send writes one frame.
func (ss *session) send(ctx context.Context, kind string, id int, param any) error {
	b, err := json.Marshal(response{Response: kind, ID: id, Param: param, Time: ss.s.now().UnixMilli()})
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	return ss.c.Write(wctx, websocket.MessageText, b)
}

// nextWait is when the first waiting feed's wait ends (zero: none).
func (ss *session) nextWait() time.Time {
	var next time.Time
	for _, t := range ss.waiting {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next
}

// push sends every feed's pending frames (only feed id's when id != 0);
// a feed waiting for a setup sends nothing until its wait is over.
func (ss *session) push(ctx context.Context, id int) error {
	now := time.Now()
	for fid, f := range ss.feeds {
		if id != 0 && fid != id {
			continue
		}
		if until, ok := ss.waiting[fid]; ok {
			if now.Before(until) {
				continue
			}
			delete(ss.waiting, fid)
		}
		b, ok := ss.s.view.board(f.board)
		if !ok {
			continue // the board left the hall; its feed waits for it
		}
		for _, e := range f.frames(b) {
			if err := ss.send(ctx, respFeed, fid, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// handle answers one request; an error ends the session (the write
// failed).
func (ss *session) handle(ctx context.Context, m inbound) error {
	if m.err != nil {
		return ss.send(ctx, respError, m.req.ID, errorParam{Message: m.err.Message})
	}
	result, feedID, err := ss.call(m.req)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Message: err.Error()}
		}
		return ss.send(ctx, respError, m.req.ID, errorParam{Message: e.Message})
	}
	if err := ss.send(ctx, respCall, m.req.ID, result); err != nil {
		return err
	}
	if feedID != 0 {
		return ss.push(ctx, feedID)
	}
	return nil
}

// call runs one request and returns its result and the feed whose frames
// follow the answer (0: none).
func (ss *session) call(r request) (any, int, error) {
	switch r.Call {
	case "eboards":
		return ss.eboards(), 0, nil
	case "subscribe":
		return ss.subscribe(r.Param)
	case "unsubscribe":
		var p feedCallParam
		if err := decodeParam(r.Param, &p); err != nil || p.ID == nil {
			return nil, 0, errorf("unsubscribe: want param {\"id\": <feed id>}")
		}
		if _, ok := ss.feeds[*p.ID]; !ok {
			return nil, 0, errorf("unsubscribe: no feed %d", *p.ID)
		}
		delete(ss.feeds, *p.ID)
		delete(ss.waiting, *p.ID)
		return nil, 0, nil
	case "call":
		return ss.feedCall(r.Param)
	}
	return nil, 0, errorf("unknown call %q", r.Call)
}

// eboards lists the boards, each flipped as one of this client's feeds
// asked.
func (ss *session) eboards() []EBoard {
	flipped := map[string]bool{}
	for _, f := range ss.feeds {
		flipped[f.board] = flipped[f.board] || f.flipped
	}
	out := []EBoard{}
	for _, b := range ss.s.view.list() {
		out = append(out, b.eboard(flipped[b.id]))
	}
	return out
}

// subscribe starts an eboardevent feed.
func (ss *session) subscribe(raw json.RawMessage) (any, int, error) {
	var p subscribeParam
	if err := decodeParam(raw, &p); err != nil {
		return nil, 0, errorf("subscribe: %v", err)
	}
	if p.Feed != "" && p.Feed != "eboardevent" {
		return nil, 0, errorf("subscribe: unknown feed %q (this server has eboardevent)", p.Feed)
	}
	name := ""
	if p.Param != nil {
		name = p.Param.SerialNr
	}
	b, ok := ss.s.view.find(name)
	if !ok {
		if name == "" {
			return nil, 0, errorf("subscribe: no e-board is connected")
		}
		return nil, 0, errorf("subscribe: no e-board with serial number %q", name)
	}
	id := 0
	if p.ID != nil {
		id = *p.ID
	} else {
		for fid := range ss.feeds {
			id = max(id, fid)
		}
		id++
	}
	if id == 0 {
		return nil, 0, errorf("subscribe: feed id 0 is not allowed")
	}
	if _, dup := ss.feeds[id]; dup {
		return nil, 0, errorf("subscribe: feed %d already exists", id)
	}
	if name == "" {
		name = b.serial
	}
	ss.feeds[id] = &feed{id: id, board: b.id, name: name, base: -1}
	ss.waiting[id] = time.Now().Add(initialWait)
	return nil, id, nil
}

// feedCall runs a feed method: setup or flip.
func (ss *session) feedCall(raw json.RawMessage) (any, int, error) {
	var p feedCallParam
	if err := decodeParam(raw, &p); err != nil || p.ID == nil {
		return nil, 0, errorf("call: want param {\"id\": <feed id>, \"method\", \"param\"}")
	}
	f, ok := ss.feeds[*p.ID]
	if !ok {
		return nil, 0, errorf("call: no feed %d", *p.ID)
	}
	switch p.Method {
	case "setup":
		var sp struct {
			FEN string `json:"fen"`
		}
		if err := decodeParam(p.Param, &sp); err != nil || sp.FEN == "" {
			return nil, 0, errorf("setup: want param {\"fen\": \"<FEN>\"}")
		}
		b, ok := ss.s.view.board(f.board)
		if !ok {
			return nil, 0, errorf("setup: the feed's e-board is gone")
		}
		if err := f.doSetup(sp.FEN, b.game); err != nil {
			return nil, 0, err
		}
		delete(ss.waiting, f.id) // the first frame counts from here
	case "flip":
		var fp struct {
			Flip *bool `json:"flip"`
		}
		if err := decodeParam(p.Param, &fp); err != nil || fp.Flip == nil {
			return nil, 0, errorf("flip: want param {\"flip\": true|false}")
		}
		f.flipped = *fp.Flip
	default:
		return nil, 0, errorf("call: unknown method %q (this feed has setup and flip)", p.Method)
	}
	return nil, f.id, nil
}

// decodeParam decodes a param into v; absent and null leave v as it is.
func decodeParam(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return json.Unmarshal(raw, v)
}
