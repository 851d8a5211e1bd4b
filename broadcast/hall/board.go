package hall

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// command is an arbiter command on its way to the board goroutine.
type command struct {
	to    *boardRun
	cmd   adjudicator.Command
	reply chan error
	// do, when set, runs on the board goroutine instead of cmd (a reload,
	// a command on the game before the current one: reload.go).
	do func(*boardRun) error
}

// boardRun is one board: the goroutine that owns its link and session.
type boardRun struct {
	h    *Hall
	b    Board
	rec  *Record // loaded record (nil: new game); owned by run after start
	cmds chan command
	log  *slog.Logger
	// saved receives the outcome of this board's record saves (one in
	// flight at a time).
	saved chan error

	connected atomic.Bool
	lastErr   atomic.Value // string

	mu    sync.Mutex
	snap  *Record // a copy for Hall.Record
	ended game.ID // the game played before the current one (reload.go)

	s        *Session
	lk       *link.Link
	ctx      context.Context
	status   broadcast.BoardStatus
	lostOnce bool
	blind    *blindRun // the blind player's board (blind_run.go), or nil
	last     time.Time // latest time fed to the session (mono)
}

// run is the board goroutine.
func (br *boardRun) run(ctx context.Context) error {
	if err := br.start(ctx); err != nil {
		return err
	}
	return br.serveLink(ctx)
}

// start resumes or begins the game and hands again what a previous run may
// not have journalled.
func (br *boardRun) start(ctx context.Context) error {
	now := br.h.o.Now()
	s, err := NewSession(br.b.Session, br.rec, now)
	if err != nil {
		return err
	}
	br.s = s
	br.ctx = ctx
	// Hand again what a previous run may not have journalled: the moves
	// after Published (same message ids: the streams drop repeats) and
	// the state.
	rec := s.Record()
	var resend []game.Payload
	if c := rec.LastCorrection; c != nil && c.Revision == rec.Revision {
		resend = append(resend, *c)
	}
	for p := rec.Published + 1; p <= len(rec.Moves); p++ {
		resend = append(resend, rec.MoveEvent(p))
	}
	if rec.Result != "" && rec.Result != "*" {
		resend = append(resend, rec.ResultPayload(rec.UpdatedAt))
	}
	br.apply(Step{Out: resend, Changed: true})
	br.status = broadcast.BoardStatus{BoardID: br.b.ID, Port: br.b.Port, BusAddress: int(br.b.BusAddress)}
	return nil
}

// serveLink owns the board's own line (dgt/link) until ctx is done.
func (br *boardRun) serveLink(ctx context.Context) error {
	lo := br.b.Link
	if lo.Logger == nil {
		lo.Logger = br.log
	}
	open := br.b.Open
	if br.h.o.Record {
		open = recordingOpener(open, br.h.o.DataDir, br.b.ID, br.h.o.Now, br.log)
	}
	br.lk = link.New(open, lo)
	var lw sync.WaitGroup
	lw.Go(func() { br.lk.Run(ctx) })
	defer lw.Wait()
	blindEvs, timeReqs := br.startBlind(ctx, &lw)

	tick := time.NewTicker(br.h.o.Tick)
	defer tick.Stop()
	for {
		select {
		case ev, ok := <-br.lk.Events():
			if !ok {
				// Run returned (ctx done): finish what the tracker
				// holds is not done here — moves not completed stay
				// made on the board and are caught up on restart.
				br.persistOnly()
				return nil
			}
			br.event(ev)
		case <-tick.C:
			br.apply(br.s.Tick(br.mono(br.h.o.Now())))
		case ev, ok := <-blindEvs:
			if !ok {
				blindEvs = nil
				continue
			}
			br.blindEvent(ev)
		case req := <-timeReqs:
			br.answerTime(req)
		case c := <-br.cmds:
			br.command(c)
		}
	}
}

