package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	obpemu "github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi/games"
)

// BoardOptions say what [ServeBoard] serves: one emulated DGT board.
type BoardOptions struct {
	Setup emu.Setup // the board and its clock; Placement is set from Game
	// Game, when not nil, is played with human hands once a host has
	// talked to the board; nil: the board only answers host commands.
	Game    *pgn.Game
	Speed   float64 // pace of the players (1: a human's)
	Seed    uint64
	Gesture bool // after the last move, the result by both kings in the centre
	PTY     bool // on a new pseudo-terminal (false: standard input and output)
}

// ServeBoard serves one emulated DGT board until ctx is done; the
// pseudo-terminal's path goes to stdout, what happens to stderr.
func ServeBoard(ctx context.Context, o BoardOptions, stdout, stderr io.Writer) error {
	if o.Game != nil {
		pl := o.Game.Start.Placement()
		o.Setup.Placement = &pl
	}
	e := emu.New(o.Setup, time.Now())
	serving := emu.Serving{PTY: o.PTY, OnPath: func(path string) {
		fmt.Fprintln(stdout, path)
		fmt.Fprintf(stderr, "dgtbridge emulate: board %s on %s (Ctrl-C to stop)\n", o.Setup.Serial, path)
	}}
	if o.Game != nil {
		script, err := emu.HumanScript(HumanGame(o.Game), o.Speed, o.Seed, o.Gesture)
		if err != nil {
			return err
		}
		if len(script) > 0 {
			serving.Talked = func() bool { cmds, _ := e.Received(); return len(cmds) > 0 }
			serving.Start = func() {
				startScript(stderr, script.Duration(), len(script), func(at time.Time) { e.Schedule(at, script) })
			}
		}
	}
	if !o.PTY {
		fmt.Fprintln(stderr, "dgtbridge emulate: serving on stdin/stdout")
	}
	return emu.Serve(ctx, e, serving)
}

// OBPBoardOptions say what [ServeOBPBoard] serves: one emulated Open
// Board Protocol board.
type OBPBoardOptions struct {
	Board     obpemu.Options // Placement is set from Game
	Variant   string         // the board's variant, for the messages
	Game      *pgn.Game      // as in BoardOptions
	Speed     float64
	Seed      uint64
	Incidents float64 // probability per move of a touched piece put back or a slide
	PTY       bool
}

// ServeOBPBoard serves one emulated OBP board until ctx is done, as
// [ServeBoard] does a DGT board.
func ServeOBPBoard(ctx context.Context, o OBPBoardOptions, stdout, stderr io.Writer) error {
	if o.Game != nil {
		pl := o.Game.Start.Placement()
		o.Board.Placement = &pl
	}
	e, err := obpemu.New(o.Board, time.Now())
	if err != nil {
		return err
	}
	serving := emu.Serving{PTY: o.PTY, OnPath: func(path string) {
		fmt.Fprintln(stdout, path)
		fmt.Fprintf(stderr, "dgtbridge emulate: OBP %s board %s on %s (Ctrl-C to stop)\n", o.Variant, o.Board.Serial, path)
	}}
	if o.Game != nil {
		h := HumanGame(o.Game)
		script, err := obpemu.HumanScript(h.Start, h.Moves, h.Thought, o.Speed, o.Seed, o.Incidents)
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
	if !o.PTY {
		fmt.Fprintln(stderr, "dgtbridge emulate: OBP board serving on stdin/stdout")
	}
	return emu.Serve(ctx, e, serving)
}

// startScript schedules a game's script 2 s from now, saying so.
func startScript(stderr io.Writer, d time.Duration, actions int, schedule func(time.Time)) {
	schedule(time.Now().Add(2 * time.Second))
	fmt.Fprintf(stderr, "dgtbridge emulate: host connected, playing %d actions over %v\n", actions, d.Round(time.Second))
}

// HumanGame is g's main line with its recorded think times (its %emt
// comments; 0 where there is none).
func HumanGame(g *pgn.Game) emu.HumanGame {
	h := emu.HumanGame{Start: g.Start, Result: g.Result}
	for _, m := range g.Moves {
		h.Moves = append(h.Moves, m.Move)
		h.Thought = append(h.Thought, 0)
		if m.HasEMT {
			h.Thought[len(h.Thought)-1] = m.EMT
		}
	}
	return h
}

// ReadGame reads game number index (1-based) of a PGN file.
func ReadGame(path string, index int) (*pgn.Game, error) {
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

// ErrNoSuchGame is a "ccpd:N" that names no built-in game.
var ErrNoSuchGame = fmt.Errorf("want ccpd:1 to ccpd:%d", games.Count)

// XiangqiGame reads the game an OBP board plays: "ccpd:N" names a
// built-in master game (ErrNoSuchGame when there is none), anything else
// is a PGN file (game number index).
func XiangqiGame(name string, index int) (*pgn.Game, error) {
	n, ok := strings.CutPrefix(name, "ccpd:")
	if !ok {
		return ReadGame(name, index)
	}
	i, err := strconv.Atoi(n)
	if err != nil || i < 1 || i > games.Count {
		return nil, fmt.Errorf("%s: %w", name, ErrNoSuchGame)
	}
	all, errs := pgn.ReadAll(strings.NewReader(games.CCPD), pgn.ReaderOptions{Variations: pgn.SkipVariations})
	if len(errs) > 0 || len(all) < i {
		return nil, fmt.Errorf("built-in games: %v", errs)
	}
	return all[i-1], nil
}

// ClockFor is the clock of an emulated board: tc ("base+inc" in
// seconds), or, when tc is "", the TimeControl tag of g (nil: none). ok is
// false when neither names one ("", "-" or "?").
func ClockFor(tc string, g *pgn.Game) (set emu.ClockSetting, ok bool, err error) {
	if tc == "" && g != nil {
		tc = g.Tag("TimeControl")
	}
	if tc == "" || tc == "-" || tc == "?" {
		return emu.ClockSetting{}, false, nil
	}
	set, err = emu.ParseTimeControl(tc)
	return set, err == nil, err
}
