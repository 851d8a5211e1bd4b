package daemon

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/lichess"
	"github.com/dgtbridge/dgtbridge/status"
)

// statusBoards lists the hall's boards for the status keeper, each blind
// player's board after its own.
func statusBoards(boards []hall.Board) []status.Board {
	var out []status.Board
	for _, b := range boards {
		out = append(out, status.Board{ID: b.ID, Port: b.Port, BusAddress: int(b.BusAddress), Game: b.Session.Info.Game})
		if b.Blind != nil {
			id := b.Blind.ID
			if id == "" {
				id = b.ID + "-blind"
			}
			out = append(out, status.Board{ID: id, Port: b.Blind.Port, Game: b.Session.Info.Game, BlindOf: b.ID})
		}
	}
	return out
}

// observers returns an Observer calling each non-nil one in turn.
func observers(fs ...func(hall.Observation)) func(hall.Observation) {
	var list []func(hall.Observation)
	for _, f := range fs {
		if f != nil {
			list = append(list, f)
		}
	}
	return func(o hall.Observation) {
		for _, f := range list {
			f(o)
		}
	}
}

// pushRunner owns the Lichess push of the daemon: it starts the pusher
// when the configuration maps a round (at start or on a reload) and hands
// it the new mapping and token on each reload.
type pushRunner struct {
	ctx   context.Context
	wg    *sync.WaitGroup
	store *broadcast.Store
	log   *slog.Logger

	event atomic.Pointer[string] // event.id: the rounds are this event's
	mu    sync.Mutex
	p     *lichess.Pusher
}

// update applies a configuration's lichess section.
func (r *pushRunner) update(cfg *config.Config) {
	ev := cfg.Event.ID
	r.event.Store(&ev)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.p != nil {
		r.p.SetRounds(cfg.Lichess.Rounds, cfg.Lichess.Token)
		r.p.SetSplit(cfg.Lichess.Split)
		return
	}
	if len(cfg.Lichess.Rounds) == 0 {
		return
	}
	p, err := lichess.New(lichess.Options{URL: cfg.Lichess.URL, Token: cfg.Lichess.Token, Rounds: cfg.Lichess.Rounds,
		Split: cfg.Lichess.Split, OnGameErrors: lichessGameErrors(r.log), Source: r.source, Logger: r.log})
	if err != nil {
		r.log.Error("Lichess push not started", "err", err)
		return
	}
	r.p = p
	r.log.Info("Lichess push on", "url", cfg.Lichess.URL, "rounds", cfg.Lichess.Rounds)
	r.wg.Go(func() { _ = p.Run(r.ctx) })
}

// source is the public PGN of a round of the current event.
func (r *pushRunner) source(round int) (string, int) {
	return r.store.RoundPGN(*r.event.Load(), round)
}

// stats returns the pusher's state for the status report (nil when no
// round is pushed).
func (r *pushRunner) stats() []broadcast.PushReport {
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if p == nil {
		return nil
	}
	var out []broadcast.PushReport
	for _, s := range p.Stats() {
		out = append(out, pushReport(s))
	}
	return out
}

// daemonName names this daemon in the status bucket, which the daemons of
// several halls on one nats.prefix share (status.DaemonName): the host and
// the data directory.
func daemonName(dataDir string) string {
	host, err := os.Hostname()
	if err != nil {
		host = "host"
	}
	return status.DaemonName(host, dataDir)
}
