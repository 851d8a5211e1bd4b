package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/internal/release"
	"github.com/dgtbridge/dgtbridge/rehearse"
)

// runRehearse implements "dgtbridge rehearse": the rehearsal of the
// daemon package (daemon.Rehearse), its flags and its output: the lines
// of the checklist as they change, the whole checklist at the end.
func runRehearse(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("rehearse", "[--config FILE] [--lichess-round ID] [flags]",
		"Rehearse the event in the hall: run the daemon on the configuration's boards, users and Lichess token, for\n"+
			"games of the rehearsal's own (event.id + \""+daemon.RehearsalSuffix+"\", a data folder of their own), and check, while\n"+
			"the organiser moves a piece and presses the clock on each board: every board and clock answers and the clock\n"+
			"is set for the time control (its times at rest before the move), the move reaches the live feed and, not\n"+
			"before the public delay, the public copy; every Lichess round of lichess.rounds exists and the token may\n"+
			"push to it, and a test push to --lichess-round goes through; every organiser and arbiter user signs in\n"+
			"(from the tablet: the daemon cannot know the passwords); every blind player's relay device receives the\n"+
			"announcement of the move. The checklist is printed as lines change and at the end, and dgtbridge status\n"+
			"shows it meanwhile. Stop the daemon first (the rehearsal needs its ports). Exit status 0 when every check\n"+
			"passed, 1 when one failed or the time ran out.", stderr)
	var o daemon.RehearsalOptions
	file := fs.String("config", "", "configuration file (default ./dgtbridge.yaml, then /etc/dgtbridge/dgtbridge.yaml)")
	fs.StringVar(&o.LichessRound, "lichess-round", "", "the id of a Lichess broadcast round of a test broadcast, for the test push (never a round of the event)")
	fs.DurationVar(&o.PublicDelay, "public-delay", 30*time.Second, "the rehearsal's public delay (its games are not the event's: the delay of event.public_delay is not needed)")
	fs.DurationVar(&o.Timeout, "timeout", 15*time.Minute, "how long the rehearsal waits for every check to pass")
	fs.StringVar(&o.DataDir, "data-dir", "", "the rehearsal's data folder (default <data_dir>/rehearsal, emptied at start); a folder given here must be empty")
	logger := fs.Logger("warn", stderr)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("rehearse: unexpected argument %q (the configuration is given with --config FILE)", fs.Arg(0))}
	}
	if o.PublicDelay < 0 || o.Timeout <= o.PublicDelay {
		return cli.UsageError{Err: fmt.Errorf("rehearse: --timeout (%v) must be longer than --public-delay (%v), which is not negative", o.Timeout, o.PublicDelay)}
	}
	log, err := logger()
	if err != nil {
		return err
	}
	cfg, err := config.Load(config.LoadOptions{File: *file})
	if err != nil {
		return err
	}
	if err := cfg.Unsupported(); err != nil {
		return err
	}
	event := cfg.Event.ID
	o.Version = version
	o.Commit, _ = release.Stamp()
	o.OnStart = func(checks []rehearse.Check, dataDir string) {
		fmt.Fprintf(stdout, "rehearsal of %s: %d checks, until %s; games %s%s.<round>.<board>, data in %s\n",
			event, len(checks), time.Now().Add(o.Timeout).Format(time.TimeOnly), event, daemon.RehearsalSuffix, dataDir)
	}
	o.OnChange = rehearse.PrintChanges(stdout, time.Now)
	final, err := daemon.Rehearse(ctx, cfg, o, log)
	if err != nil {
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
