package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/rehearse"
	"github.com/dgtbridge/dgtbridge/rehearse/watch"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// RehearsalSuffix is added to event.id for a rehearsal's games: nothing a
// rehearsal publishes is a game of the event.
const RehearsalSuffix = "-rehearsal"

// ErrRehearsalExternalNATS: a rehearsal needs the embedded NATS server,
// whose connections show who signs in.
var ErrRehearsalExternalNATS = errors.New("nats.url is set: the rehearsal runs the embedded NATS server, whose connections show who signs in; rehearse with a configuration without nats.url")

// RehearsalOptions are a rehearsal's settings besides the configuration.
type RehearsalOptions struct {
	// LichessRound is the Lichess broadcast round of a test broadcast the
	// rehearsal's games are pushed to ("": none; the line fails).
	LichessRound string
	// PublicDelay is the rehearsal's public delay; Timeout how long it
	// waits for every line to pass.
	PublicDelay, Timeout time.Duration
	// DataDir is the rehearsal's data folder; "" is <data_dir>/rehearsal,
	// emptied first. A folder given must be empty.
	DataDir string
	// OnStart is called with the checks and the data folder before the
	// daemon starts; OnChange with the checklist each time a line changes.
	OnStart  func(checks []rehearse.Check, dataDir string)
	OnChange func(rehearse.Report)
	// Version and Commit name the build (Options).
	Version, Commit string
}

// Rehearse runs a rehearsal ([rehearse], [watch]): the daemon on the
// configuration's boards, users and Lichess token, for games of its own
// (event.id + [RehearsalSuffix], its own data folder and public delay;
// Lichess pushes only to the test round), until every line of the
// checklist passed, the timeout, or ctx is done. It returns the last
// checklist.
func Rehearse(ctx context.Context, cfg config.Config, o RehearsalOptions, log *slog.Logger) (rehearse.Report, error) {
	if cfg.NATS.URL != "" {
		return rehearse.Report{}, ErrRehearsalExternalNATS
	}
	if len(cfg.Boards) == 0 {
		return rehearse.Report{}, ErrNoBoards
	}
	checks := RehearsalChecks(&cfg, o.PublicDelay, o.LichessRound)
	rounds := lichessRounds(cfg.Lichess)
	if err := rehearsalConfig(&cfg, o); err != nil {
		return rehearse.Report{}, err
	}
	boards, _, err := openBoards(&cfg, log)
	if err != nil {
		return rehearse.Report{}, err
	}
	if o.OnStart != nil {
		o.OnStart(checks, cfg.DataDir)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		final rehearse.Report
		werr  error
		wg    sync.WaitGroup
	)
	started := func(_ *hall.Hall, srv *broadcast.Server) {
		w, err := rehearsalWatcher(ctx, &cfg, srv, checks, rounds, o)
		if err != nil {
			mu.Lock()
			werr = err
			mu.Unlock()
			cancel()
			return
		}
		wg.Go(func() {
			r, err := w.Run(ctx)
			mu.Lock()
			final, werr = r, err
			mu.Unlock()
			cancel() // the rehearsal is over: the daemon stops
		})
	}
	derr := Run(ctx, cfg, Options{Boards: boards, Started: started, Version: o.Version, Commit: o.Commit}, log, nil)
	cancel() // a daemon that stopped on its own ends the rehearsal too
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if derr != nil && final.Lines == nil {
		derr = fmt.Errorf("%w (is the daemon running? Stop it first: the rehearsal needs its ports and listeners)", derr)
	}
	return final, errors.Join(werr, derr)
}

// rehearsalConfig turns the configuration into the rehearsal's: its own
// event id, data folder and public delay; Lichess pushes only to the test
// round (as the first round of the boards), never to the event's rounds.
func rehearsalConfig(cfg *config.Config, o RehearsalOptions) error {
	id := cfg.Event.ID + RehearsalSuffix
	if !broadcast.ValidToken(id) {
		return fmt.Errorf("event.id %q: %q is not a subject token", cfg.Event.ID, id)
	}
	cfg.Event.ID = id
	cfg.Event.PublicDelay = o.PublicDelay
	dir := o.DataDir
	if dir == "" {
		dir = filepath.Join(cfg.DataDir, "rehearsal")
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("emptying the last rehearsal's data folder: %w", err)
		}
	} else if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("--data-dir %s is not empty: give an empty or new folder", dir)
	}
	cfg.DataDir = dir
	cfg.Lichess.Rounds, cfg.Lichess.Split = nil, nil
	if o.LichessRound != "" && cfg.Lichess.Token != "" {
		first := 0
		for _, b := range cfg.EffectiveBoards() {
			if first == 0 || b.Round < first {
				first = b.Round
			}
		}
		cfg.Lichess.Rounds = map[int]string{first: o.LichessRound}
	}
	return nil
}

// lichessRounds lists the Lichess rounds the configuration pushes to, by
// round: lichess.rounds, each followed by its lichess.split.
func lichessRounds(l config.Lichess) []rehearse.LichessRound {
	var rounds []int
	for r := range l.Rounds {
		rounds = append(rounds, r)
	}
	slices.Sort(rounds)
	var out []rehearse.LichessRound
	for _, r := range rounds {
		out = append(out, rehearse.LichessRound{Round: r, ID: l.Rounds[r]})
		for _, id := range l.Split[r] {
			out = append(out, rehearse.LichessRound{Round: r, ID: id})
		}
	}
	return out
}

// RehearsalChecks lists the checks of a configuration (the event's, before
// [Rehearse] makes it the rehearsal's): each board's (its answer; its
// clock when it is a DGT board with a time control; its move live and
// public, delay later) and its blind player's (the blind player's board,
// the relay), each organiser's and arbiter's sign-in, the Lichess rounds
// and the test push to testRound.
func RehearsalChecks(cfg *config.Config, delay time.Duration, testRound string) []rehearse.Check {
	var out []rehearse.Check
	for _, b := range cfg.EffectiveBoards() {
		id := boardID(b)
		g := game.ID{Event: cfg.Event.ID + RehearsalSuffix, Round: b.Round, Board: b.Board}
		if b.Protocol != config.ProtocolManual {
			out = append(out, rehearse.BoardAnswers{Board: id, Port: b.Port, BusAddress: b.BusAddress})
		}
		if tc, err := clock.ParseTimeControl(b.TimeControl); err == nil && b.Protocol == config.ProtocolDGT && len(tc.Periods) > 0 && !tc.Periods[0].Sandclock {
			out = append(out, rehearse.ClockSet{Board: id, TimeControl: b.TimeControl, Rest: rehearse.RestTimes(tc.Periods[0].Time, tc.Periods[0].Increment)})
		}
		out = append(out, rehearse.LiveMove{Board: id, Game: g}, rehearse.PublicMove{Board: id, Game: g, Delay: delay})
		if b.Blind != nil {
			out = append(out, rehearse.BoardAnswers{Board: id + "-blind", Port: b.Blind.Port, BusAddress: b.Blind.BusAddress})
			var listeners []string
			for _, u := range cfg.NATS.Embedded.Users {
				if u.Role == config.RoleRelay && u.Board == b.Board {
					listeners = append(listeners, u.User)
				}
			}
			out = append(out, rehearse.BlindRelay{Board: id, Game: g, Listeners: listeners, Speak: cfg.Relay.Speak != config.SpeakOff})
		}
	}
	for _, u := range cfg.NATS.Embedded.Users {
		if u.Role == config.RoleOrganiser || u.Role == config.RoleArbiter {
			out = append(out, rehearse.SignIn{User: u.User, Role: string(u.Role)})
		}
	}
	rounds := lichessRounds(cfg.Lichess)
	for _, r := range rounds {
		out = append(out, r)
	}
	if len(rounds) > 0 || testRound != "" {
		out = append(out, rehearse.LichessPush{ID: testRound})
	}
	return out
}

// rehearsalWatcher makes the watcher of the rehearsal's daemon: its own
// connections to the embedded server (the daemon's account, and with
// users the public one), the server's connections, the Lichess rounds to
// ask about.
func rehearsalWatcher(ctx context.Context, cfg *config.Config, srv *broadcast.Server, checks []rehearse.Check, rounds []rehearse.LichessRound, o RehearsalOptions) (*watch.Watcher, error) {
	subj, err := broadcast.NewSubjects(cfg.NATS.Prefix)
	if err != nil {
		return nil, err
	}
	nc, err := srv.Connect()
	if err != nil {
		return nil, fmt.Errorf("connecting to the embedded server: %w", err)
	}
	pub := nc // without users the server has one account
	if dial := srv.PublicDialer(); dial != nil {
		if pub, err = dial(ctx); err != nil {
			nc.Close()
			return nil, fmt.Errorf("connecting to the embedded server's public account: %w", err)
		}
	}
	context.AfterFunc(ctx, func() { nc.Close(); pub.Close() })
	var ids []string
	for _, r := range rounds {
		ids = append(ids, r.ID)
	}
	return watch.New(watch.Options{Checklist: rehearse.New(checks, time.Now(), o.Timeout), Subjects: subj, Conn: nc, Public: pub,
		Server: srv.NATS(), LichessURL: cfg.Lichess.URL, Token: cfg.Lichess.Token, Rounds: ids, OnChange: o.OnChange})
}
