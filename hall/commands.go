package hall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
)

// CommandReply is the reply to an arbiter command (docs/contract.md §3.1):
// {"ok":true,"error":""} or {"ok":false,"error":"<why>"}.
type CommandReply = broadcast.CommandReply

// errStopped: a request came while the hall is not running.
var errStopped = errors.New("daemon stopping")

// handleRequests adds the hall's routes to the daemon's responder.
func (h *Hall) handleRequests() {
	r := h.o.Requests
	if r == nil {
		return
	}
	r.Handle(h.o.Subjects.Prefix+".arbiter.*.*.*.cmd", broadcast.Staff, h.answer)
	r.Handle(h.o.Subjects.Prefix+".input.*.*.*.move", broadcast.Staff, h.answerInput) // input_route.go
	if h.hasBlind() {
		r.Handle(h.o.Subjects.Prefix+".api.relay.*.*.*.time", broadcast.Staff, h.answerTime)
	}
}

// notHereWait is how long a daemon waits before it says a request's game
// is not in its hall: on a cluster every daemon hears the request, and the
// one whose hall has the game answers first (the requester takes the first
// answer).
const notHereWait = time.Second

// notHere is the reply to a request for a game this hall does not have,
// after notHereWait.
func notHere(ctx context.Context, err error) broadcast.Reply {
	t := time.NewTimer(notHereWait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return broadcast.StatusReply(err)
}

// running returns a context that is done when either ctx or the hall's
// Run is done; ok is false while Run has not started or has returned.
func (h *Hall) running(ctx context.Context) (context.Context, context.CancelFunc, bool) {
	h.mu.Lock()
	rc := h.runCtx
	h.mu.Unlock()
	if rc == nil || rc.Err() != nil {
		return nil, nil, false
	}
	c, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(rc, cancel)
	return c, func() { stop(); cancel() }, true
}

// answer applies one command on its board's goroutine and replies once the
// effects are persisted and journalled.
func (h *Hall) answer(ctx context.Context, req broadcast.Request) broadcast.Reply {
	ctx, done, ok := h.running(ctx)
	if !ok {
		return broadcast.StatusReply(errStopped)
	}
	defer done()
	br, ended, ok := h.route(req.Game)
	if !ok {
		return notHere(ctx, fmt.Errorf("no game %s in this hall", req.Game))
	}
	var c adjudicator.Command
	if err := json.Unmarshal(req.Data, &c); err != nil {
		return broadcast.StatusReply(fmt.Errorf("%w: not a JSON command: %v", adjudicator.ErrBadCommand, err))
	}
	if c.Cmd == "switch_board" {
		return h.answerSwitch(ctx, br, ended, req) // spare.go: the board's, not the adjudicator's
	}
	if c.Cmd == "identify" {
		return h.answerIdentify(ctx, br, ended, req) // input_route.go: a board's, not the adjudicator's
	}
	reply := make(chan error, 1)
	select {
	case br.cmds <- endedOr(command{to: br, cmd: c, reply: reply}, ended, req.Game):
	case <-ctx.Done():
		return broadcast.StatusReply(errStopped)
	}
	select {
	case err := <-reply:
		return broadcast.StatusReply(err)
	case <-ctx.Done():
		return broadcast.StatusReply(errStopped)
	}
}
