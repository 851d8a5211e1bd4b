package demorun

import (
	"context"
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
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// maxDemoBoards bounds --boards: each board is a pseudo-terminal, a serial
// link and a goroutine pair; 64 is a large hall.
const MaxBoards = 64

// maxDemoSpeed bounds --speed: faster, the emulated players move sooner
// after the opponent's press than a board reader (the daemon's or a real
// one) can tell the moves apart, and the demo would show a broken game.
const MaxSpeed = 8

// Run runs the demo until ctx is done: the emulated room, the daemon on
// its boards, the banner and the live feed on stdout.
func Run(ctx context.Context, o Options, stdout io.Writer) error {
	log := o.Log
	dir, keep, err := demoDataDir(o.DataDir)
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	first := demo.NextRound(dir)
	cfg := demoConfig(o, dir)

	room, err := demo.NewRoom(demo.RoomOptions{Boards: o.Boards, Blind: o.Blind, Team: o.Team, Xiangqi: o.Xiangqi, FirstRound: first,
		Speed: o.Speed, Seed: o.Seed, Event: cfg.Event.ID, Prefix: cfg.NATS.Prefix, Logger: log.With("part", "demo")})
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
		printDemoBanner(stdout, cfg, srv, room.Tables, first, o.Speed, dir, keep)
		demoStarted(ctx, &wg, log, stdout, cfg, srv, room, first)
	}
	dcfg, err := demoHashed(cfg)
	if err != nil {
		return err
	}
	err = daemon.Run(ctx, dcfg, daemon.Options{Boards: hb, Started: started, Version: o.Version, Commit: o.Commit}, log, nil)
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
	hb, err := daemon.HallBoards(cfg, func(b config.Board) (hall.Board, error) {
		return daemon.BoardFor(b, claims, log), nil // DGT or OBP (boards_obp.go)
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
type Options struct {
	Boards, Xiangqi                                  int
	Speed                                            float64
	PublicDelay                                      time.Duration
	Seed                                             uint64
	Blind, Team                                      bool
	DataDir, HTTPListen, NATSListen, WebSocketListen string
	LiveChess                                        string
	Log                                              *slog.Logger
	// Version and Commit name the build (status, /healthz?detail).
	Version, Commit string
}

// demoConfig is the demo's daemon configuration before its boards: the
// data in dir, embedded NATS with the demo's users, HTTP, the event.
func demoConfig(o Options, dir string) config.Config {
	cfg := config.Defaults()
	cfg.DataDir = dir
	cfg.NATS.Embedded.Listen = o.NATSListen
	if o.WebSocketListen != "off" {
		cfg.NATS.Embedded.WebSocket = demo.FreeAddr(o.WebSocketListen)
	}
	if len(cfg.NATS.Embedded.Users) == 0 {
		cfg.NATS.Embedded.Users = demoUsers()
	}
	cfg.HTTP.Listen = ""
	if o.HTTPListen != "off" {
		cfg.HTTP.Listen = demo.FreeAddr(o.HTTPListen)
	}
	cfg.LiveChess.Listen = o.LiveChess
	cfg.Event.ID = demo.Event
	cfg.Event.Name = "dgtbridge demo"
	cfg.Event.Site = "emulated hall"
	cfg.Event.TimeControl = "5400+30"
	cfg.Event.PublicDelay = o.PublicDelay
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
