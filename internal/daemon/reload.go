package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/status"
	"github.com/dgtbridge/dgtbridge/systemd/sdnotify"
	"golang.org/x/sys/unix"
)

// planReload returns what a reload from the running configuration old to
// next gives each board of the hall (boards, in old's order): the options
// of its next game. It refuses, naming every key, a configuration that
// changes what only a restart changes (config.Diff) or whose games
// cannot be set up.
func planReload(old, next *config.Config, boards []hall.Board) (map[string]session.SessionOptions, error) {
	ch := config.Diff(old, next)
	errs := ch.Restart
	plan := map[string]session.SessionOptions{}
	for _, c := range ch.Boards {
		so, err := sessionOptions(next, c.Board)
		if err != nil {
			errs = append(errs, &config.KeyError{Key: fmt.Sprintf("boards[%d]", c.Index), Err: err})
			continue
		}
		so.Blind = followedBlind(c.Board)
		plan[boards[c.Old].ID] = so
	}
	if len(errs) > 0 {
		return nil, &config.Error{File: next.File, Problems: errs}
	}
	return plan, nil
}

// reloader re-reads the configuration on SIGHUP and hands the hall and
// the Lichess push what changed; an invalid configuration, or one that
// needs a restart, is refused with every reason logged, and the running
// one stays.
type reloader struct {
	cfg    config.Config // the running configuration
	load   func() (config.Config, error)
	h      *hall.Hall
	boards []hall.Board
	push   *pushRunner
	keeper *status.Keeper
	log    *slog.Logger
	n      *sdnotify.Notifier
}

// run reloads on every SIGHUP until ctx is done.
func (r *reloader) run(ctx context.Context) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP)
	defer signal.Stop(ch)
	for {
		select {
		case <-ctx.Done():
			return
		case <-ch:
			r.n.Notify("RELOADING=1", fmt.Sprintf("MONOTONIC_USEC=%d", monotonicUsec()))
			err := r.reload(ctx)
			status := "configuration reloaded"
			if err != nil {
				status = "reload refused: " + err.Error()
			}
			r.n.Notify("READY=1", sdnotify.Status(status))
		}
	}
}

// reload applies the configuration once; it returns why it refused.
func (r *reloader) reload(ctx context.Context) error {
	next, err := r.load()
	if err == nil {
		err = next.Unsupported()
	}
	var plan map[string]session.SessionOptions
	if err == nil {
		plan, err = planReload(&r.cfg, &next, r.boards)
	}
	if err != nil {
		r.log.Error("reload refused; the running configuration stays", "problems", err.Error())
		return err
	}
	if err := r.h.Reconfigure(ctx, plan); err != nil {
		r.log.Error("reload: some boards did not take their next game", "err", err)
	}
	r.push.update(&next)
	ApplyMemoryLimit(next.Daemon, len(r.boards), r.log)
	r.keeper.Refresh() // boards whose game changed have no payload to show it yet
	r.cfg = next
	r.log.Info("configuration reloaded: each board's next game follows it", "file", next.File, "boards", len(plan), "rounds", roundsOf(&next))
	return nil
}

// roundsOf lists the rounds of a configuration's boards.
func roundsOf(c *config.Config) []int {
	var out []int
	seen := map[int]bool{}
	for _, b := range c.EffectiveBoards() {
		if !seen[b.Round] {
			seen[b.Round] = true
			out = append(out, b.Round)
		}
	}
	return out
}

// monotonicUsec is CLOCK_MONOTONIC in microseconds, as systemd wants it
// with RELOADING=1.
func monotonicUsec() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return time.Now().UnixMicro()
	}
	return ts.Nano() / 1000
}
