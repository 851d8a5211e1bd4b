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

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// TeamTableOptions configure a TeamTable.
type TeamTableOptions struct {
	// Seed draws the match and both boards' hands.
	Seed uint64
	// Speed divides the players' think times (default 1).
	Speed float64
	// IllegalDrops is the probability of a drop of a piece the player
	// does not have, at each move with an empty pocket (PlanTeamMatch);
	// the demo uses a few per match.
	IllegalDrops float64
	// Plies is the most plies a board plays (PlanTeamMatch's default
	// when 0).
	Plies int
	// Logger (nil: discarded).
	Logger *slog.Logger
}

// TeamTable is a team-drop match (004 "Cờ đặt") on two emulated DGT boards
// with clocks, each served on its own pseudo-terminal: once a host has
// talked to both, the match PlanTeamMatch draws is played on them in real
// time, both clocks running, the captured pieces handed over after the
// capturer's press and dropped by the partner. The match is played once.
type TeamTable struct {
	o       TeamTableOptions
	powerUp time.Time
	e       [2]*emu.Emulator
	master  [2]*os.File
	path    [2]string
}

// teamClock is the clock setting of the 004 team section (Reg. §4): 5
// minutes, no increment.
var teamClock = emu.ClockSetting{Base: 5 * time.Minute}

// NewTeamTable opens the pseudo-terminals of both boards.
func NewTeamTable(o TeamTableOptions) (*TeamTable, error) {
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	t := &TeamTable{o: o, powerUp: time.Now()}
	for b := range t.e {
		m, p, err := pty.Open()
		if err != nil {
			t.Close()
			return nil, err
		}
		t.master[b], t.path[b] = m, p
		t.e[b] = emu.New(t.setup(b), t.powerUp)
	}
	return t, nil
}

// setup is board b's emulated board, as PlanTeamMatch sets it up.
func (t *TeamTable) setup(b int) emu.Setup {
	seed := t.o.Seed*2 + uint64(b) + 1
	g := emu.Game{Board: emu.Setup{Serial: fmt.Sprintf("%05d", 1001+b), Clock: teamClock, Seed: seed}, Seed: seed}
	return g.BoardSetup()
}

// Path returns the slave path of board b's (0 or 1) pseudo-terminal.
func (t *TeamTable) Path(b int) string { return t.path[b] }

// Close closes the pseudo-terminals of a table that will not Run.
func (t *TeamTable) Close() error {
	var err error
	for _, m := range t.master {
		if m != nil {
			err = errors.Join(err, m.Close())
		}
	}
	return err
}

// Run serves both boards until ctx is done and plays the match once a host
// follows both. It closes the pseudo-terminals before returning.
func (t *TeamTable) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for b := range t.e {
		wg.Go(func() {
			errs[b] = emu.ServePTY(ctx, t.master[b], t.e[b])
			cancel()
		})
	}
	defer wg.Wait()
	for !following(t.e[0]) || !following(t.e[1]) {
		if !sleep(ctx, 200*time.Millisecond) {
			return errors.Join(errs...)
		}
	}
	start := time.Now().Add(time.Second)
	hands := emu.DefaultHands()
	hands.Think = emu.Span{Min: time.Duration(float64(700*time.Millisecond) / t.o.Speed), Max: time.Duration(float64(4*time.Second) / t.o.Speed)}
	plan, err := PlanTeamMatch(TeamMatchOptions{Seed: t.o.Seed, Hands: hands, IllegalDrops: t.o.IllegalDrops, Plies: t.o.Plies,
		PowerUp: t.powerUp, Start: start})
	if err != nil {
		return err
	}
	for b := range t.e {
		t.e[b].Schedule(start, plan.Boards[b].Script)
	}
	t.o.Logger.Info("team match scheduled", "illegal_drops", plan.IllegalDrops)
	<-ctx.Done()
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return nil
}
