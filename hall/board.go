package hall

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
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
	rec  *gamerecord.Record // loaded record (nil: new game); owned by run after start
	cmds chan command
	log  *slog.Logger
	// handed is what of the record the writer has been handed (delta).
	handed handedState
	// notes: damage found in the stored record at start, for the arbiter.
	notes []string
	// history: what was published of a damaged game, on its way
	// (history.go); recovered: rec was made of it (the writer does not
	// have it yet).
	history   chan historyResult
	recovered bool

	connected atomic.Bool
	lastErr   atomic.Value // string

	mu    sync.Mutex
	snap  *gamerecord.Record // a copy for Hall.Record
	ended game.ID            // the game played before the current one (reload.go)

	s        *session.Session
	lk       *link.Link
	ctx      context.Context
	status   game.BoardStatus
	lostOnce bool
	blind    *blindRun // the blind player's board (blind_run.go), or nil
	team     *teamRun  // a team-drop board's partner (team_run.go), or nil
	obp      *obpState // an OBP board's link and translator (obp.go), or nil
	// The clock events of moves left out (fewer.go).
	running    string // the running side of the last clock event
	heldClk    heldClock
	lastMove   game.MoveEvent
	lastMoveAt time.Time
	// boardLog is the board's event log read on its (re)connection, kept
	// until the board's position follows (recover.go).
	boardLog *game.BoardLog
	// awaitLog: the board was heard again and its first full read has not
	// come yet; when it comes without a log, the session is told
	// (Session.Unlogged).
	awaitLog bool
	last     time.Time // latest time fed to the session (mono)
	// tail: a bus board's records since it last showed its record's
	// position at rest (busmany.go); tailLost: too many to keep.
	tail     []dgt.EEEvent
	tailLost bool
	// held: a bus answer with many presses that did not read as the
	// board's log, held for the board's next answer (busmany.go).
	held *heldAnswer
	// answered: a bus board's last answer fed whole (a full read counts):
	// every change it made up to then is in; the line's ticks go no
	// further (bus.go).
	answered time.Time
	// setup: the board the game was just moved to, until it shows the
	// game's position (spare_setup.go); nil otherwise. stopLink ends the
	// link now read (its goroutine in lw); where is the port read now
	// (spare.go).
	setup    *spareSetup
	spareNow string // the spare read now ("": the board's own port)
	stopLink func()
	lw       *sync.WaitGroup
	where    atomic.Value // string
	// heard: when the link last delivered a message of the board (zero
	// before the connection's first); damaged: when it found the damage
	// it is repairing (linkrepair.go), zero when none.
	heard, damaged time.Time
}

// run is the board goroutine.
func (br *boardRun) run(ctx context.Context) error {
	if err := br.start(ctx); err != nil {
		return err
	}
	switch br.b.Protocol {
	case ProtocolOBP:
		return br.serveOBP(ctx) // obp.go
	case ProtocolManual:
		return br.serveManual(ctx) // manual.go
	}
	return br.serveLink(ctx)
}

// start resumes or begins the game and hands again what a previous run may
// not have journalled.
func (br *boardRun) start(ctx context.Context) error {
	br.ctx = ctx
	if br.team != nil {
		return br.startTeam()
	}
	now := br.h.o.Now()
	br.recoverHistory(now)
	s, err := session.NewSession(br.b.Session, br.rec, now)
	if err != nil && br.rec != nil && errors.Is(err, session.ErrReplay) {
		s, err = br.cutUnreplayable(err, now)
	}
	if err != nil {
		return err
	}
	br.begin(s, now)
	return nil
}

