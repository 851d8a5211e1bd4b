package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// maxDemoBoards bounds --boards: each board is a pseudo-terminal, a serial
// link and a goroutine pair; 64 is a large hall.
const maxDemoBoards = 64

// maxDemoSpeed bounds --speed: faster, the emulated players move sooner
// after the opponent's press than a board reader (the daemon's or a real
// one) can tell the moves apart, and the demo would show a broken game.
const maxDemoSpeed = 8

// runDemo implements "dgtbridge demo [--boards N]" (docs/contract.md §1): the
// whole pipeline without hardware. N emulated boards + clocks on
// pseudo-terminals, opened through the same serial code as real boards,
// play famous games with human-like hands (touch-move and illegal-move
// incidents included), game after game, board 1 a blind-player game on two
// boards (--blind); the daemon (runDaemon, as "run")
// publishes them on an embedded NATS server and serves the PGN over HTTP;
// a live feed of the NATS subjects goes to stdout. Runs until interrupted.
func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseDemoFlags(args, stderr)
	if err != nil {
		return err
	}
	log := o.log
	dir, keep, err := demoDataDir(o.dataDir)
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	first := demo.NextRound(dir)
	cfg := demoConfig(o, dir)

	room, err := demo.NewRoom(demo.RoomOptions{Boards: o.boards, Blind: o.blind, Team: o.team, Xiangqi: o.xq, FirstRound: first,
		Speed: o.speed, Seed: o.seed, Event: cfg.Event.ID, Prefix: cfg.NATS.Prefix, Logger: log.With("part", "demo")})
	if err != nil {
		return err
	}
	// Until the boards run, an error closes their ptys.
	running := false
	defer func() {
		if !running {
			room.Close()
		}
	}()
	cfg.Boards = append(cfg.Boards, demoBoards(room.Seats)...)
	hb, err := demoHallBoards(&cfg, log, room)
	if err != nil {
		return err
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	running = true
	room.Run(ctx, &wg, log)
	started := func(h *hall.Hall, srv *broadcast.Server) {
		printDemoBanner(stdout, cfg, srv, room.Tables, first, o.speed, dir, keep)
		demoStarted(ctx, &wg, log, stdout, cfg, srv, room, first)
	}
	dcfg, err := demoHashed(cfg)
	if err != nil {
		return err
	}
	err = runDaemon(ctx, dcfg, daemonHooks{Boards: hb, Started: started}, log, nil)
	cancel()
	wg.Wait()
	if err == nil {
		fmt.Fprintln(stdout, "dgtbridge demo: stopped")
	}
	return err
}

// demoDataDir is the demo's data directory: the one given (kept, made
// when missing), or a new temporary one (keep false: removed at exit).
func demoDataDir(given string) (dir string, keep bool, err error) {
	if given != "" {
		return given, true, os.MkdirAll(given, 0o750)
	}
	dir, err = os.MkdirTemp("", "dgtbridge-demo-")
	return dir, false, err
}

// demoBoards are the configuration of the room's boards.
func demoBoards(seats []demo.Seat) []config.Board {
	var out []config.Board
	for _, st := range seats {
		b := config.Board{Port: st.Port, Round: st.Round, Board: st.Board, Variant: st.Variant, Ruleset: st.Ruleset,
			TimeControl: st.TimeControl, Partner: st.Partner, White: st.White, Black: st.Black, WhiteTeam: st.WhiteTeam, BlackTeam: st.BlackTeam}
		if st.OBP {
			b.Protocol = config.ProtocolOBP
		}
		if st.BlindPort != "" {
			b.Blind = &config.Blind{Side: "black", Port: st.BlindPort, Lang: "en"}
		}
		out = append(out, b)
	}
	return out
}

// demoHallBoards opens cfg's boards for the hall; each table goes on to
// its next game when one ends (the team boards stay with their match, the
// xiangqi boards take the next round's built-in game).
func demoHallBoards(cfg *config.Config, log *slog.Logger, room *demo.Room) ([]hall.Board, error) {
	claims := &serialport.Claims{}
	hb, err := hallBoards(cfg, func(b config.Board) (hall.Board, error) {
		return daemonBoard(b, claims, log), nil // DGT or OBP (boards_obp.go)
	})
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	for i := range hb {
		if hb[i].Session.Partner == (game.ID{}) {
			hb[i].Session.NextGame = demo.NextGame(room.Games)
		}
		if hb[i].Session.Info.Variant == config.VariantXiangqi {
			hb[i].Session.NextGame = demo.XiangqiNextGame(room.XiangqiGames)
		}
	}
	return hb, nil
}

