package hall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Spare is a DGT board kept ready on its own port (Options.Spares): when
// a game's board fails mid-game, the arbiter moves the game onto it with
// the command {"cmd":"switch_board","to":"<spare id>"} (and back onto the
// board's own port with "to" the board's id). The game's board goroutine
// then reads the spare instead: the record, the clocks and the public copy
// go on, and the old board is no longer read for the game (a reconnection
// of it writes nothing into it). Nothing the spare shows counts until it
// shows the game's position (spare_setup alerts tell the arbiter what
// differs); the daemon never makes up moves to explain it. The switch is
// kept in the record (Record.Spare, the board's next games too): a
// restart reads the spare again.
type Spare struct {
	// ID names the spare in the command and its recordings (a subject
	// token, [a-z0-9_-]+, not a board's id).
	ID string
	// Port is the device path, for the status.
	Port string
	// Open opens the port.
	Open port.Opener
	// Link tunes the transport (zero: link's defaults).
	Link link.Settings
}

// ErrSwitch: a switch_board command the hall cannot carry out (wrapped
// with the reason).
var ErrSwitch = errors.New("hall: switch_board")

// switchCommand is {"cmd":"switch_board","to":"<spare id or board id>"}.
type switchCommand struct {
	Cmd string `json:"cmd"`
	To  string `json:"to"`
	By  string `json:"by,omitempty"`
}

// source is a port a board goroutine reads: the board's own or a spare's.
type source struct {
	id, port string
	open     port.Opener
	link     link.Settings
	spare    bool
}

// prepareSpares checks Options.Spares and takes note of the games the
// stored records say are read from a spare.
func (h *Hall) prepareSpares() error {
	h.spares = map[string]*Spare{}
	h.spareOf = map[string]*boardRun{}
	ids := map[string]bool{}
	for _, br := range h.boards {
		ids[br.b.ID] = true
	}
	for i := range h.o.Spares {
		sp := &h.o.Spares[i]
		switch {
		case !broadcast.ValidToken(sp.ID):
			return fmt.Errorf("%w: spare %d: id %q is not a subject token ([a-z0-9_-]+)", ErrOptions, i+1, sp.ID)
		case ids[sp.ID] || h.spares[sp.ID] != nil:
			return fmt.Errorf("%w: spare id %q used twice (boards and spares have distinct ids)", ErrOptions, sp.ID)
		case sp.Open == nil:
			return fmt.Errorf("%w: spare %s: no port", ErrOptions, sp.ID)
		}
		h.spares[sp.ID] = sp
	}
	for _, br := range h.boards {
		if br.rec == nil || br.rec.Spare == "" {
			continue
		}
		if _, ok := h.spares[br.rec.Spare]; !ok || h.spareOf[br.rec.Spare] != nil {
			h.log.Warn("the game was read from a spare that is not configured now (or twice): its board's own port is read",
				"game", br.rec.Info.Game, "spare", br.rec.Spare)
			continue
		}
		h.spareOf[br.rec.Spare] = br
		br.spareNow = br.rec.Spare
	}
	return nil
}

// readFrom returns the port the board reads now: the spare its record
// names (when it is one of the hall's), else its own.
func (br *boardRun) readFrom() source {
	if sp := br.h.spares[br.spareNow]; sp != nil {
		return source{id: sp.ID, port: sp.Port, open: sp.Open, link: sp.Link, spare: true}
	}
	return source{id: br.b.ID, port: br.b.Port, open: br.b.Open, link: br.b.Link}
}

// runLink starts the link of src on the board goroutine's group: br.lk
// reads it until ctx is done or stopLink.
func (br *boardRun) runLink(ctx context.Context, wg *sync.WaitGroup, src source) {
	lo := src.link
	if lo.Logger == nil {
		lo.Logger = br.log.With("port", src.port)
	}
	open := src.open
	if br.h.o.Record {
		open = recordingOpener(open, br.h.o.DataDir, src.id, br.h.o.Now, br.log)
	}
	lctx, cancel := context.WithCancel(ctx)
	lk := link.New(open, lo)
	done := make(chan struct{})
	wg.Go(func() { defer close(done); lk.Run(lctx) })
	br.lk, br.lw, br.ctx = lk, wg, ctx
	br.stopLink = func() { cancel(); <-done }
	br.status.Port = src.port
	br.where.Store(src.port)
	br.spareNow = ""
	if src.spare {
		br.spareNow = src.id
	}
}