// command applies an arbiter command (on the goroutine owning the board).
func (br *boardRun) command(c command) {
	if c.do != nil {
		c.reply <- c.do(br)
		return
	}
	st, err := br.s.Command(c.cmd, br.mono(br.h.o.Now()))
	if err == nil {
		br.apply(st)
	}
	c.reply <- err
}

// mono keeps the session's input in time order: a link event is stamped
// when its bytes were read and may reach this goroutine after a tick
// stamped later; the pure cores must never see time go backwards (a
// window judged at a tick would otherwise be judged again, or a press read
// before the placement it completes).
func (br *boardRun) mono(t time.Time) time.Time {
	if t.Before(br.last) {
		return br.last
	}
	br.last = t
	return t
}

// event handles one link event.
func (br *boardRun) event(ev link.Event) {
	switch e := ev.(type) {
	case link.Connected:
		clk := ""
		if e.Clock {
			clk = "DGT 3000"
			if e.ClockVersion[0] < 2 {
				clk = "DGT XL"
			}
		}
		br.up(e.At, e.Version.String(), e.Serial, clk)
	case link.Message:
		br.status.LastSeen = game.T(e.At)
		br.apply(br.s.Message(br.mono(e.At), e.Msg))
	case link.Disconnected:
		msg := "disconnected"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		br.down(e.At, msg)
	case link.Resync:
		br.log.Debug("serial resync", "err", e.Err)
	}
}

// up: the board answers (again); its status is published and, after a
// loss, the arbiter learns it is back.
func (br *boardRun) up(at time.Time, version, serial, clk string) {
	br.status.Connected = true
	br.status.Version = version
	br.status.Serial = serial
	br.status.Clock = clk
	br.status.Error = ""
	br.status.LastSeen = game.T(at)
	br.status.At = game.T(at)
	br.connected.Store(true)
	br.lastErr.Store("")
	br.h.notify()
	br.log.Info("board connected", "serial", serial, "version", version, "clock", clk)
	br.publishStatus(br.status)
	if br.lostOnce {
		br.apply(br.s.Device(br.mono(at), game.DeviceBoard, false, ""))
	}
}

// down: the board was lost (msg says why); status and a board_disconnected
// alert for the arbiter.
func (br *boardRun) down(at time.Time, msg string) {
	br.status.Connected = false
	br.status.Error = msg
	br.status.At = game.T(at)
	br.connected.Store(false)
	br.lastErr.Store(msg)
	br.h.notify()
	br.log.Warn("board disconnected", "err", msg)
	br.lostOnce = true
	br.publishStatus(br.status)
	br.apply(br.s.Device(br.mono(at), game.DeviceBoard, true, br.b.Port+": "+msg))
}

// apply persists the record when it changed (group-committed with other
// boards' saves, groupsave.go), then hands the payloads to
// the sink in order, then the GameState. Nothing is published that the
// record file does not already imply.
func (br *boardRun) apply(st Step) {
	if len(st.Out) == 0 && len(st.Clock) == 0 && !st.Changed {
		return
	}
	rec := br.s.Record()
	if st.Changed {
		if err := br.h.saver.save(br.h.gamesDir(), rec, br.saved); err != nil {
			// Without the record nothing may be published that a
			// restart would contradict; the next change retries.
			br.log.Error("game record not saved; holding publication", "err", err)
			return
		}
		br.mu.Lock()
		cp := *rec
		cp.Moves = slices.Clone(rec.Moves)
		br.snap = &cp
		br.mu.Unlock()
	}
	br.noteFinished(st.Finished)
	sink := br.h.o.Sink
	g := rec.Info.Game
	for _, out := range st.Out {
		var err error
		switch p := out.(type) {
		case game.MoveEvent:
			err = sink.PublishMove(p)
			if err == nil && p.Revision == rec.Revision && p.Ply > rec.Published {
				rec.Published = p.Ply
			}
		case game.Correction:
			err = sink.PublishCorrection(p)
		case game.ClockEvent:
			err = sink.PublishClock(p)
		case game.Result:
			err = sink.PublishResult(p)
		case game.Alert:
			err = sink.PublishAlert(p)
		case game.Announcement:
			err = br.announce(p)
		}
		if err != nil {
			br.log.Error("publish failed", "err", err)
		}
		if br.h.o.Observer != nil {
			br.h.o.Observer(Observation{Board: br.b.ID, Game: g, Payload: out})
		}
	}
	for _, c := range st.Clock {
		br.clockCommand(c)
	}
	if st.Changed {
		if err := sink.PublishState(rec.State()); err != nil {
			br.log.Error("publish state failed", "err", err)
		}
	}
}

