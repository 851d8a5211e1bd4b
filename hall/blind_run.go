package hall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/rules/announce"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// BlindBoard is the blind player's own board of a relayed game
// (Board.Blind; the game's relay settings are Board.Session.Blind).
type BlindBoard struct {
	// ID names the board in <p>.board.<id>.status and its recording
	// directory; default "<board ID>-blind".
	ID string
	// Port is the device path, for the status (informational).
	Port string
	// Open opens the blind player's board (every reconnect calls it).
	Open port.Opener
	// Link tunes its transport.
	Link link.Settings
	// Speaker speaks the announcements (relay.speak); nil: no speech. It
	// runs on its own goroutine: the board goroutine never waits for it.
	Speaker *announce.Speaker
}

// SpeechQueue is how many announcements wait for the voice; more are
// dropped (and logged): a voice far behind the game helps nobody.
const SpeechQueue = 16

// blindRun is the blind-relay part of a board goroutine.
type blindRun struct {
	b      BlindBoard
	speech chan game.Announcement
	times  chan timeRequest
	status game.BoardStatus

	connected atomic.Bool
	lastErr   atomic.Value // string
}

type timeRequest struct {
	reply chan timeReply
}

type timeReply struct {
	a   game.Announcement
	err error
}

// ErrNoRelay: a time request names a game without a blind-player relay.
var ErrNoRelay = errors.New("hall: the game has no blind-player relay")

// prepareBlind sets up the relay state of every board with a blind
// player's board, before any goroutine starts.
func (h *Hall) prepareBlind() {
	for _, br := range h.boards {
		if br.b.Blind == nil || br.b.Session.Blind == nil {
			continue
		}
		bb := *br.b.Blind
		if bb.ID == "" {
			bb.ID = br.b.ID + "-blind"
		}
		br.blind = &blindRun{b: bb, times: make(chan timeRequest)}
		if bb.Speaker != nil {
			br.blind.speech = make(chan game.Announcement, SpeechQueue)
		}
	}
}

// startBlind starts the blind board's link (and the voice) of br; it
// returns the link's events (nil without a blind board) and the time
// requests.
func (br *boardRun) startBlind(ctx context.Context, wg *sync.WaitGroup) (<-chan link.Event, <-chan timeRequest) {
	bl := br.blind
	if bl == nil {
		return nil, nil
	}
	lo := bl.b.Link
	if lo.Logger == nil {
		lo.Logger = br.log.With("blind_board", bl.b.ID)
	}
	open := bl.b.Open
	if br.h.o.Record {
		open = recordingOpener(open, br.h.o.DataDir, bl.b.ID, br.h.o.Now, br.log)
	}
	lk := link.New(open, lo)
	bl.status = game.BoardStatus{BoardID: bl.b.ID, Port: bl.b.Port}
	wg.Go(func() { lk.Run(ctx) })
	if bl.speech != nil {
		sp, log := bl.b.Speaker, br.log
		wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case a := <-bl.speech:
					name := fmt.Sprintf("%s-%d-%s", a.Game, a.Ply, a.Kind)
					if _, err := sp.Speak(ctx, announce.Lang(a.Lang), a.Text, name); err != nil && ctx.Err() == nil {
						log.Warn("announcement not spoken", "err", err)
					}
				}
			}
		})
	}
	return lk.Events(), bl.times
}

// blindEvent handles one event of the blind player's board link.
func (br *boardRun) blindEvent(ev link.Event) {
	bl := br.blind
	switch e := ev.(type) {
	case link.Connected:
		bl.status.Connected, bl.status.Error = true, ""
		bl.status.Version, bl.status.Serial = e.Version.String(), e.Serial
		bl.status.LastSeen, bl.status.At = game.T(e.At), game.T(e.At)
		bl.connected.Store(true)
		bl.lastErr.Store("")
		br.h.notify()
		br.log.Info("blind player's board connected", "serial", e.Serial)
		br.publishStatus(bl.status)
	case link.Message:
		bl.status.LastSeen = game.T(e.At)
		br.apply(br.s.MessageFrom(game.BlindBoard, br.mono(e.At), e.Msg))
	case link.Disconnected:
		msg := "disconnected"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		bl.status.Connected, bl.status.Error, bl.status.At = false, msg, game.T(e.At)
		bl.connected.Store(false)
		bl.lastErr.Store(msg)
		br.h.notify()
		br.log.Warn("blind player's board disconnected", "err", msg)
		br.publishStatus(bl.status)
		br.apply(br.s.Device(e.At, game.DeviceBoard, true, "blind player's board "+bl.b.Port+": "+msg))
	case link.Resync:
		br.log.Debug("blind player's board: serial resync", "err", e.Err)
	}
}

