package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/rehearse"
	"github.com/dgtbridge/dgtbridge/status"
)

// runStatus implements "dgtbridge status [--config FILE] [--json]"
// (docs/contract.md §1): every board of the running daemon as it sees it,
// read from the status bucket over NATS: with nats.creds when nats.url is
// set, else as the first organiser (or arbiter) user of the embedded
// server whose password is written out (--user/--password otherwise).
func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("status", "[--config FILE] [--json]",
		"Show every board of the running daemon: connected or not, its game, ply, last move, clocks and the\n"+
			"alerts the arbiter has not acted on, read from NATS (the daemon writes them to the bucket <prefix>_status).", stderr)
	file := fs.String("config", "", "configuration file (default ./dgtbridge.yaml, then /etc/dgtbridge/dgtbridge.yaml)")
	asJSON := fs.Bool("json", false, `print {"boards":[…]} as JSON instead of a table`)
	user := fs.String("user", "", "NATS user (default: the configuration's first organiser or arbiter user)")
	password := fs.String("password", "", "that user's password (visible to every user of this machine in ps: prefer "+status.PasswordEnv+", --password-file or --password-stdin)")
	pwFile := fs.String("password-file", "", "read that user's password from the first line of this file")
	pwStdin := fs.Bool("password-stdin", false, "read that user's password from the first line of standard input")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for NATS")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("status: unexpected argument %q (the configuration is given with --config FILE)", fs.Arg(0))}
	}
	cfg, err := config.Load(config.LoadOptions{File: *file})
	if err != nil {
		return err
	}
	subj, err := broadcast.NewSubjects(cfg.NATS.Prefix)
	if err != nil {
		return fmt.Errorf("nats.prefix: %w", err)
	}
	pw, err := statusPassword(*password, status.PasswordOptions{File: *pwFile, Stdin: *pwStdin, In: os.Stdin}, stderr)
	if err != nil {
		return err
	}
	nc, where, err := daemon.Connect(&cfg, *user, pw, *timeout)
	if errors.Is(err, daemon.ErrNoClientUser) {
		return cli.UsageError{Err: fmt.Errorf("status: %w", err)}
	} else if err != nil {
		return err
	}
	defer nc.Close()
	rctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	d, boards, err := status.Read(rctx, nc, subj)
	if err != nil {
		if errors.Is(err, status.ErrNoDaemon) {
			return fmt.Errorf("status: %w (NATS %s; is \"dgtbridge run\" running with this configuration?)", err, where)
		}
		return fmt.Errorf("status: reading the status bucket on %s: %w", where, err)
	}
	// A rehearsal's checklist (dgtbridge rehearse), when one is running
	// or ran on this NATS server.
	rh, isRehearsal, err := status.ReadRehearsal(rctx, nc, subj)
	if err != nil {
		return fmt.Errorf("status: reading the rehearsal's checklist on %s: %w", where, err)
	}
	var shown *rehearse.Report
	if isRehearsal {
		shown = &rh
	}
	if *asJSON {
		if d.StoppedAt.IsZero() && time.Since(d.UpdatedAt.Time) > status.StaleAfter {
			fmt.Fprintf(stderr, "dgtbridge status: the daemon has written nothing since %s: the reports are old\n", d.UpdatedAt.Local().Format(time.DateTime))
		}
		return status.WriteJSON(stdout, d, boards, shown)
	}
	return status.PrintWith(stdout, d, boards, shown, time.Now())
}