// demoOptions are demo's flags, checked.
type demoOptions struct {
	boards, xq                                int
	speed                                     float64
	delay                                     time.Duration
	seed                                      uint64
	blind, team                               bool
	dataDir, httpListen, natsListen, wsListen string
	liveChess                                 string
	log                                       *slog.Logger
}

// parseDemoFlags reads and checks demo's flags.
func parseDemoFlags(args []string, stderr io.Writer) (demoOptions, error) {
	fs := newFlags("demo", "[--boards N] [flags]",
		"Run the whole pipeline without hardware: embedded NATS, N emulated DGT boards + clocks on pseudo-terminals\n"+
			"playing famous games (with a few touch-move and illegal-move incidents), the HTTP PGN feeds, and a live\n"+
			"feed of moves, alerts and results on stdout. Runs until interrupted (Ctrl-C).", stderr)
	boards := fs.Int("boards", 4, fmt.Sprintf("number of emulated boards (1–%d)", maxDemoBoards))
	speed := fs.Float64("speed", 1, fmt.Sprintf("time factor of the players: 2 = twice as fast thinking and handling (at most %d)", maxDemoSpeed))
	delay := fs.Duration("public-delay", 30*time.Second, "delay of the public copy (event.public_delay) and so of the HTTP PGN")
	seed := fs.Uint64("seed", 1, "seed of the handling styles and think times")
	blind := fs.Bool("blind", true, "board 1 is a blind-player game (FIDE Laws Appendix D): Black plays on a second emulated board, every move announced")
	xq := fs.Int("xiangqi", 1, fmt.Sprintf("number of emulated xiangqi boards (Open Board Protocol) playing master games, 0–%d (demo_xiangqi.go)", maxDemoXiangqi))
	team := fs.Bool("team", true, "two more boards play a team-drop match (004 Cờ đặt), linked: captures passed to the partner, drops, an illegal drop now and then")
	dataDir := fs.String("data-dir", "", "keep the data (game records, recordings, NATS store) here; default a temporary directory removed at exit")
	httpListen := fs.String("http-listen", "127.0.0.1:8080", `HTTP address; when taken, a free port on 127.0.0.1 ("off" disables HTTP)`)
	natsListen := fs.String("nats-listen", "127.0.0.1:0", "embedded NATS client address (port 0: a free port)")
	wsListen := fs.String("websocket-listen", "127.0.0.1:0", `embedded NATS websocket address for the arbiters' page (port 0: a free port; "off" disables it)`)
	liveChess := fs.String("livechess", "", `serve the LiveChess-compatible local API (docs/livechess.md) on this address, e.g. 127.0.0.1:1982 ("": off)`)
	level := fs.String("log-level", "warn", "log level on stderr: debug, info, warn or error")
	if err := parseFlags(fs, args); err != nil {
		return demoOptions{}, err
	}
	if fs.NArg() > 0 {
		return demoOptions{}, usageError{fmt.Errorf("demo: unexpected argument %q", fs.Arg(0))}
	}
	if *boards < 1 || *boards > maxDemoBoards {
		return demoOptions{}, usageError{fmt.Errorf("demo: --boards %d: want 1 to %d", *boards, maxDemoBoards)}
	}
	if *xq < 0 || *xq > maxDemoXiangqi {
		return demoOptions{}, usageError{fmt.Errorf("demo: --xiangqi %d: want 0 to %d", *xq, maxDemoXiangqi)}
	}
	if *speed <= 0 || *speed > maxDemoSpeed {
		return demoOptions{}, usageError{fmt.Errorf("demo: --speed %g: want more than 0 and at most %d", *speed, maxDemoSpeed)}
	}
	if *delay < 0 {
		return demoOptions{}, usageError{errors.New("demo: --public-delay must not be negative")}
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return demoOptions{}, usageError{fmt.Errorf("demo: --log-level %q: want debug, info, warn or error", *level)}
	}
	return demoOptions{boards: *boards, xq: *xq, speed: *speed, delay: *delay, seed: *seed, blind: *blind, team: *team,
		dataDir: *dataDir, httpListen: *httpListen, natsListen: *natsListen, wsListen: *wsListen, liveChess: *liveChess,
		log: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lv}))}, nil
}

