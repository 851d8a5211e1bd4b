package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/replay"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// teamReplay is "replay" of a team-drop match: its flags.
type teamReplay struct {
	files   []string
	rs      ruleset.RuleSet
	variant string
	fen     string
	format  recording.Format
	alerts  string
	bpgn    bool
}

// runReplayTeam implements "dgtbridge replay --ruleset bgo2026-team A B"
// (contract §1): the recordings of the two partner boards (A board 1, B
// board 2) are replayed together, their messages in the order of their
// timestamps, so the captures pass between the boards at the presses. Both
// games go to stdout as PGN (games replay.1.1 and replay.1.2, A's first),
// or with --bpgn the match as one BPGN 1.0 game; the alerts of both as
// JSON lines to stderr or --alerts FILE.
func runReplayTeam(ctx context.Context, o teamReplay, stdout, stderr io.Writer) error {
	if o.variant != "team-drop" {
		return cli.UsageError{Err: fmt.Errorf("replay: --bpgn is for team-drop matches (--ruleset %s is %s)", o.rs.Name, o.rs.Variant)}
	}
	if len(o.files) != 2 {
		return cli.UsageError{Err: fmt.Errorf("replay: a team-drop match is replayed from the recordings of its two boards: give A (board 1) and B (board 2), not %d file(s)", len(o.files))}
	}
	if o.rs.Variant != "team-drop" {
		return cli.UsageError{Err: fmt.Errorf("replay: --variant team-drop needs a team-drop rule set (e.g. --ruleset %s), not %s", ruleset.BGO2026Team, o.rs.Name)}
	}
	var ins [2]io.Reader
	for i, name := range o.files {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		defer f.Close()
		r, stop := replay.UntilDone(ctx, f)
		defer stop()
		ins[i] = r
	}
	aw := stderr
	if o.alerts != "" {
		af, err := createAlerts(o.alerts, o.files)
		if err != nil {
			return err
		}
		defer af.Close()
		aw = af
	}
	opts := func(board, partner int) session.SessionOptions {
		return session.SessionOptions{
			Info:     gamerecord.Info{Game: game.ID{Event: "replay", Round: 1, Board: board}, Variant: o.variant, Ruleset: o.rs.Name},
			StartFEN: o.fen, RuleSet: o.rs, Tracker: session.DefaultTrackerOptions(),
			Partner: game.ID{Event: "replay", Round: 1, Board: partner},
		}
	}
	res, err := replay.Team(ins[0], ins[1], replay.TeamOptions{A: opts(1, 2), B: opts(2, 1), Format: o.format,
		BadLine: func(err error) { fmt.Fprintf(stderr, "dgtbridge replay: skipped: %v\n", err) }})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, replay.ErrUntimed) {
		return cli.UsageError{Err: fmt.Errorf("replay: %w", err)}
	}
	if werr := res.Write(stdout, aw, o.bpgn); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}
