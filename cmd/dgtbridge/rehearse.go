package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	"github.com/dgtbridge/dgtbridge/serialport"
)

// rehearsalSuffix is added to event.id for the rehearsal's games: nothing
// it publishes is a game of the event.
const rehearsalSuffix = "-rehearsal"

// rehearseOptions are the flags of "rehearse".
type rehearseOptions struct {
	file, dataDir, lichessRound, level string
	publicDelay, timeout               time.Duration
}

// runRehearse implements "dgtbridge rehearse": the daemon on the
// configuration's boards, ports, users and Lichess token, for the
// rehearsal's own games, and the checklist of package rehearse fed by
// rehearse/watch until every line passed or the time is up.
func runRehearse(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rehearse", "[--config FILE] [--lichess-round ID] [flags]",
		"Rehearse the event in the hall: run the daemon on the configuration's boards, users and Lichess token, for\n"+
			"games of the rehearsal's own (event.id + \""+rehearsalSuffix+"\", a data folder of their own), and check, while\n"+
			"the organiser moves a piece and presses the clock on each board: every board and clock answers and the clock\n"+
			"is set for the time control (its times at rest before the move), the move reaches the live feed and, not\n"+
			"before the public delay, the public copy; every Lichess round of lichess.rounds exists and the token may\n"+
			"push to it, and a test push to --lichess-round goes through; every organiser and arbiter user signs in\n"+
			"(from the tablet: the daemon cannot know the passwords); every blind player's relay device receives the\n"+
			"announcement of the move. The checklist is printed as lines change and at the end, and dgtbridge status\n"+
			"shows it meanwhile. Stop the daemon first (the rehearsal needs its ports). Exit status 0 when every check\n"+
			"passed, 1 when one failed or the time ran out.", stderr)
	var o rehearseOptions
	fs.StringVar(&o.file, "config", "", "configuration file (default ./dgtbridge.yaml, then /etc/dgtbridge/dgtbridge.yaml)")
	fs.StringVar(&o.lichessRound, "lichess-round", "", "the id of a Lichess broadcast round of a test broadcast, for the test push (never a round of the event)")
	fs.DurationVar(&o.publicDelay, "public-delay", 30*time.Second, "the rehearsal's public delay (its games are not the event's: the delay of event.public_delay is not needed)")
	fs.DurationVar(&o.timeout, "timeout", 15*time.Minute, "how long the rehearsal waits for every check to pass")
	fs.StringVar(&o.dataDir, "data-dir", "", "the rehearsal's data folder (default <data_dir>/rehearsal, emptied at start); a folder given here must be empty")
	fs.StringVar(&o.level, "log-level", "warn", "the daemon's log level: debug, info, warn or error")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("rehearse: unexpected argument %q (the configuration is given with --config FILE)", fs.Arg(0))}
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(o.level)); err != nil {
		return usageError{fmt.Errorf("rehearse: --log-level %q: want debug, info, warn or error", o.level)}
	}
	if o.publicDelay < 0 || o.timeout <= o.publicDelay {
		return usageError{fmt.Errorf("rehearse: --timeout (%v) must be longer than --public-delay (%v), which is not negative", o.timeout, o.publicDelay)}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lv}))
	cfg, err := config.Load(config.LoadOptions{File: o.file})
	if err != nil {
		return err
	}
	if err := cfg.Unsupported(); err != nil {
		return err
	}
	if cfg.NATS.URL != "" {
		return errors.New("rehearse: nats.url is set: the rehearsal runs the embedded NATS server, whose connections show who signs in; rehearse with a configuration without nats.url")
	}
	if len(cfg.Boards) == 0 {
		return errNoBoards
	}
	event := cfg.Event.ID
	checks := rehearsalChecks(&cfg, o.publicDelay, o.lichessRound)
	rounds := lichessIDs(cfg.Lichess)
	if err := rehearsalConfig(&cfg, o); err != nil {
		return err
	}
	claims := &serialport.Claims{}
	boards, err := hallBoards(&cfg, func(b config.Board) (hall.Board, error) {
		return daemonBoard(b, claims, log), nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "rehearsal of %s: %d checks, until %s; games %s%s.<round>.<board>, data in %s\n",
		event, len(checks), time.Now().Add(o.timeout).Format(time.TimeOnly), event, rehearsalSuffix, cfg.DataDir)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu     sync.Mutex
		final  rehearse.Report
		werr   error
		wg     sync.WaitGroup
		states = map[int]rehearse.State{}
	)
	// printChange prints each line whose state changed (a line still
	// waiting at the start is not printed: the final checklist lists it).
	printChange := func(r rehearse.Report) {
		for i, l := range r.Lines {
			prev, seen := states[i]
			states[i] = l.State
			if (!seen && l.State == rehearse.Waiting) || (seen && prev == l.State) {
				continue
			}
			line := fmt.Sprintf("%s %-7s %s", time.Now().Format(time.TimeOnly), l.State, l.Subject)
			if l.Reason != "" {
				line += ": " + l.Reason
			}
			fmt.Fprintln(stdout, line)
		}
	}
	started := func(h *hall.Hall, srv *broadcast.Server) {
		w, err := rehearsalWatcher(ctx, &cfg, srv, checks, rounds, o.timeout, printChange)
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
	derr := runDaemon(ctx, cfg, daemonHooks{Boards: boards, Started: started}, log, nil)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if err := errors.Join(werr, derr); err != nil {
		return fmt.Errorf("rehearse: %w", err)
	}
	if final.Lines == nil {
		return errors.New("rehearse: interrupted before the checklist started")
	}
	fmt.Fprintln(stdout)
	if err := rehearse.Print(stdout, final); err != nil {
		return err
	}
	if p, f, w := final.Count(); f+w > 0 {
		return fmt.Errorf("rehearse: %d of %d checks not passed (%d failed, %d waiting)", f+w, p+f+w, f, w)
	}
	return nil
}