// demoConfig is the demo's daemon configuration before its boards: the
// data in dir, embedded NATS with the demo's users, HTTP, the event.
func demoConfig(o demoOptions, dir string) config.Config {
	cfg := config.Defaults()
	cfg.DataDir = dir
	cfg.NATS.Embedded.Listen = o.natsListen
	if o.wsListen != "off" {
		cfg.NATS.Embedded.WebSocket = demo.FreeAddr(o.wsListen)
	}
	if len(cfg.NATS.Embedded.Users) == 0 {
		cfg.NATS.Embedded.Users = demoUsers()
	}
	cfg.HTTP.Listen = ""
	if o.httpListen != "off" {
		cfg.HTTP.Listen = demo.FreeAddr(o.httpListen)
	}
	cfg.LiveChess.Listen = o.liveChess
	cfg.Event.ID = demo.Event
	cfg.Event.Name = "dgtbridge demo"
	cfg.Event.Site = "emulated hall"
	cfg.Event.TimeControl = "5400+30"
	cfg.Event.PublicDelay = o.delay
	return cfg
}

// demoStarted runs once the daemon is up: the xiangqi tables' arbiter
// connection, the team and xiangqi banners, and the live feed on stdout.
func demoStarted(ctx context.Context, wg *sync.WaitGroup, log *slog.Logger, stdout io.Writer, cfg config.Config, srv *broadcast.Server, room *demo.Room, first int) {
	if nc, err := srv.Connect(); err == nil {
		room.Arbiter.Connect(nc) // the xiangqi tables' arbiter
		wg.Go(func() { <-ctx.Done(); nc.Close() })
	} else {
		log.Error("xiangqi arbiter: no NATS connection", "err", err)
	}
	if room.Team != nil {
		tcfg := cfg
		tcfg.Boards = cfg.Boards[:room.FirstXiangqi-1] // the team boards are last but the xiangqi ones
		printDemoTeam(stdout, tcfg, room.Team, first)
	}
	printDemoXiangqi(stdout, room, first)
	feed := demo.NewFeed(stdout, demo.FeedOptions{Prefix: cfg.NATS.Prefix, Color: isTerminal(stdout)})
	wg.Go(func() {
		nc, err := srv.Connect()
		if err != nil {
			log.Error("live feed: no NATS connection", "err", err)
			return
		}
		defer nc.Close()
		if err := feed.Run(ctx, nc); err != nil {
			log.Error("live feed stopped", "err", err)
		}
	})
}

// printDemoBanner says where everything is.
func printDemoBanner(w io.Writer, cfg config.Config, srv *broadcast.Server, tables []*demo.Table, round int, speed float64, dir string, keep bool) {
	url := ""
	if srv != nil {
		url = srv.ClientURL()
	}
	what := fmt.Sprintf("%d emulated DGT boards playing famous games", len(tables))
	var team, xq int
	for _, b := range cfg.Boards {
		switch b.Variant {
		case "team-drop":
			team++
		case "xiangqi":
			xq++
		}
	}
	if team > 0 {
		what += fmt.Sprintf(", a team-drop match on %d boards", team)
	}
	switch {
	case xq == 1:
		what += ", a xiangqi board"
	case xq > 1:
		what += fmt.Sprintf(", %d xiangqi boards", xq)
	}
	fmt.Fprintf(w, "dgtbridge demo: %s, at speed %g. Stop with Ctrl-C.\n", what, speed)
	printDemoNATS(w, cfg, url)
	if cfg.HTTP.Listen != "" {
		base := "http://" + cfg.HTTP.Listen
		printDemoPages(w, cfg, base)
		fmt.Fprintf(w, "  PGN     %s/pgn/%s/%d.pgn   (the round; public copy, %v behind the live feed)\n", base, cfg.Event.ID, round, cfg.Event.PublicDelay)
		fmt.Fprintf(w, "          %s/pgn/%s/%d/1.pgn   (one game; each new game is the next round: /pgn/%s/%d.pgn …)\n", base, cfg.Event.ID, round, cfg.Event.ID, round+1)
		fmt.Fprintf(w, "  health  %s/healthz\n", base)
	}
	kept := "removed at exit; --data-dir DIR keeps it"
	if keep {
		kept = "kept"
	}
	fmt.Fprintf(w, "  data    %s (%s)\n", dir, kept)
	for i, t := range tables {
		g := t.Game(round)
		fmt.Fprintf(w, "  board %-2d %s  %s – %s (%s %s)\n", i+1, t.Path(), g.Tag("White"), g.Tag("Black"), g.Tag("Site"), g.Tag("Date")[:4])
		if t.BlindPath() != "" {
			fmt.Fprintf(w, "           %s  the blind player's board (Black); announcements: nats%s sub '%s.relay.>'\n", t.BlindPath(), demoCredsFlags(cfg), cfg.NATS.Prefix)
		}
	}
	fmt.Fprintln(w)
}

// isTerminal reports whether w is a character device (colours on).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