// begin takes the board's session and hands again what a previous run may
// not have journalled.
func (br *boardRun) begin(s *session.Session, now time.Time) {
	br.s = s
	// Hand again what a previous run may not have journalled: the moves
	// after Published (same message ids: the streams drop repeats) and
	// the state.
	rec := s.Record()
	if br.rec != nil && rec == br.rec && !br.recovered {
		br.handed = handedState{game: rec.Info.Game, moves: len(rec.Moves), revision: rec.Revision, teamEvents: len(rec.TeamEvents())}
	}
	var resend []game.Payload
	if len(br.notes) > 0 {
		// One alert (one id) saying everything.
		resend = append(resend, game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", rec.Info.Game, game.KindRecordDamaged, len(rec.Moves), now.UnixMilli()),
			Game: rec.Info.Game, Kind: game.KindRecordDamaged, Severity: game.Crit, Ply: len(rec.Moves), At: game.T(now),
			Message: "The saved record of this game was damaged: " + strings.Join(br.notes, "; ") + ". The game goes on from the " +
				"record's last move; moves made after it are recovered from the board where it can. Check the record."})
	}
	published := rec.Published
	if br.h.lost != "" {
		// The outbox was damaged: send everything again (the streams
		// drop what they have by message id).
		published = 0
		resend = append(resend, game.Alert{ID: fmt.Sprintf("%s.%s.outbox.%d", rec.Info.Game, game.KindRecordDamaged, now.UnixMilli()),
			Game: rec.Info.Game, Kind: game.KindRecordDamaged, Severity: game.Warn, Ply: len(rec.Moves), At: game.T(now),
			Message: "The daemon's outbox (messages not yet sent) was damaged and set aside: " + br.h.lost +
				". This game's moves are sent again; the streams drop those they already have."})
	}
	if c := rec.LastCorrection; c != nil && c.Revision == rec.Revision {
		resend = append(resend, *c)
	}
	for p := published + 1; p <= len(rec.Moves); p++ {
		resend = append(resend, rec.MoveEvent(p))
	}
	if rec.Result != "" && rec.Result != "*" {
		resend = append(resend, rec.ResultPayload(rec.UpdatedAt))
	}
	br.apply(session.Step{Out: resend, Changed: true})
	br.status = game.BoardStatus{BoardID: br.b.ID, Port: br.b.Port, BusAddress: int(br.b.BusAddress)}
}

