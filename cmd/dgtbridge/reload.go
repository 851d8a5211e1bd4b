package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"reflect"
	"syscall"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/status"
	"github.com/dgtbridge/dgtbridge/systemd/sdnotify"
	"golang.org/x/sys/unix"
)

// restartKeys are the settings a reload cannot change: they shape the
// running NATS server, publisher, HTTP server and data directory. A
// reload that changes one is refused, naming it.
var restartKeys = []struct {
	key string
	get func(*config.Config) any
}{
	{"data_dir", func(c *config.Config) any { return c.DataDir }},
	{"record", func(c *config.Config) any { return c.Record }},
	{"nats.url", func(c *config.Config) any { return c.NATS.URL }},
	{"nats.prefix", func(c *config.Config) any { return c.NATS.Prefix }},
	{"nats.creds", func(c *config.Config) any { return c.NATS.Creds }},
	{"nats.embedded.listen", func(c *config.Config) any { return c.NATS.Embedded.Listen }},
	{"nats.embedded.websocket", func(c *config.Config) any { return c.NATS.Embedded.WebSocket }},
	{"nats.embedded.users", func(c *config.Config) any { return c.NATS.Embedded.Users }},
	{"http.listen", func(c *config.Config) any { return c.HTTP.Listen }},
	{"relay.speak", func(c *config.Config) any { return c.Relay.Speak }},
	{"event.public_delay", func(c *config.Config) any { return c.Event.PublicDelay }},
}

// errRestart: a reload asks for a change only a restart makes.
var errRestart = errors.New("needs a restart (systemctl restart dgtbridge), not a reload")

// planReload returns what a reload from the running configuration old to
// next gives each board of the hall (boards, in old's order): the options
// of its next game. It refuses, naming every key, a configuration that
// changes what only a restart changes: the settings of restartKeys, and
// the boards themselves (a board added or removed, a board's protocol,
// variant or blind player's board). Boards are matched by port and bus
// address (boards on "auto" in order), so a new round may renumber them.
func planReload(old, next *config.Config, boards []hall.Board) (map[string]session.SessionOptions, error) {
	var errs []error
	for _, k := range restartKeys {
		if a, b := k.get(old), k.get(next); !reflect.DeepEqual(a, b) {
			errs = append(errs, &config.KeyError{Key: k.key, Err: fmt.Errorf("changed from %v to %v: %w", a, b, errRestart)})
		}
	}
	type portKey struct {
		port string
		bus  int
	}
	key := func(bs []config.Board) []portKey {
		out := make([]portKey, len(bs))
		auto := 0
		for i, b := range bs {
			out[i] = portKey{b.Port, b.BusAddress}
			if b.Port == config.AutoPort {
				out[i].bus = -1 - auto // the n-th auto board
				auto++
			}
		}
		return out
	}
	oldB, newB := old.EffectiveBoards(), next.EffectiveBoards()
	oldK, newK := key(oldB), key(newB)
	used := make([]bool, len(oldB))
	plan := map[string]session.SessionOptions{}
	for i, b := range newB {
		p := fmt.Sprintf("boards[%d]", i)
		j := -1
		for jj, k := range oldK {
			if k == newK[i] && !used[jj] {
				j = jj
				break
			}
		}
		if j < 0 {
			errs = append(errs, &config.KeyError{Key: p + ".port", Err: fmt.Errorf("%s (bus address %d) is not a board of the running daemon: adding a board %w", b.Port, b.BusAddress, errRestart)})
			continue
		}
		used[j] = true
		o := oldB[j]
		for _, d := range []struct{ k, a, b string }{{"protocol", o.Protocol, b.Protocol}, {"variant", o.Variant, b.Variant}} {
			if d.a != d.b {
				errs = append(errs, &config.KeyError{Key: p + "." + d.k, Err: fmt.Errorf("changed from %s to %s: %w", d.a, d.b, errRestart)})
			}
		}
		if blindChanged(o.Blind, b.Blind) {
			errs = append(errs, &config.KeyError{Key: p + ".blind", Err: fmt.Errorf("changed: the blind player's board %w", errRestart)})
		}
		so, err := sessionOptions(next, b)
		if err != nil {
			errs = append(errs, &config.KeyError{Key: p, Err: err})
			continue
		}
		so.Blind = followedBlind(b)
		plan[boards[j].ID] = so
	}
	for j, u := range used {
		if !u {
			errs = append(errs, &config.KeyError{Key: "boards", Err: fmt.Errorf("the board on %s (bus address %d, board %d) is no longer configured: removing a board %w", oldB[j].Port, oldB[j].BusAddress, oldB[j].Board, errRestart)})
		}
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
	applyMemoryLimit(next.Daemon, len(r.boards), r.log)
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