// blindHealth returns the line of Hall.Health for the blind player's
// board of br, when it is not connected.
func (br *boardRun) blindHealth() []string {
	bl := br.blind
	if bl == nil || bl.connected.Load() {
		return nil
	}
	why := "not connected yet"
	if e, _ := bl.lastErr.Load().(string); e != "" {
		why = "disconnected: " + e
	}
	return []string{fmt.Sprintf("blind player's board %s (%s): %s", bl.b.ID, bl.b.Port, why)}
}

// answerTime answers a time request on the board goroutine: the
// announcement is published and spoken like any other, and returned.
func (br *boardRun) answerTime(req timeRequest) {
	a, ok, err := br.s.TimeAnnouncement(br.h.o.Now())
	if !ok && err == nil {
		err = ErrNoRelay
	}
	if err == nil {
		br.apply(session.Step{Out: []game.Payload{a}})
	}
	req.reply <- timeReply{a: a, err: err}
}

// announce publishes an announcement on <p>.relay.<g>.announce (when the
// sink can: *broadcast.Publisher does) and hands it to the voice without
// waiting.
func (br *boardRun) announce(a game.Announcement) error {
	if bl := br.blind; bl != nil && bl.speech != nil {
		select {
		case bl.speech <- a:
		default:
			br.log.Warn("voice behind: announcement not spoken", "ply", a.Ply, "kind", a.Kind)
		}
	}
	if p, ok := br.h.o.Sink.(interface {
		PublishAnnouncement(game.Announcement) error
	}); ok {
		return p.PublishAnnouncement(a)
	}
	return nil
}

// TimeSubject is the request subject of the talking clock of game g
// (D.2.6.1, D.2.10.4): <p>.api.relay.<g>.time. It is under <p>.api, not
// <p>.relay, because clients may not publish on the daemon's feed subjects
// (see broadcast.Role).
func TimeSubject(prefix string, g game.ID) string {
	return prefix + ".api.relay." + g.String() + ".time"
}

// hasBlind reports whether a game of the hall is relayed for a blind
// player (its talking clock then answers time requests).
func (h *Hall) hasBlind() bool {
	for _, br := range h.boards {
		if br.blind != nil {
			return true
		}
	}
	return false
}

// answerTime replies to one time request (<p>.api.relay.<g>.time) with the
// Announcement JSON of kind "time", or {"ok":false,"error":…}.
func (h *Hall) answerTime(ctx context.Context, req broadcast.Request) broadcast.Reply {
	ctx, done, ok := h.running(ctx)
	if !ok {
		return broadcast.StatusReply(errStopped)
	}
	defer done()
	// The board's current game, not the one it was configured with: after
	// its first game the board plays the next round's (reload.go).
	br, ended, ok := h.route(req.Game)
	if !ok {
		return notHere(ctx, fmt.Errorf("%w: %s", ErrNoRelay, req.Game))
	}
	if br.blind == nil {
		return broadcast.StatusReply(fmt.Errorf("%w: %s", ErrNoRelay, req.Game))
	}
	if ended {
		return broadcast.StatusReply(fmt.Errorf("%w: no talking clock for %s", ErrEndedGame, req.Game))
	}
	tr := timeRequest{reply: make(chan timeReply, 1)}
	select {
	case br.blind.times <- tr:
	case <-ctx.Done():
		return broadcast.StatusReply(errStopped)
	}
	var r timeReply
	select {
	case r = <-tr.reply:
	case <-ctx.Done():
		return broadcast.StatusReply(errStopped)
	}
	if r.err != nil {
		return broadcast.StatusReply(r.err)
	}
	if r.a.Game != req.Game { // the board moved on while the request waited
		return broadcast.StatusReply(fmt.Errorf("%w: no talking clock for %s", ErrEndedGame, req.Game))
	}
	b, err := json.Marshal(r.a)
	if err != nil {
		return broadcast.StatusReply(err)
	}
	return broadcast.Reply{Data: b}
}
