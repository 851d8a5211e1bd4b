package broadcast

import (
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// jsProxy answers the consumer creations of the staff accounts (they
// import $JS.API.CONSUMER.CREATE.<stream>… from [consumerCreateProxy]):
// a consumer is made in the daemon's account, where a push consumer's
// deliver subject, chosen by whoever asks, would be published on (e.g.
// <p>.public.<g>.move, stored in the PUBLIC stream). So a pull consumer
// (no deliver subject; its messages go to each pull request's reply,
// which returns to the asker's account) that is not durable is passed to
// the server's JetStream API; anything else is refused with a JetStream
// API error.
type jsProxy struct {
	nc  *nats.Conn
	log *slog.Logger
}

// jsProxyTimeout bounds the forwarded request.
const jsProxyTimeout = 5 * time.Second

// startJSProxy subscribes the proxy on nc (the daemon's account); it owns
// nc from then on.
func startJSProxy(nc *nats.Conn, log *slog.Logger) (*jsProxy, error) {
	if log == nil {
		log = discardLogger()
	}
	p := &jsProxy{nc: nc, log: log}
	if _, err := nc.Subscribe(consumerCreateProxy+".>", p.handle); err != nil {
		nc.Close()
		return nil, err
	}
	if err := nc.Flush(); err != nil {
		nc.Close()
		return nil, err
	}
	return p, nil
}

func (p *jsProxy) close() { p.nc.Close() }

// consumerCreate is the part of a consumer creation request the proxy
// judges.
type consumerCreate struct {
	Config struct {
		DeliverSubject string `json:"deliver_subject"`
		Durable        string `json:"durable_name"`
	} `json:"config"`
}

// jsAPIError is a JetStream API error reply.
type jsAPIError struct {
	Type  string `json:"type"`
	Error struct {
		Code        int    `json:"code"`
		ErrCode     int    `json:"err_code"`
		Description string `json:"description"`
	} `json:"error"`
}

func (p *jsProxy) handle(m *nats.Msg) {
	if !strings.HasPrefix(m.Reply, "_R_.") {
		return // only service imports send here; their replies are _R_.
	}
	var req consumerCreate
	if err := json.Unmarshal(m.Data, &req); err != nil {
		p.refuse(m, "not a consumer creation request: "+err.Error())
		return
	}
	switch {
	case req.Config.DeliverSubject != "":
		p.refuse(m, "push consumers are not allowed here (deliver_subject): use a pull consumer")
		return
	case req.Config.Durable != "":
		p.refuse(m, "durable consumers are not allowed here: use an ephemeral or ordered pull consumer")
		return
	}
	subject := "$JS.API.CONSUMER.CREATE." + strings.TrimPrefix(m.Subject, consumerCreateProxy+".")
	r, err := p.nc.Request(subject, m.Data, jsProxyTimeout)
	if err != nil {
		p.refuse(m, "consumer creation failed: "+err.Error())
		return
	}
	if err := m.Respond(r.Data); err != nil {
		p.log.Warn("consumer creation reply failed", "err", err)
	}
}

func (p *jsProxy) refuse(m *nats.Msg, why string) {
	var e jsAPIError
	e.Type = "io.nats.jetstream.api.v1.consumer_create_response"
	e.Error.Code, e.Error.ErrCode, e.Error.Description = 403, 10000, "dgtbridge: "+why
	b, _ := json.Marshal(e) // plain fields: cannot fail
	if err := m.Respond(b); err != nil {
		p.log.Warn("consumer creation reply failed", "err", err)
	}
}
