package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/broadcast/hall"
	"github.com/dgtbridge/dgtbridge/dgt/record"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// runReplay implements "dgtbridge replay [flags] FILE…" (interfaces.md §1,
// §4): every file is replayed on its own; the games go to stdout as PGN, one
// per detected game (a set-up after moves starts a new one), and the alerts
// to stderr (or --alerts FILE) as JSON lines. Games are numbered
// replay.<file>.<game> (GameId tag, alert ids). Hexlog timestamps are
// honoured; raw and base64 messages are spaced hall.DefaultReplayGap apart.
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "[flags] FILE…",
		"Reconstruct games from recorded DGT serial traffic (hexlog, raw or base64): the games as PGN on stdout,\n"+
			"the arbiter alerts as JSON lines on stderr or --alerts FILE. Untimed recordings (raw, base64) are\n"+
			"read with messages 700 ms apart.", stderr)
	rsName := fs.String("ruleset", ruleset.FIDE2018Standard, "rule set judging the games (e.g. fide2018-blitz)")
	variant := fs.String("variant", "", "variant: chess, chess960, team-drop (default: the rule set's)")
	fen := fs.String("fen", "", "start position (default: the variant's start; a set-up on the board starts a new game)")
	format := fs.String("format", "auto", "recording format: auto, hexlog, raw or base64")
	alerts := fs.String("alerts", "", "write the alerts (JSON lines) to this file instead of stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{errors.New("replay: give at least one recording FILE (e.g. data/record/1/…hexlog)")}
	}
	f, err := record.ParseFormat(*format)
	if err != nil {
		return usageError{fmt.Errorf("replay: --format: %w (want auto, hexlog, raw or base64)", err)}
	}
	rs, err := ruleset.Lookup(*rsName)
	if err != nil {
		return usageError{fmt.Errorf("replay: --ruleset: %w", err)}
	}
	v := rs.Variant
	if *variant != "" {
		if _, err := chess.ParseVariant(*variant); err != nil {
			return usageError{fmt.Errorf("replay: --variant %q: %w (want chess, chess960 or team-drop)", *variant, err)}
		}
		v = *variant
	}
	if *fen != "" {
		if _, err := pgn.ChessPosition(v, *fen); err != nil {
			return usageError{fmt.Errorf("replay: --fen: %w", err)}
		}
	}
	aw := stderr
	if *alerts != "" {
		af, err := os.Create(*alerts)
		if err != nil {
			return fmt.Errorf("replay: --alerts: %w", err)
		}
		defer af.Close()
		aw = af
	}
	enc := json.NewEncoder(aw)
	for i, name := range fs.Args() {
		if err := ctx.Err(); err != nil {
			return err
		}
		in, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		o := hall.ReplayOptions{Format: f, Session: hall.SessionOptions{
			Info:     hall.Info{Game: broadcast.GameID{Event: "replay", Round: i + 1, Board: 1}, Variant: v, Ruleset: rs.Name},
			StartFEN: *fen, RuleSet: rs, Tracker: hall.DefaultTrackerOptions(),
		}, BadLine: func(err error) { fmt.Fprintf(stderr, "dgtbridge replay: %s: skipped: %v\n", name, err) }}
		res, err := hall.Replay(in, o)
		in.Close()
		for _, g := range res.Games {
			if len(g.Moves) == 0 && g.Result == "*" && len(res.Games) > 1 {
				continue // a set-up with no game after it
			}
			if err := pgn.Write(stdout, g.PGNGame(), pgn.WriteOptions{}); err != nil {
				return err
			}
		}
		for _, a := range res.Alerts {
			if err := enc.Encode(a); err != nil {
				return fmt.Errorf("replay: writing alerts: %w", err)
			}
		}
		if err != nil {
			return fmt.Errorf("replay: %s: %w", name, err)
		}
	}
	return nil
}
