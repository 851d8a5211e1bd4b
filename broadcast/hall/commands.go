package hall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/arbiter"
	"github.com/nats-io/nats.go"
)

// CommandReply is the reply to an arbiter command (interfaces.md §3.1):
// {"ok":true,"error":""} or {"ok":false,"error":"<why>"}, the same as
// the publisher's responder gives.
type CommandReply = broadcast.CommandReply

// serveCommands answers <p>.arbiter.*.*.*.cmd until ctx is done,
// reconnecting when the connection closes.
func (h *Hall) serveCommands(ctx context.Context) {
	h.serveRequests(ctx, "arbiter commands", h.o.Subjects.Prefix+".arbiter.*.*.*.cmd",
		func(m *nats.Msg) { h.answer(ctx, m) })
}

// answer applies one command on its board's goroutine and replies once the
// effects are persisted and journalled.
func (h *Hall) answer(ctx context.Context, m *nats.Msg) {
	reply := func(err error) { h.respond(m, "arbiter command", commandReply(err)) }
	p := h.o.Subjects.Prefix + ".arbiter."
	gs := strings.TrimSuffix(strings.TrimPrefix(m.Subject, p), ".cmd")
	g, err := broadcast.ParseGameID(gs)
	if err != nil {
		reply(fmt.Errorf("bad game in subject %s: %w", m.Subject, err))
		return
	}
	br, ok := h.current(g)
	if !ok {
		reply(fmt.Errorf("no game %s in this hall", g))
		return
	}
	var c arbiter.Command
	if err := json.Unmarshal(m.Data, &c); err != nil {
		reply(fmt.Errorf("%w: not a JSON command: %v", arbiter.ErrBadCommand, err))
		return
	}
	done := make(chan error, 1)
	select {
	case br.cmds <- command{to: br, cmd: c, reply: done}:
	case <-ctx.Done():
		reply(errors.New("daemon stopping"))
		return
	}
	select {
	case err := <-done:
		reply(err)
	case <-ctx.Done():
		reply(errors.New("daemon stopping"))
	}
}
