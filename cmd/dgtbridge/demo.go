package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/internal/demorun"
	"github.com/dgtbridge/dgtbridge/internal/release"
)

// runDemo implements "dgtbridge demo [--boards N]" (docs/contract.md §1): the
// whole pipeline without hardware. N emulated boards + clocks on
// pseudo-terminals, opened through the same serial code as real boards,
// play famous games with human-like hands (touch-move and illegal-move
// incidents included), game after game, board 1 a blind-player game on two
// boards (--blind); the daemon (daemon.Run, as "run")
// publishes them on an embedded NATS server and serves the PGN over HTTP;
// a live feed of the NATS subjects goes to stdout. Runs until interrupted.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseDemoFlags(args, stderr)
	if err != nil {
		return err
	}
	o.Version = version
	o.Commit, _ = release.Stamp()
	return demorun.Run(ctx, o, stdout)
}

// parseDemoFlags reads and checks demo's flags.
func parseDemoFlags(args []string, stderr io.Writer) (demorun.Options, error) {
	fs := cli.NewFlags("demo", "[--boards N] [flags]",
		"Run the whole pipeline without hardware: embedded NATS, N emulated DGT boards + clocks on pseudo-terminals\n"+
			"playing famous games (with a few touch-move and illegal-move incidents), the HTTP PGN feeds, and a live\n"+
			"feed of moves, alerts and results on stdout. Runs until interrupted (Ctrl-C).", stderr)
	boards := fs.Int("boards", 4, fmt.Sprintf("number of emulated boards (1–%d)", demorun.MaxBoards))
	speed := fs.Float64("speed", 1, fmt.Sprintf("time factor of the players: 2 = twice as fast thinking and handling (at most %d)", demorun.MaxSpeed))
	delay := fs.Duration("public-delay", 30*time.Second, "delay of the public copy (event.public_delay) and so of the HTTP PGN")
	seed := fs.Uint64("seed", 1, "seed of the handling styles and think times")
	blind := fs.Bool("blind", true, "board 1 is a blind-player game (FIDE Laws Appendix D): Black plays on a second emulated board, every move announced")
	xq := fs.Int("xiangqi", 1, fmt.Sprintf("number of emulated xiangqi boards (Open Board Protocol) playing master games, 0–%d (internal/demorun)", demorun.MaxXiangqi))
	team := fs.Bool("team", true, "two more boards play a team-drop match (004 Cờ đặt), linked: captures passed to the partner, drops, an illegal drop now and then")
	dataDir := fs.String("data-dir", "", "keep the data (game records, recordings, NATS store) here; default a temporary directory removed at exit")
	httpListen := fs.String("http-listen", "127.0.0.1:8080", `HTTP address; when taken, a free port on 127.0.0.1 ("off" disables HTTP)`)
	natsListen := fs.String("nats-listen", "127.0.0.1:0", "embedded NATS client address (port 0: a free port)")
	wsListen := fs.String("websocket-listen", "127.0.0.1:0", `embedded NATS websocket address for the arbiters' page (port 0: a free port; "off" disables it)`)
	liveChess := fs.String("livechess", "", `serve the LiveChess-compatible local API (docs/livechess.md) on this address, e.g. 127.0.0.1:1982 ("": off)`)
	logger := fs.Logger("warn", stderr)
	if err := cli.Parse(fs, args); err != nil {
		return demorun.Options{}, err
	}
	if fs.NArg() > 0 {
		return demorun.Options{}, cli.UsageError{Err: fmt.Errorf("demo: unexpected argument %q", fs.Arg(0))}
	}
	if *boards < 1 || *boards > demorun.MaxBoards {
		return demorun.Options{}, cli.UsageError{Err: fmt.Errorf("demo: --boards %d: want 1 to %d", *boards, demorun.MaxBoards)}
	}
	if *xq < 0 || *xq > demorun.MaxXiangqi {
		return demorun.Options{}, cli.UsageError{Err: fmt.Errorf("demo: --xiangqi %d: want 0 to %d", *xq, demorun.MaxXiangqi)}
	}
	if *speed <= 0 || *speed > demorun.MaxSpeed {
		return demorun.Options{}, cli.UsageError{Err: fmt.Errorf("demo: --speed %g: want more than 0 and at most %d", *speed, demorun.MaxSpeed)}
	}
	if *delay < 0 {
		return demorun.Options{}, cli.UsageError{Err: errors.New("demo: --public-delay must not be negative")}
	}
	log, err := logger()
	if err != nil {
		return demorun.Options{}, err
	}
	return demorun.Options{Boards: *boards, Xiangqi: *xq, Speed: *speed, PublicDelay: *delay, Seed: *seed, Blind: *blind, Team: *team,
		DataDir: *dataDir, HTTPListen: *httpListen, NATSListen: *natsListen, WebSocketListen: *wsListen, LiveChess: *liveChess,
		Log: log}, nil
}
