package hall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/hall/session"
)

// ErrBadInput: a request the hall cannot read (not the JSON it takes, a
// field out of range).
var ErrBadInput = errors.New("hall: bad request")

// answerInput serves <p>.input.<g>.move (docs/contract.md §3.1): the entered
// move is judged on its board's goroutine (Session.Enter) like a board's
// move, and the reply {ok, error, ply} comes once its effects are handed
// to storage. Only the game a board plays now takes moves.
func (h *Hall) answerInput(ctx context.Context, req broadcast.Request) broadcast.Reply {
	ctx, done, ok := h.running(ctx)
	if !ok {
		return inputReply(0, errStopped)
	}
	defer done()
	br, ok := h.current(req.Game)
	if !ok {
		return inputReply(0, fmt.Errorf("%w: no game %s is played in this hall now", session.ErrNotEnterable, req.Game))
	}
	var in session.Input
	dec := json.NewDecoder(bytes.NewReader(req.Data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return inputReply(0, fmt.Errorf(`%w: want {"move":"P2-5","notation":"vi|wxf|iccs|san|uci","clock":{"white_ms":…,"black_ms":…}}: %v`, ErrBadInput, err))
	}
	ply := 0
	err := h.onBoard(ctx, br, func(br *boardRun) error {
		if g := br.s.Record().Info.Game; g != req.Game {
			return fmt.Errorf("%w: board %s plays %s now", session.ErrNotEnterable, br.b.ID, g)
		}
		st, p, err := br.s.Enter(br.mono(br.h.o.Now()), in)
		br.apply(st)
		ply = p
		return err
	})
	return inputReply(ply, err)
}

// inputReply is the {ok, error, ply} reply.
func inputReply(ply int, err error) broadcast.Reply {
	r := session.InputReply{OK: err == nil, Ply: ply}
	if err != nil {
		r.Error = err.Error()
		r.Ply = 0
	}
	b, _ := json.Marshal(r) // plain fields: cannot fail
	return broadcast.Reply{Data: b}
}

// identifyCommand is the arbiter command that names a piece an occupancy
// board cannot (<p>.arbiter.<g>.cmd): {"cmd":"identify","square":"e4","piece":"N"}
// ("piece" "" or "-": the point is empty), with the unidentified_piece
// alert it answers in "alert_id" (optional).
type identifyCommand struct {
	Cmd     string `json:"cmd"`
	Square  string `json:"square"`
	Piece   string `json:"piece"`
	AlertID string `json:"alert_id,omitempty"`
	By      string `json:"by,omitempty"`
}

// answerIdentify applies an identify command on the board's goroutine.
func (h *Hall) answerIdentify(ctx context.Context, br *boardRun, ended bool, req broadcast.Request) broadcast.Reply {
	if ended {
		return broadcast.StatusReply(fmt.Errorf("%w: identify: the game has ended", ErrEndedGame))
	}
	var c identifyCommand
	if err := json.Unmarshal(req.Data, &c); err != nil {
		return broadcast.StatusReply(fmt.Errorf("%w: identify: %v", ErrBadInput, err))
	}
	return broadcast.StatusReply(h.onBoard(ctx, br, func(br *boardRun) error { return br.identify(c) }))
}