// publishStatus publishes a board's connection status.
func (br *boardRun) publishStatus(b broadcast.BoardStatus) {
	if err := br.h.o.Sink.PublishBoardStatus(b); err != nil {
		br.log.Error("publish failed", "err", err)
	}
}

// persistOnly saves the record once more on the way out (Published may
// have advanced since the last save).
func (br *boardRun) persistOnly() {
	if err := br.h.saver.save(br.h.gamesDir(), br.s.Record(), br.saved); err != nil {
		br.log.Error("game record not saved at shutdown", "err", err)
	}
}

// clockCommand sends a SetNRun to the clock without blocking the board
// goroutine (the link waits for the ACK), with the levers left working
// (toggle on lever); a failure is an alert for the arbiter, never a
// message to the players. Nothing else is sent: no END (0x03, it only
// restores the display), no text, no beep (Art 12.6).
func (br *boardRun) clockCommand(c game.ClockCommand) {
	if br.lk == nil {
		br.clockFailed(c, len(br.s.Record().Moves), errNoClockOnBus)
		return
	}
	ply := len(br.s.Record().Moves)
	white, black := dgt.SettingOf(c.White), dgt.SettingOf(c.Black)
	cmd := dgt.SetNRun{Left: white, Right: black}
	runWhite, runBlack := byte(dgt.RunLeft), byte(dgt.RunRight)
	if br.b.WhiteRight {
		cmd.Left, cmd.Right = black, white
		runWhite, runBlack = dgt.RunRight, dgt.RunLeft
	}
	switch c.Running {
	case rules.White:
		cmd.Flags = runWhite
	case rules.Black:
		cmd.Flags = runBlack
	default:
		cmd.Flags = dgt.RunPause
	}
	// SetNRun leaves the clock in its PC-controlled mode, where only this
	// flag lets the levers switch the running side; without it every
	// later press would be ignored. The clock adds no increment in that
	// mode (the arbiter's alert says so; rules/clock expects it).
	cmd.Flags |= dgt.ToggleOnLever
	lk, ctx := br.lk, br.ctx
	go func() {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := lk.Clock(cctx, cmd); err != nil && ctx.Err() == nil {
			br.clockFailed(c, ply, err)
		}
	}()
}

// errNoClockOnBus: clock commands cannot be sent to a board on a bus line.
var errNoClockOnBus = errors.New("clock commands cannot be sent over a DGT bus line")

// clockFailed tells the arbiter that a clock setting did not reach the
// clock. Safe from any goroutine (it only uses the sink).
func (br *boardRun) clockFailed(c game.ClockCommand, ply int, err error) {
	g := br.b.Session.Info.Game
	br.log.Error("clock command failed", "reason", c.Reason, "err", err)
	at := time.Now()
	a := game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, KindClockCommandFailed, ply, at.UnixMilli()), Game: g,
		Kind: KindClockCommandFailed, Severity: game.Warn, Ply: ply, At: game.T(at),
		Message:  fmt.Sprintf("The clock did not take the setting asked for (%s): %v. Set it by hand.", c.Reason, err),
		Proposal: map[string]any{"white_ms": game.Millis(c.White), "black_ms": game.Millis(c.Black)}}
	if err := br.h.o.Sink.PublishAlert(a); err != nil {
		br.log.Error("publish alert failed", "err", err)
	}
}
