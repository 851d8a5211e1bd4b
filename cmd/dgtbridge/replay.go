package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/replay"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// runReplay implements "dgtbridge replay [flags] FILE…" (contract.md §1,
// §4): every file is replayed on its own; the games go to stdout as PGN, one
// per detected game (a set-up after moves starts a new one), and the alerts
// to stderr (or --alerts FILE) as JSON lines. --alerts never writes over
// one of the recordings, nor over an existing file that is not an alerts
// file. An interrupt stops it at once, even while it waits for a
// recording that is still being written. Games are numbered
// replay.<file>.<game> (GameId tag, alert ids). Hexlog timestamps are
// honoured; raw and base64 messages are spaced replay.DefaultGap apart.
// A team-drop rule set replays two partner boards together
// (replay_team.go).
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("replay", "[flags] FILE…",
		"Reconstruct games from recorded serial traffic of DGT or OBP boards (hexlog, raw or base64): the games as PGN on stdout,\n"+
			"the arbiter alerts as JSON lines on stderr or --alerts FILE. Untimed recordings (raw, base64) are\n"+
			"read with messages 700 ms apart.", stderr)
	rsName := fs.String("ruleset", ruleset.FIDE2018Standard, "rule set judging the games (e.g. fide2018-blitz)")
	variant := fs.String("variant", "", "variant: chess, chess960, team-drop, xiangqi (default: the rule set's; xiangqi reads OBP recordings)")
	fen := fs.String("fen", "", "start position (default: the variant's start; a set-up on the board starts a new game)")
	format := fs.String("format", "auto", "recording format: auto, hexlog, raw or base64")
	alerts := fs.String("alerts", "", "write the alerts (JSON lines) to this file instead of stderr")
	bpgn := fs.Bool("bpgn", false, "team-drop: print the match of the two recordings as BPGN instead of two PGN games")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.UsageError{Err: errors.New("replay: give at least one recording FILE (e.g. data/record/1/…hexlog)")}
	}
	f, err := recording.ParseFormat(*format)
	if err != nil {
		return cli.UsageError{Err: fmt.Errorf("replay: --format: %w (want auto, hexlog, raw or base64)", err)}
	}
	rs, err := ruleset.Lookup(*rsName)
	if err != nil {
		return cli.UsageError{Err: fmt.Errorf("replay: --ruleset: %w", err)}
	}
	v, rs, err := replayVariant(fs.FlagSet, *variant, rs) // replay_obp.go
	if err != nil {
		return err
	}
	if *fen != "" {
		if _, err := pgn.Position(v, *fen); err != nil {
			return cli.UsageError{Err: fmt.Errorf("replay: --fen: %w", err)}
		}
	}
	if v == "team-drop" || *bpgn {
		return runReplayTeam(ctx, teamReplay{files: fs.Args(), rs: rs, variant: v, fen: *fen, format: f, alerts: *alerts, bpgn: *bpgn}, stdout, stderr)
	}
	aw := stderr
	if *alerts != "" {
		af, err := createAlerts(*alerts, fs.Args())
		if err != nil {
			return err
		}
		defer af.Close()
		aw = af
	}
	for i, name := range fs.Args() {
		if err := ctx.Err(); err != nil {
			return err
		}
		o := replay.Options{Format: f, Session: session.SessionOptions{
			Info:     gamerecord.Info{Game: game.ID{Event: "replay", Round: i + 1, Board: 1}, Variant: v, Ruleset: rs.Name},
			StartFEN: *fen, RuleSet: rs, Tracker: session.DefaultTrackerOptions(),
		}, BadLine: func(err error) { fmt.Fprintf(stderr, "dgtbridge replay: %s: skipped: %v\n", name, err) }}
		if err := replayFile(ctx, name, o, stdout, aw); err != nil {
			return err
		}
	}
	return nil
}

// replayFile replays one recording: its games as PGN on stdout, its
// alerts (JSON lines) to alerts. An interrupt stops it, even mid-read.
func replayFile(ctx context.Context, name string, o replay.Options, stdout, alerts io.Writer) error {
	in, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	r, stop := replay.UntilDone(ctx, in)
	res, err := replay.Recording(r, o) // DGT or OBP
	stop()
	in.Close()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if werr := res.Write(stdout, alerts); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("replay: %s: %w", name, err)
	}
	return nil
}

// createAlerts creates the --alerts file, refusing to write over one of
// the recordings (a shell glob can expand into the flag's place:
// "replay --alerts *.hexlog") or over an existing file that does not hold
// alerts (JSON lines: empty, or a JSON object first).
func createAlerts(path string, inputs []string) (*os.File, error) {
	f, err := cli.CreateOutput(path, inputs, func(head []byte) bool {
		h := strings.TrimLeft(string(head), " \t\r\n")
		return h == "" || h[0] == '{' // empty, or JSON lines
	})
	switch {
	case errors.Is(err, cli.ErrOutputIsInput):
		return nil, cli.UsageError{Err: fmt.Errorf("replay: --alerts %s is also one of the recordings to replay: give a new file for the alerts (did a shell pattern expand into --alerts?)", path)}
	case errors.Is(err, cli.ErrNotOurs):
		return nil, cli.UsageError{Err: fmt.Errorf("replay: --alerts %s exists and is not an alerts file (it could be a recording): give a new file name, or remove it first", path)}
	case err != nil:
		return nil, fmt.Errorf("replay: --alerts: %w", err)
	}
	return f, nil
}
