package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// TableOptions configure a Table.
type TableOptions struct {
	// Board is the board number (1-based): it picks the games (GameFor)
	// and the incidents (IncidentFor).
	Board int
	// FirstRound is the round of the first game (default 1).
	FirstRound int
	// Games are the games played in turn (Games()).
	Games []*pgn.Game
	// Speed divides think and handling times (default 1).
	Speed float64
	// Seed varies the handling (the board number is added).
	Seed uint64
	// Clock is the time control the clock is set to before each game
	// (zero: the emulator's default, 90 min + 30 s).
	Clock emu.ClockSetting
	// Relay makes the table a blind-player game (FIDE Laws Appendix D):
	// a second board without a clock for the player of colour BlindSide,
	// each move mirrored on the other board (PlayRelay). Its games have
	// no scripted incidents.
	Relay     bool
	BlindSide rules.Color
	// Logger (nil: discarded).
	Logger *slog.Logger
}

// Table is one emulated DGT board with its clock, served on a
// pseudo-terminal, on which two emulated players play the board's games one
// after another: each game as Play scripts it (with its incident and the
// result gesture), then the pieces set up again (the daemon starts the next
// round's game) and the clock reset. Create it with NewTable; Run serves it.
type Table struct {
	o      TableOptions
	e      *emu.Emulator
	master *os.File
	path   string
	// The blind player's board (Relay), else nil.
	be      *emu.Emulator
	bmaster *os.File
	bpath   string

	mu    sync.Mutex
	round int // the round being played (0 before the first)
}

// NewTable opens the pseudo-terminal of the board. Its slave path (Path)
// is what the daemon opens, like a real board's device.
func NewTable(o TableOptions) (*Table, error) {
	if len(o.Games) == 0 {
		return nil, errors.New("demo: table without games")
	}
	if o.Board < 1 {
		return nil, fmt.Errorf("demo: board number %d (want 1 or more)", o.Board)
	}
	if o.FirstRound < 1 {
		o.FirstRound = 1
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	master, path, err := pty.Open()
	if err != nil {
		return nil, err
	}
	eo := emu.Setup{Serial: fmt.Sprintf("%05d", 10000+o.Board), Seed: o.Seed + uint64(o.Board), Clock: o.Clock}
	t := &Table{o: o, e: emu.New(eo, time.Now()), master: master, path: path}
	if o.Relay {
		bm, bp, err := pty.Open()
		if err != nil {
			master.Close()
			return nil, err
		}
		bo := emu.Setup{Serial: fmt.Sprintf("%05d", 20000+o.Board), Seed: o.Seed + 1000 + uint64(o.Board), NoClock: true}
		t.be, t.bmaster, t.bpath = emu.New(bo, time.Now()), bm, bp
	}
	return t, nil
}

// Close closes the pseudo-terminals of a table that will not Run (Run
// closes them itself).
func (t *Table) Close() error {
	err := t.master.Close()
	if t.bmaster != nil {
		err = errors.Join(err, t.bmaster.Close())
	}
	return err
}

// BlindPath returns the slave path of the blind player's board ("" when
// the table is not a relay).
func (t *Table) BlindPath() string { return t.bpath }

// Path returns the slave path of the board's pseudo-terminal.
func (t *Table) Path() string { return t.path }

// Round returns the round being played (0 before the first game starts).
func (t *Table) Round() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.round
}

// Game returns the game the table plays in round.
func (t *Table) Game(round int) *pgn.Game {
	return t.o.Games[GameFor(len(t.o.Games), round, t.o.Board)]
}

// Run serves the board on its pseudo-terminal and, once a host has talked
// to it, plays game after game until ctx is done. It closes the
// pseudo-terminal before returning nil (or the serving error).
func (t *Table) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var serveErr error
	var blindErr error
	wg.Go(func() {
		serveErr = emu.ServePTY(ctx, t.master, t.e)
		cancel()
	})
	if t.be != nil {
		wg.Go(func() {
			blindErr = emu.ServePTY(ctx, t.bmaster, t.be)
			cancel()
		})
	}
	err := t.play(ctx)
	cancel()
	wg.Wait()
	if err != nil && ctx.Err() == nil {
		return err
	}
	return errors.Join(serveErr, blindErr)
}

