package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/internal/cli"
)

// runEmulate runs one emulated DGT board with a DGT 3000 clock
// (docs/contract.md §1).
func runEmulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if emulateProtocol(args) == "obp" {
		return runEmulateOBP(ctx, args, stdout, stderr)
	}
	fs := cli.NewFlags("emulate", "[--pty] [--game PGN] [flags] | --boards N [--bus 32] [flags]",
		"Run one emulated DGT board + DGT 3000 clock on a pseudo-terminal and print its device path.\n"+
			"With --game, play the game's moves with human-like handling once a host has talked to the board;\n"+
			"otherwise just answer host commands. Runs until interrupted.\n"+
			"With --boards N: N boards with clocks (on bus lines of --bus boards, or one pseudo-terminal each)\n"+
			"play real games with realistic hands, one move every --move-every; a ready-to-use boards:\n"+
			"configuration naming their device paths is printed: a load test for your own hardware.", stderr)
	f := emulateFlags{
		usePTY:   fs.Bool("pty", true, "serve on a new pseudo-terminal (false: serve on stdin/stdout)"),
		game:     fs.String("game", "", "PGN `file` whose main line the board plays"),
		index:    fs.Int("index", 1, "which game of the PGN file to play (1 = the first)"),
		serialNr: fs.String("serial", "01025", "5-digit serial number (also the bus address)"),
		speed:    fs.Float64("speed", 1, "pace of the players: 2 = twice as fast thinking and handling"),
		seed:     fs.Uint64("seed", 1, "seed of the handling styles and think times"),
		flicker:  fs.Float64("flicker", 0, "probability per scan of a sensor misreading one square"),
		rotated:  fs.Bool("rotated", false, "the board is turned round (White's pieces at fields 0-15)"),
		noClock:  fs.Bool("no-clock", false, "no clock cabled to the board"),
		tc:       fs.String("clock", "", "time control `base+inc` in seconds (default: the game's TimeControl tag, else 5400+30)"),
		gesture:  fs.Bool("gesture", false, "after the last move, signal the result with both kings in the centre"),
	}
	fs.String("protocol", "dgt", "dgt, or obp for an Open Board Protocol board (see emulate --protocol obp --help)")
	f.nBoards = fs.Int("boards", 1, "how many boards to emulate (more than 1: a hall, see above)")
	f.busSize = fs.Int("bus", 0, "boards per DGT bus line (e.g. 32); 0: each board on its own pseudo-terminal")
	f.moveEvery = fs.String("move-every", "1s-3s", "with --boards: the pause before each move, a `range` like 1s-3s")
	f.gamesFile = fs.String("games", "", "with --boards: PGN `file` of the games the boards play in turn (default: built-in famous games)")
	f.round = fs.Int("round", 1, "with --boards: the round in the printed configuration")
	f.truthFile = fs.String("truth", "", "with --boards: write every ply played (board, game, ply, move, touch, release, press times) as JSON lines to `file`")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("emulate takes no arguments, got %q", fs.Args())}
	}
	if *f.nBoards < 1 || *f.busSize < 0 {
		return cli.UsageError{Err: errors.New("--boards must be at least 1 and --bus not negative")}
	}
	if *f.nBoards > 1 || *f.busSize > 0 {
		set := fs.Given()
		for _, single := range []string{"pty", "game", "index", "serial", "speed", "gesture", "rotated", "no-clock", "flicker"} {
			if set[single] {
				return cli.UsageError{Err: fmt.Errorf("--%s is for one board; with --boards use --games, --move-every, --seed, --clock", single)}
			}
		}
		return emulateMany(ctx, f, stdout, stderr)
	}
	return emulateOne(ctx, f, stdout, stderr)
}

// emulateFlags are emulate's flags, as parsed.
type emulateFlags struct {
	usePTY, rotated, noClock, gesture *bool
	game, serialNr, tc                *string
	index, nBoards, busSize, round    *int
	speed, flicker                    *float64
	seed                              *uint64
	moveEvery, gamesFile, truthFile   *string
}

// emulateMany serves a hall of boards (emulate --boards N [--bus M]).
func emulateMany(ctx context.Context, f emulateFlags, stdout, stderr io.Writer) error {
	if *f.busSize > demo.BusMax {
		return cli.UsageError{Err: fmt.Errorf("--bus %d: at most %d boards on a line", *f.busSize, demo.BusMax)}
	}
	think, err := emu.ParseSpan(*f.moveEvery)
	if err != nil {
		return cli.UsageError{Err: fmt.Errorf("--move-every %w", err)}
	}
	games, err := demo.HallGames(*f.gamesFile)
	if err != nil {
		return err
	}
	ho := demo.HallOptions{Boards: *f.nBoards, Bus: *f.busSize, Think: think, Games: games, Seed: *f.seed, Round: *f.round, FirstBoard: 1,
		Clock: emu.ClockSetting{Base: 90 * time.Minute, Increment: 30 * time.Second, Mode: emu.Fischer}, TimeControl: "5400+30"}
	if *f.tc != "" {
		if ho.Clock, err = emu.ParseTimeControl(*f.tc); err != nil {
			return cli.UsageError{Err: err}
		}
		ho.TimeControl = *f.tc
	}
	if *f.truthFile != "" {
		out, err := os.Create(*f.truthFile)
		if err != nil {
			return err
		}
		defer out.Close()
		ho.Truth = out
	}
	return demo.ServeHall(ctx, ho, stdout, stderr)
}

// emulateOne serves one board, playing --game once a host talks to it.
func emulateOne(ctx context.Context, f emulateFlags, stdout, stderr io.Writer) error {
	if *f.speed <= 0 {
		return cli.UsageError{Err: errors.New("--speed must be positive")}
	}
	o := demo.BoardOptions{Setup: emu.Setup{Serial: *f.serialNr, Seed: *f.seed, Flicker: *f.flicker, NoClock: *f.noClock},
		Speed: *f.speed, Seed: *f.seed, Gesture: *f.gesture, PTY: *f.usePTY}
	if *f.rotated {
		o.Setup.Orientation = dgt.Rotated
	}
	if *f.game != "" {
		var err error
		if o.Game, err = demo.ReadGame(*f.game, *f.index); err != nil {
			return err
		}
	}
	set, ok, err := demo.ClockFor(*f.tc, o.Game)
	if err != nil {
		return cli.UsageError{Err: err}
	} else if ok {
		o.Setup.Clock = set
	}
	return demo.ServeBoard(ctx, o, stdout, stderr)
}