// answerSwitch serves switch_board on the game's board goroutine.
func (h *Hall) answerSwitch(ctx context.Context, br *boardRun, ended bool, req broadcast.Request) broadcast.Reply {
	if ended {
		return broadcast.StatusReply(fmt.Errorf("%w: the game has ended", ErrSwitch))
	}
	var c switchCommand
	if err := json.Unmarshal(req.Data, &c); err != nil {
		return broadcast.StatusReply(fmt.Errorf("%w: %v", ErrBadInput, err))
	}
	return broadcast.StatusReply(h.onBoard(ctx, br, func(br *boardRun) error { return br.switchTo(c) }))
}

// syncSpare keeps the record's Spare the spare read now (a next game on
// the board included), so that a restart reads the same board.
func (br *boardRun) syncSpare(rec *gamerecord.Record) bool {
	if rec.Spare == br.spareNow {
		return false
	}
	rec.Spare = br.spareNow
	return true
}

// switchTo moves the game onto the board c names (on the board goroutine).
func (br *boardRun) switchTo(c switchCommand) error {
	h := br.h
	if br.b.Protocol != ProtocolDGT || br.b.BusAddress > 0 || br.blind != nil || br.team != nil || br.lk == nil {
		return fmt.Errorf("%w: only a game read from a DGT board on its own port moves to another board (not a bus line, a relayed or team game)", ErrSwitch)
	}
	var to source
	switch sp := h.spares[c.To]; {
	case c.To == br.b.ID:
		to = source{id: br.b.ID, port: br.b.Port, open: br.b.Open, link: br.b.Link}
	case sp != nil:
		to = source{id: sp.ID, port: sp.Port, open: sp.Open, link: sp.Link, spare: true}
	default:
		return fmt.Errorf("%w: %q is no spare of this hall (the spares: %s; or %q, the board's own port)", ErrSwitch, c.To, h.spareList(), br.b.ID)
	}
	from := br.readFrom()
	if to.id == from.id {
		return fmt.Errorf("%w: the game is read from %s already", ErrSwitch, to.id)
	}
	h.mu.Lock()
	if user := h.spareOf[to.id]; to.spare && user != nil && user != br {
		h.mu.Unlock()
		return fmt.Errorf("%w: spare %s reads the game of board %s now", ErrSwitch, to.id, user.b.ID)
	}
	if from.spare {
		delete(h.spareOf, from.id)
	}
	if to.spare {
		h.spareOf[to.id] = br
	}
	h.mu.Unlock()

	// The old board: what it sent before the switch counts, and it is read
	// no more for this game.
	old := br.lk
	waiting := pending(old.Events())
	br.stopLink()
	for ev, ok := <-old.Events(); ok; ev, ok = <-old.Events() {
		waiting = append(waiting, ev)
	}
	for _, ev := range waiting {
		if _, lost := ev.(link.Disconnected); !lost {
			br.event(ev)
		}
	}
	now := br.h.o.Now()
	if br.connected.Load() { // a board lost already: the session knows
		br.down(now, fmt.Sprintf("the arbiter moved the game to %s (%s)", to.id, to.port))
	}
	rec := br.s.Record()
	br.setup = &spareSetup{id: to.id, port: to.port}
	br.boardLog, br.awaitLog, br.held, br.tail = nil, false, nil, nil
	br.runLink(br.ctx, br.lw, to)
	br.log.Warn("game moved to another board", "to", to.id, "port", to.port, "by", c.By)
	g := rec.Info.Game
	ply := len(rec.Moves)
	a := game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindCommand, ply, now.UnixMilli()), Game: g, Kind: game.KindCommand,
		Severity: game.Info, Ply: ply, At: game.T(now),
		Message: fmt.Sprintf("The game is read from %s (%s) from now on, no longer from %s (%s). Set that board up to the game's position "+
			"(after ply %d): nothing it shows counts until it does.", to.id, to.port, from.id, from.port, ply),
		Proposal: map[string]any{"cmd": "switch_board", "to": to.id, "port": to.port, "from": from.id, "by": c.By}}
	br.apply(sessionStep([]game.Payload{a}, true))
	return nil
}

// spareList names the hall's spares, for an error.
func (h *Hall) spareList() string {
	var ids []string
	for id := range h.spares {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return "none configured"
	}
	slices.Sort(ids)
	return strings.Join(ids, ", ")
}

// portNow is the port the board reads now (its own, or a spare's).
func (br *boardRun) portNow() string {
	if p, _ := br.where.Load().(string); p != "" {
		return p
	}
	return br.b.Port
}

// spareTold is how long a spare being set up waits before it tells the
// arbiter again what still differs.
const spareTold = 10 * time.Second