// cutUnreplayable answers a loaded record whose moves do not replay (a
// record damaged on disk or written by another rules version): the game
// goes on from its longest prefix that replays, as a correction (next
// revision, cut there), and the arbiter is told. The record as it was is
// kept beside the record file (<g>.json.unreplayable-<time>).
func (br *boardRun) cutUnreplayable(cause error, now time.Time) (*session.Session, error) {
	rec := br.rec
	lo, hi := 0, len(rec.Moves) // prefix lo replays, hi does not
	try := func(n int) (*session.Session, error) {
		cp := *rec
		cp.Moves = slices.Clone(rec.Moves[:n])
		return session.NewSession(br.b.Session, &cp, now)
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if _, err := try(mid); err == nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	kept := br.h.keepUnreplayable(rec, now)
	cp := *rec
	cp.Moves = slices.Clone(rec.Moves[:lo])
	cp.Revision++
	cp.Published = min(cp.Published, lo)
	c := game.Correction{Game: cp.Info.Game, Ply: lo, FEN: cp.FEN(), Moves: cp.UCIs(), Reason: "record_damaged",
		At: game.T(now), Revision: cp.Revision}
	cp.LastCorrection = &c
	cp.UpdatedAt = now
	s, err := session.NewSession(br.b.Session, &cp, now)
	if err != nil {
		return nil, err
	}
	br.log.Error("game record does not replay; cut to its last good move", "err", cause, "ply", lo, "kept", kept)
	br.notes = append(br.notes, fmt.Sprintf("%v; it was cut to ply %d (revision %d), the record as it was is kept as %s",
		cause, lo, cp.Revision, kept))
	br.rec = nil // the writer gets the cut record whole
	return s, nil
}

// serveLink owns the board's own line (dgt/link) until ctx is done.
func (br *boardRun) serveLink(ctx context.Context) error {
	var lw sync.WaitGroup
	br.runLink(ctx, &lw, br.readFrom()) // the board's own port, or the spare it was moved to (spare.go)
	defer lw.Wait()
	blindEvs, timeReqs := br.startBlind(ctx, &lw)
	partnerEvs, partner := br.startPartner(ctx, &lw), br.servedPartner()

	tick := time.NewTicker(br.h.o.Tick)
	defer tick.Stop()
	for {
		select {
		case ev, ok := <-br.lk.Events():
			if !ok {
				// Run returned (ctx done): finish what the tracker
				// holds is not done here — moves not completed stay
				// made on the board and are caught up on restart.
				br.clockDue(time.Now(), true)
				br.persistOnly()
				if partner != nil {
					partner.clockDue(time.Now(), true)
					partner.persistOnly()
				}
				return nil
			}
			br.event(ev)
		case ev, ok := <-partnerEvs:
			if !ok {
				partnerEvs = nil
				continue
			}
			partner.event(ev)
		case <-tick.C:
			now := br.h.o.Now()
			// Input already queued was read before now: it goes first,
			// so a tick never stamps time ahead of it (mono would then
			// judge that input late: queueing lag as a clock defect).
			// The boards of one goroutine (a relayed game's two, a team
			// match's two) feed their sessions: what waits of each is
			// taken in the order it was read.
			br.h.pace.drained.Add(int64(inOrder(
				waiting{pending(br.lk.Events()), br.event},
				waiting{pending(blindEvs), br.blindEvent},
				waiting{pending(partnerEvs), func(ev link.Event) { partner.event(ev) }})))
			br.apply(br.s.Tick(br.mono(now)))
			if partner != nil {
				partner.apply(partner.s.Tick(partner.mono(now)))
				partner.clockDue(time.Now(), false)
			}
			br.clockDue(time.Now(), false)
			br.setupDue(now)
		case ev, ok := <-blindEvs:
			if !ok {
				blindEvs = nil
				continue
			}
			br.blindEvent(ev)
		case req := <-timeReqs:
			br.answerTime(req)
		case c := <-br.cmds:
			c.to.command(c)
		}
	}
}

// waiting is input taken from a channel and its handler.
type waiting struct {
	evs    []link.Event
	handle func(link.Event)
}

// inOrder handles the events of every source in the order they were read
// (each source's own order kept) and returns how many there were.
func inOrder(srcs ...waiting) int {
	n := 0
	for {
		best := -1
		for i, s := range srcs {
			if len(s.evs) > 0 && (best < 0 || s.evs[0].When().Before(srcs[best].evs[0].When())) {
				best = i
			}
		}
		if best < 0 {
			return n
		}
		srcs[best].handle(srcs[best].evs[0])
		srcs[best].evs = srcs[best].evs[1:]
		n++
	}
}

// pending takes the events waiting in ch now (none from a nil or closed
// channel: the select that reads ch sees it closed).
func pending(ch <-chan link.Event) []link.Event {
	var out []link.Event
	for n := len(ch); n > 0; n-- {
		ev, ok := <-ch
		if !ok {
			break
		}
		out = append(out, ev)
	}
	return out
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
		br.heard, br.damaged = time.Time{}, time.Time{} // a new connection's reads catch up
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
		br.h.pace.input(br.b.Port, e.At, time.Now())
		if br.setup != nil {
			br.setupMessage(e.At, e.Msg) // a board moved to, not set up yet
			return
		}
		since := br.repairing(e.Msg)
		if !br.recoverOn(e.At, e.Msg) && !br.repairRead(e.At, since, e.Msg) {
			br.apply(br.s.Message(br.mono(e.At), e.Msg))
		}
		br.heard = e.At
	case link.Disconnected:
		br.heard, br.damaged = time.Time{}, time.Time{}
		msg := "disconnected"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		br.down(e.At, msg)
	case link.Resync:
		br.log.Debug("serial resync", "err", e.Err)
		br.lineDamaged(e.At)
	case link.Log:
		if br.setup != nil {
			return // the log of a board moved to is not this game's
		}
		br.logArrived(e.Log, e.Err)
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
	br.awaitLog = true
	if br.lostOnce {
		br.apply(br.s.Device(br.mono(at), game.DeviceBoard, false, ""))
	}
}

// down: the board was lost (msg says why); status and a board_disconnected
// alert for the arbiter.
func (br *boardRun) down(at time.Time, msg string) {
	if h := br.held; h != nil {
		br.held = nil
		br.feedHeld(h) // read before the loss: fed live, as it was
	}
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

// apply hands what one input caused to storage (writer.go) and returns at
// once: the record's change (if any) and the payloads, which the writer
// publishes, in order, once the change is durable; the clock commands
// are sent to the clock now (they act on the board's clock, not on the
// record). The board goroutine never waits for the disk.
func (br *boardRun) apply(st session.Step) {
	defer br.drainTeam() // what this board's input did to its partner board
	if len(st.Out) == 0 && len(st.Clock) == 0 && !st.Changed {
		return
	}
	rec := br.s.Record()
	if br.syncSpare(rec) { // spare.go
		st.Changed = true
	}
	if adj := br.s.Adjudicator(); adj != nil && adj.ClockHost() != rec.ClockHost {
		rec.ClockHost = adj.ClockHost() // for the clock model after a restart
		st.Changed = true
	}
	c := &change{br: br, game: rec.Info.Game, out: br.clocksOut(st.Out, time.Now()), read: br.last}
	if st.Changed {
		c.delta = br.handOff(rec)
		state := br.s.State()
		c.state = &state
	}
	br.noteFinished(st.Finished)
	if len(c.out) > 0 || c.delta != nil {
		br.h.w.submit(c)
	}
	for _, cc := range st.Clock {
		br.clockCommand(cc)
	}
}

// handedState is what of a record the board handed to the writer.
type handedState struct {
	game       game.ID
	moves      int
	revision   int
	teamEvents int
}

// handOff returns the record's change for the writer (delta) and keeps a
// copy for [Hall.Record]: both share the record's moves (Record.Moves),
// so a board's game is in memory once however many copies there are.
func (br *boardRun) handOff(rec *gamerecord.Record) *delta {
	d := br.delta(rec)
	cp := *rec
	cp.Moves = rec.SharedMoves()
	cp.Team = rec.Team.Clone()
	br.mu.Lock()
	br.snap = &cp
	br.mu.Unlock()
	return d
}

// delta returns the record's change since the last hand-off: its header,
// all its moves (shared with the record: [Record.Moves]) and the first
// move not handed yet (after a correction, the cut).
func (br *boardRun) delta(rec *gamerecord.Record) *delta {
	h := br.handed
	from := 0
	switch {
	case h.game != rec.Info.Game:
	case h.revision == rec.Revision:
		from = min(h.moves, len(rec.Moves))
	case h.revision+1 == rec.Revision && rec.LastCorrection != nil && rec.LastCorrection.Revision == rec.Revision:
		from = min(h.moves, rec.LastCorrection.Ply, len(rec.Moves))
	}
	d := &delta{from: from, rec: *rec}
	d.rec.Moves = rec.SharedMoves()
	if rec.Team != nil {
		// Team events are only ever added: the new ones.
		if h.game == rec.Info.Game {
			d.teamFrom = min(h.teamEvents, len(rec.Team.Events))
		}
		t := *rec.Team
		t.Events = slices.Clone(rec.Team.Events[d.teamFrom:])
		d.rec.Team = &t
	}
	br.handed = handedState{game: rec.Info.Game, moves: len(rec.Moves), revision: rec.Revision, teamEvents: len(rec.TeamEvents())}
	return d
}

// publishStatus hands a board's connection status to the writer (ahead of
// nothing: it is published in its turn, like every payload).
func (br *boardRun) publishStatus(b game.BoardStatus) {
	br.h.w.submit(&change{br: br, game: br.b.Session.Info.Game, status: &b})
}

// persistOnly hands the record once more on the way out.
func (br *boardRun) persistOnly() {
	if br.s != nil {
		br.apply(session.Step{Changed: true})
	}
}

// clockCommand sends a SetNRun to the clock without blocking the board
// goroutine (the link waits for the ACK), with the levers left working
// (toggle on lever); a failure is an alert for the arbiter, never a
// message to the players. Nothing else is sent: no END (0x03, it only
// restores the display), no text, no beep (Art 12.6).
func (br *boardRun) clockCommand(c game.ClockCommand) {
	if br.b.Protocol != ProtocolDGT {
		br.clockFailed(c, len(br.s.Record().Moves), errNoClockCommands)
		return
	}
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
// clock. Safe from any goroutine (it only hands the alert to the writer).
func (br *boardRun) clockFailed(c game.ClockCommand, ply int, err error) {
	g := br.b.Session.Info.Game
	br.log.Error("clock command failed", "reason", c.Reason, "err", err)
	at := time.Now()
	a := game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindClockCommandFailed, ply, at.UnixMilli()), Game: g,
		Kind: game.KindClockCommandFailed, Severity: game.Warn, Ply: ply, At: game.T(at),
		Message:  fmt.Sprintf("The clock did not take the setting asked for (%s): %v. Set it by hand.", c.Reason, err),
		Proposal: map[string]any{"white_ms": game.Millis(c.White), "black_ms": game.Millis(c.Black)}}
	br.h.w.submit(&change{br: br, game: g, out: []game.Payload{a}})
}
