package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules"
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
	fs := cli.NewFlags("emulate", "--protocol obp [--variant xiangqi|chess] [--game PGN] [flags]",
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
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("emulate takes no arguments, got %q", fs.Args())}
	}
	if *speed <= 0 {
		return cli.UsageError{Err: errors.New("--speed must be positive")}
	}
	if *badLines < 0 || *badLines >= 1 || *incidents < 0 || *incidents > 1 {
		return cli.UsageError{Err: errors.New("--bad-lines must be in [0, 1) and --incidents in [0, 1]")}
	}
	o := demo.OBPBoardOptions{Board: emu.Options{Serial: *serialNr, NoClock: *noClock, Occupancy: *occupancy, BadLines: *badLines, Seed: *seed},
		Variant: *variant, Speed: *speed, Seed: *seed, Incidents: *incidents, PTY: *usePTY}
	switch *variant {
	case "xiangqi":
		o.Board.Geo = rules.Xiangqi9x10
	case "chess":
		o.Board.Geo = rules.Chess8x8
	default:
		return cli.UsageError{Err: fmt.Errorf("--variant %q: want xiangqi or chess", *variant)}
	}
	if *game != "" {
		var err error
		o.Game, err = demo.XiangqiGame(*game, *index)
		if errors.Is(err, demo.ErrNoSuchGame) {
			return cli.UsageError{Err: fmt.Errorf("--game %w", err)}
		} else if err != nil {
			return err
		}
		if o.Game.Start.Geometry() != o.Board.Geo {
			return cli.UsageError{Err: fmt.Errorf("--game is a %s game, the board is --variant %s", o.Game.Start.Variant(), *variant)}
		}
	}
	set, ok, err := demo.ClockFor(*tc, o.Game)
	if err != nil {
		return cli.UsageError{Err: err}
	} else if ok {
		o.Board.Base, o.Board.Increment = set.Base, set.Increment
	}
	return demo.ServeOBPBoard(ctx, o, stdout, stderr)
}