// play waits for the host, then plays the rounds.
func (t *Table) play(ctx context.Context) error {
	for !following(t.e) || (t.be != nil && !following(t.be)) {
		if !sleep(ctx, 100*time.Millisecond) {
			return nil
		}
	}
	// Let the host finish its greeting (board dump, clock set-up).
	if !sleep(ctx, 2*time.Second) {
		return nil
	}
	for round := t.o.FirstRound; ; round++ {
		g := t.Game(round)
		seed := t.o.Seed + uint64(round*64+t.o.Board)
		inc := IncidentFor(round, t.o.Board)
		var p, bp Played
		var err error
		if t.be != nil {
			inc = NoIncident
			var rp RelayPlayed
			rp, err = PlayRelay(g, t.o.BlindSide, PlayOptions{Speed: t.o.Speed, Seed: seed, Gesture: true})
			p, bp = rp.Sighted, rp.Blind
		} else {
			p, err = Play(g, PlayOptions{Speed: t.o.Speed, Seed: seed, Incident: inc, Gesture: true})
			if errors.Is(err, ErrNoIncident) {
				inc = NoIncident
				p, err = Play(g, PlayOptions{Speed: t.o.Speed, Seed: seed, Gesture: true})
			}
		}
		if err != nil {
			return err
		}
		t.mu.Lock()
		t.round = round
		t.mu.Unlock()
		t.o.Logger.Info("game starts", "board", t.o.Board, "round", round, "white", g.Tag("White"), "black", g.Tag("Black"),
			"incident", inc, "incident_ply", p.IncidentPly, "relay", t.be != nil)
		now := time.Now()
		if t.be != nil {
			t.be.Schedule(now, bp.Script)
		}
		if !t.perform(ctx, now, p.Script) {
			return nil
		}
		// The players shake hands, the clock is reset for the next round
		// (before the set-up: a reset during the new game would be a
		// clock defect, 6.10.1), then the pieces are set up again.
		if !sleep(ctx, t.scaled(4*time.Second)) {
			return nil
		}
		set := t.o.Clock
		if set.Base == 0 {
			set = t.e.Setup().Clock
		}
		t.e.SetClock(time.Now(), set)
		if !sleep(ctx, t.scaled(2*time.Second)) {
			return nil
		}
		now = time.Now()
		if t.be != nil {
			// The blind player's board is set up a moment after the
			// sighted one, as the relay expects (the sighted board's
			// set-up starts the new record).
			t.be.Schedule(now.Add(2*time.Second), SetUp(bp.Final, t.o.Speed))
		}
		if !t.perform(ctx, now, SetUp(p.Final, t.o.Speed)) {
			return nil
		}
		if !sleep(ctx, t.scaled(3*time.Second)) {
			return nil
		}
	}
}

// following reports whether the host has asked board e for its field
// updates (DGT_SEND_UPDATE, _UPDATE_BRD or _UPDATE_NICE): before that, the
// moves made would go unheard.
func following(e *emu.Emulator) bool {
	cmds, _ := e.Received()
	for _, c := range cmds {
		switch dgt.SimpleCommand(c) {
		case dgt.CmdSendUpdate, dgt.CmdSendUpdateBoard, dgt.CmdSendUpdateNice:
			return true
		}
	}
	return false
}

// perform schedules s on the (sighted) board at start and waits until
// every action on both boards has happened.
func (t *Table) perform(ctx context.Context, start time.Time, s emu.Script) bool {
	t.e.Schedule(start, s)
	for t.e.Pending() > 0 || (t.be != nil && t.be.Pending() > 0) {
		if !sleep(ctx, 100*time.Millisecond) {
			return false
		}
	}
	return true
}

func (t *Table) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) / t.o.Speed)
}

// NextGame returns the session.SessionOptions.NextGame of a demo board: the
// same board of the next round, with the players of the game that board
// plays in that round.
func NextGame(games []*pgn.Game) func(gamerecord.Info) gamerecord.Info {
	return func(prev gamerecord.Info) gamerecord.Info {
		next := session.NextRound(prev)
		g := games[GameFor(len(games), next.Game.Round, next.Game.Board)]
		next.White, next.Black = g.Tag("White"), g.Tag("Black")
		return next
	}
}

// sleep waits d or until ctx is done; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-tm.C:
		return true
	}
}
