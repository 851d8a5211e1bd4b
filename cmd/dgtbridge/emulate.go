package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// runEmulate runs one emulated DGT board with a DGT 3000 clock
// (docs/contract.md §1).
func runEmulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if emulateProtocol(args) == "obp" {
		return runEmulateOBP(ctx, args, stdout, stderr)
	}
	fs := newFlags("emulate", "[--pty] [--game PGN] [flags] | --boards N [--bus 32] [flags]",
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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("emulate takes no arguments, got %q", fs.Args())}
	}
	if *f.nBoards < 1 || *f.busSize < 0 {
		return usageError{errors.New("--boards must be at least 1 and --bus not negative")}
	}
	if *f.nBoards > 1 || *f.busSize > 0 {
		set := map[string]bool{}
		fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
		for _, single := range []string{"pty", "game", "index", "serial", "speed", "gesture", "rotated", "no-clock", "flicker"} {
			if set[single] {
				return usageError{fmt.Errorf("--%s is for one board; with --boards use --games, --move-every, --seed, --clock", single)}
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
	if *f.busSize > dgtBusMax {
		return usageError{fmt.Errorf("--bus %d: at most %d boards on a line", *f.busSize, dgtBusMax)}
	}
	think, err := parseSpan(*f.moveEvery)
	if err != nil {
		return usageError{fmt.Errorf("--move-every %w", err)}
	}
	games, err := hallGames(*f.gamesFile)
	if err != nil {
		return err
	}
	ho := hallOptions{boards: *f.nBoards, bus: *f.busSize, think: think, games: games, seed: *f.seed, round: *f.round, firstBoard: 1,
		clock: emu.ClockSetting{Base: 90 * time.Minute, Increment: 30 * time.Second, Mode: emu.Fischer}, timeCtl: "5400+30"}
	if *f.tc != "" {
		if ho.clock, err = parseTimeControl(*f.tc); err != nil {
			return usageError{err}
		}
		ho.timeCtl = *f.tc
	}
	if *f.truthFile != "" {
		out, err := os.Create(*f.truthFile)
		if err != nil {
			return err
		}
		defer out.Close()
		ho.truth = out
	}
	return runEmulateHall(ctx, ho, stdout, stderr)
}

// emulateOne serves one board, playing --game once a host talks to it.
func emulateOne(ctx context.Context, f emulateFlags, stdout, stderr io.Writer) error {
	if *f.speed <= 0 {
		return usageError{errors.New("--speed must be positive")}
	}
	opts := emu.Setup{Serial: *f.serialNr, Seed: *f.seed, Flicker: *f.flicker, NoClock: *f.noClock}
	if *f.rotated {
		opts.Orientation = dgt.Rotated
	}
	tc := *f.tc
	var g *pgn.Game
	if *f.game != "" {
		var err error
		if g, err = readGame(*f.game, *f.index); err != nil {
			return err
		}
		if tc == "" {
			tc = g.Tag("TimeControl")
		}
		pl := g.Start.Placement()
		opts.Placement = &pl
	}
	if tc != "" && tc != "-" && tc != "?" {
		set, err := parseTimeControl(tc)
		if err != nil {
			return usageError{err}
		}
		opts.Clock = set
	}
	e := emu.New(opts, time.Now())
	var script emu.Script
	if g != nil {
		var err error
		if script, err = humanScript(g, *f.speed, *f.seed, *f.gesture); err != nil {
			return err
		}
	}

	// The game starter lives as long as the board it drives: it is
	// stopped and joined when serving ends, for whatever reason.
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	if !*f.usePTY {
		fmt.Fprintln(stderr, "dgtbridge emulate: serving on stdin/stdout")
		wg.Go(func() { startWhenTalkedTo(ctx, e, script, stderr) })
		return emu.Run(ctx, stdio{}, e)
	}
	master, path, err := pty.Open()
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, path)
	fmt.Fprintf(stderr, "dgtbridge emulate: board %s on %s (Ctrl-C to stop)\n", opts.Serial, path)
	wg.Go(func() { startWhenTalkedTo(ctx, e, script, stderr) })
	return emu.ServePTY(ctx, master, e)
}

// startWhenTalkedTo schedules the game 2 s after the host's first
// command, so a host that connects late does not miss the opening.
func startWhenTalkedTo(ctx context.Context, e *emu.Emulator, s emu.Script, stderr io.Writer) {
	if len(s) == 0 {
		return
	}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if cmds, _ := e.Received(); len(cmds) > 0 {
			e.Schedule(time.Now().Add(2*time.Second), s)
			fmt.Fprintf(stderr, "dgtbridge emulate: host connected, playing %d actions over %v\n", len(s), s.Duration().Round(time.Second))
			return
		}
	}
}