// rehearsalConfig turns the configuration into the rehearsal's: its own
// event id, data folder and public delay; Lichess pushes only to the test
// round (the first round of the boards), never to the event's rounds.
func rehearsalConfig(cfg *config.Config, o rehearseOptions) error {
	id := cfg.Event.ID + rehearsalSuffix
	if !broadcast.ValidToken(id) {
		return fmt.Errorf("rehearse: event.id %q: %q is not a subject token", cfg.Event.ID, id)
	}
	cfg.Event.ID = id
	cfg.Event.PublicDelay = o.publicDelay
	dir := o.dataDir
	if dir == "" {
		dir = filepath.Join(cfg.DataDir, "rehearsal")
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("rehearse: emptying the last rehearsal's data folder: %w", err)
		}
	} else if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("rehearse: --data-dir %s is not empty: give an empty or new folder", dir)
	}
	cfg.DataDir = dir
	cfg.Lichess.Rounds, cfg.Lichess.Split = nil, nil
	if o.lichessRound != "" && cfg.Lichess.Token != "" {
		first := 0
		for _, b := range cfg.EffectiveBoards() {
			if first == 0 || b.Round < first {
				first = b.Round
			}
		}
		cfg.Lichess.Rounds = map[int]string{first: o.lichessRound}
	}
	return nil
}

// lichessIDs lists the Lichess rounds the configuration pushes to, by
// round: lichess.rounds, each followed by its lichess.split.
func lichessIDs(l config.Lichess) []rehearse.LichessRound {
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

// rehearsalChecks lists the checks of a configuration (before it is made
// the rehearsal's): each board's (its answer, its clock when it has a time
// control and is a DGT board, its move live and public) and its blind
// player's, each staff user's sign-in, the Lichess rounds and the test push.
func rehearsalChecks(cfg *config.Config, delay time.Duration, testRound string) []rehearse.Check {
	var out []rehearse.Check
	for _, b := range cfg.EffectiveBoards() {
		id := boardID(b)
		g := game.ID{Event: cfg.Event.ID + rehearsalSuffix, Round: b.Round, Board: b.Board}
		if b.Protocol != config.ProtocolManual {
			out = append(out, rehearse.BoardAnswers{Board: id, Port: b.Port})
		}
		if tc, err := clock.ParseTimeControl(b.TimeControl); err == nil && b.Protocol == config.ProtocolDGT && len(tc.Periods) > 0 && !tc.Periods[0].Sandclock {
			out = append(out, rehearse.ClockSet{Board: id, TimeControl: b.TimeControl, Rest: rehearse.RestTimes(tc.Periods[0].Time, tc.Periods[0].Increment)})
		}
		out = append(out, rehearse.LiveMove{Board: id, Game: g}, rehearse.PublicMove{Board: id, Game: g, Delay: delay})
		if b.Blind != nil {
			out = append(out, rehearse.BoardAnswers{Board: id + "-blind", Port: b.Blind.Port})
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
	rounds := lichessIDs(cfg.Lichess)
	for _, r := range rounds {
		out = append(out, r)
	}
	if len(rounds) > 0 || testRound != "" {
		out = append(out, rehearse.LichessPush{ID: testRound})
	}
	return out
}

// rehearsalWatcher makes the watcher of the rehearsal's daemon: its own
// connections to the embedded server (the daemon's account, the public
// one), the server's connections, the Lichess rounds to ask about.
func rehearsalWatcher(ctx context.Context, cfg *config.Config, srv *broadcast.Server, checks []rehearse.Check, rounds []rehearse.LichessRound,
	limit time.Duration, onChange func(rehearse.Report)) (*watch.Watcher, error) {
	subj, err := broadcast.NewSubjects(cfg.NATS.Prefix)
	if err != nil {
		return nil, err
	}
	nc, err := srv.Connect()
	if err != nil {
		return nil, fmt.Errorf("connecting to the embedded server: %w", err)
	}
	pub, err := srv.PublicDialer()(ctx)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("connecting to the embedded server's public account: %w", err)
	}
	context.AfterFunc(ctx, func() { nc.Close(); pub.Close() })
	var ids []string
	for _, r := range rounds {
		ids = append(ids, r.ID)
	}
	return watch.New(watch.Options{Checklist: rehearse.New(checks, time.Now(), limit), Subjects: subj, Conn: nc, Public: pub,
		Server: srv.NATS(), LichessURL: cfg.Lichess.URL, Token: cfg.Lichess.Token, Rounds: ids, OnChange: onChange})
}
