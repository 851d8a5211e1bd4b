package hall

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"
)

// serveRequests keeps handle subscribed to subject on a connection from
// Options.Commands until ctx is done, and returns then. A connection that
// cannot be made or subscribed is retried after a backoff (100 ms, doubling
// to 5 s); a connection that closes is replaced at once. On the way out the
// subscription is drained, so a request being handled is answered before
// serveRequests returns (handlers must return once ctx is done). what names
// the requests in log lines.
func (h *Hall) serveRequests(ctx context.Context, what, subject string, handle nats.MsgHandler) {
	const first, most = 100 * time.Millisecond, 5 * time.Second
	backoff := first
	wait := func() bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, most)
		return true
	}
	for ctx.Err() == nil {
		nc, err := h.o.Commands(ctx)
		if err != nil {
			h.log.Warn(what+": no NATS connection", "err", err)
			if !wait() {
				return
			}
			continue
		}
		closed := make(chan struct{})
		nc.SetClosedHandler(func(*nats.Conn) { close(closed) })
		_, err = nc.Subscribe(subject, handle)
		if err == nil {
			err = nc.Flush()
		}
		if err != nil {
			h.log.Warn(what+": subscribe failed", "subject", subject, "err", err)
			nc.Close()
			if !wait() {
				return
			}
			continue
		}
		backoff = first
		select {
		case <-ctx.Done():
			// Drain lets the handler in progress finish (ctx is done, so
			// it returns promptly) and then closes the connection.
			if nc.Drain() != nil {
				nc.Close()
			}
			<-closed
			return
		case <-closed:
		}
	}
}

// commandReply is the JSON of the {ok, error} reply (interfaces.md §3.1)
// for err (nil: ok).
func commandReply(err error) []byte {
	r := CommandReply{OK: err == nil}
	if err != nil {
		r.Error = err.Error()
	}
	b, _ := json.Marshal(r) // two plain fields: cannot fail
	return b
}

// respond sends data as the reply to request m (none when m has no reply
// subject). A failed reply is logged: the requester's own timeout tells it.
func (h *Hall) respond(m *nats.Msg, what string, data []byte) {
	if m.Reply == "" {
		return
	}
	if err := m.Respond(data); err != nil {
		h.log.Warn(what+": reply failed", "subject", m.Subject, "err", err)
	}
}