// readGame reads game number index (1-based) of a PGN file.
func readGame(path string, index int) (*pgn.Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := pgn.NewReader(f, pgn.ReaderOptions{Variations: pgn.SkipVariations})
	for i := 1; ; i++ {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s has %d games, no game %d", path, i-1, index)
		}
		if i < index {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return g, nil
	}
}

// humanScript turns a game into timed lifts, placements and clock
// presses: think times from the game's [%emt] where present (else 1–5 s),
// divided by speed; handling styles drawn from seed: mostly clean, some
// destination-first, capture-first and slow slides, castling rook first
// now and then.
func humanScript(g *pgn.Game, speed float64, seed uint64, gesture bool) (emu.Script, error) {
	rng := rand.New(rand.NewPCG(seed, 0xd67))
	think := make([]time.Duration, len(g.Moves)+1)
	hand := make([]emu.Handling, len(g.Moves)+1)
	for i, m := range g.Moves {
		d := time.Second + time.Duration(rng.Int64N(int64(4*time.Second)))
		if m.HasEMT && m.EMT > 0 {
			d = m.EMT
		}
		think[i+1] = time.Duration(float64(d) / speed)
		h := emu.Handling{Speed: speed * (0.7 + 0.6*rng.Float64()), RookFirst: rng.IntN(10) < 3}
		switch r := rng.IntN(20); {
		case r < 3:
			h.Style = emu.DestinationFirst
		case r < 6:
			h.Style = emu.CaptureFirst
		case r < 8:
			h.Style = emu.Slow
		}
		hand[i+1] = h
	}
	moves := make([]rules.Move, 0, len(g.Moves))
	for _, m := range g.Moves {
		moves = append(moves, m.Move)
	}
	s, err := emu.GameScript(g.Start, moves, emu.GameOptions{
		Think:    func(ply int) time.Duration { return think[ply] },
		Handling: func(ply int) emu.Handling { return hand[ply] },
	})
	if err != nil {
		return nil, err
	}
	if gesture && (g.Result == emu.WhiteWins || g.Result == emu.BlackWins || g.Result == emu.Draw) {
		final, err := g.Final()
		if err != nil {
			return nil, err
		}
		pl := final.Placement()
		gs, err := emu.ResultGesture(&pl, g.Result, speed)
		if err != nil {
			return nil, err
		}
		s = s.Then(time.Duration(float64(3*time.Second)/speed), gs)
	}
	return s, nil
}

// parseTimeControl parses "base+inc" in seconds (PGN TimeControl's
// simple form, e.g. "5400+30", "180+2", "300").
func parseTimeControl(s string) (emu.ClockSetting, error) {
	base, inc, _ := strings.Cut(s, "+")
	b, err := strconv.Atoi(base)
	if err != nil || b <= 0 {
		return emu.ClockSetting{}, fmt.Errorf("time control %q: want base+increment in seconds, e.g. 5400+30", s)
	}
	i := 0
	if inc != "" {
		if i, err = strconv.Atoi(inc); err != nil || i < 0 {
			return emu.ClockSetting{}, fmt.Errorf("time control %q: bad increment", s)
		}
	}
	return emu.ClockSetting{Base: time.Duration(b) * time.Second, Increment: time.Duration(i) * time.Second, Mode: emu.Fischer}, nil
}

// stdio is the process's stdin and stdout as one port.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }
