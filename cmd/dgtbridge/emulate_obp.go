package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	dgtemu "github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi/games"
)

// emulateProtocol returns the value of --protocol in emulate's arguments,
// "dgt" when it is not given.
func emulateProtocol(args []string) string {
	for i, a := range args {
		switch {
		case a == "--":
			return "dgt"
		case a == "--protocol" || a == "-protocol":
			if i+1 < len(args) {
				return args[i+1]
			}
		case strings.HasPrefix(a, "--protocol="), strings.HasPrefix(a, "-protocol="):
			_, v, _ := strings.Cut(a, "=")
			return v
		}
	}
	return "dgt"
}

// runEmulateOBP is "dgtbridge emulate --protocol obp" (docs/contract.md
// §1): one emulated Open Board Protocol board with its clock, xiangqi
// (9×10) or chess (8×8), on a pseudo-terminal whose path it prints. With
// --game it plays the game with human hands once a host has talked to it.
func runEmulateOBP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("emulate", "--protocol obp [--variant xiangqi|chess] [--game PGN] [flags]",
		"Run one emulated Open Board Protocol board + clock (docs/open-board-protocol.md) on a pseudo-terminal\n"+
			"and print its device path. With --game, play the game's moves with human hands (lifts, puts, the lever,\n"+
			"now and then a touched piece, a slide or a damaged line) once a host has talked to the board;\n"+
			"otherwise just answer host commands. Runs until interrupted.", stderr)
	fs.String("protocol", "obp", "obp (dgt: the DGT board, see emulate --help)")
	variant := fs.String("variant", "xiangqi", "xiangqi (a 9×10 board) or chess (8×8)")
	usePTY := fs.Bool("pty", true, "serve on a new pseudo-terminal (false: serve on stdin/stdout)")
	game := fs.String("game", "", "PGN `file` whose main line the board plays; ccpd:N plays game N (1–12) of the built-in master xiangqi games")
	index := fs.Int("index", 1, "which game of the PGN file to play (1 = the first)")
	serialNr := fs.String("serial", "OBP0001", "serial the board gives in its ident")
	speed := fs.Float64("speed", 1, "pace of the players: 2 = twice as fast thinking and handling")
	seed := fs.Uint64("seed", 1, "seed of the hands and the damaged lines")
	noClock := fs.Bool("no-clock", false, "no clock attached")
	occupancy := fs.Bool("occupancy", false, "a board that sees only occupied points, not which piece")
	tc := fs.String("clock", "", "time control `base+inc` in seconds (default: the game's TimeControl tag, else 900+10)")
	badLines := fs.Float64("bad-lines", 0.02, "probability that a line is damaged on the wire")
	incidents := fs.Float64("incidents", 0.1, "probability per move of a touched piece put back or a slide across a point")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("emulate takes no arguments, got %q", fs.Args())}
	}
	if *speed <= 0 {
		return usageError{errors.New("--speed must be positive")}
	}
	if *badLines < 0 || *badLines >= 1 || *incidents < 0 || *incidents > 1 {
		return usageError{errors.New("--bad-lines must be in [0, 1) and --incidents in [0, 1]")}
	}
	opts := emu.Options{Serial: *serialNr, NoClock: *noClock, Occupancy: *occupancy, BadLines: *badLines, Seed: *seed}
	switch *variant {
	case "xiangqi":
		opts.Geo = rules.Xiangqi9x10
	case "chess":
		opts.Geo = rules.Chess8x8
	default:
		return usageError{fmt.Errorf("--variant %q: want xiangqi or chess", *variant)}
	}
	var g *pgn.Game
	if *game != "" {
		var err error
		if g, err = obpGame(*game, *index); err != nil {
			return err
		}
		if g.Start.Geometry() != opts.Geo {
			return usageError{fmt.Errorf("--game is a %s game, the board is --variant %s", g.Start.Variant(), *variant)}
		}
		if *tc == "" {
			*tc = g.Tag("TimeControl")
		}
		pl := g.Start.Placement()
		opts.Placement = &pl
	}
	if *tc != "" && *tc != "-" && *tc != "?" {
		set, err := dgtemu.ParseTimeControl(*tc)
		if err != nil {
			return usageError{err}
		}
		opts.Base, opts.Increment = set.Base, set.Increment
	}
	e, err := emu.New(opts, time.Now())
	if err != nil {
		return err
	}
	serving := dgtemu.Serving{PTY: *usePTY, OnPath: func(path string) {
		fmt.Fprintln(stdout, path)
		fmt.Fprintf(stderr, "dgtbridge emulate: OBP %s board %s on %s (Ctrl-C to stop)\n", *variant, opts.Serial, path)
	}}
	if g != nil {
		h := humanGame(g)
		script, err := emu.HumanScript(h.Start, h.Moves, h.Thought, *speed, *seed, *incidents)
		if err != nil {
			return err
		}
		if len(script) > 0 {
			serving.Talked = func() bool { return len(e.Received()) > 0 }
			serving.Start = func() {
				startScript(stderr, script.Duration(), len(script), func(at time.Time) { e.Schedule(at, script) })
			}
		}
	}
	if !*usePTY {
		fmt.Fprintln(stderr, "dgtbridge emulate: OBP board serving on stdin/stdout")
	}
	return dgtemu.Serve(ctx, e, serving)
}

// obpGame reads the game to play: ccpd:N names a built-in game, anything
// else is a PGN file (game number index).
func obpGame(name string, index int) (*pgn.Game, error) {
	n, ok := strings.CutPrefix(name, "ccpd:")
	if !ok {
		return readGame(name, index)
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 1 || i > games.Count {
		return nil, usageError{fmt.Errorf("--game %s: want ccpd:1 to ccpd:%d", name, games.Count)}
	}
	all, errs := pgn.ReadAll(strings.NewReader(games.CCPD), pgn.ReaderOptions{Variations: pgn.SkipVariations})
	if len(errs) > 0 || len(all) < i {
		return nil, fmt.Errorf("built-in games: %v", errs)
	}
	return all[i-1], nil
}
