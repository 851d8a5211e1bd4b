package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/internal/metrics"
	"github.com/dgtbridge/dgtbridge/status"
	"github.com/dgtbridge/dgtbridge/systemd/sdnotify"
	"github.com/nats-io/nats.go"
)

// errNoBoards is what run says when the configuration lists no board.
var errNoBoards = errors.New("no boards configured: add a board under \"boards:\" in the configuration file " +
	"(e.g. - {port: /dev/ttyACM0, round: 1, board: 1, white: \"A\", black: \"B\"}; \"dgtbridge ports\" lists the boards plugged in), " +
	"or try the whole pipeline without hardware with \"dgtbridge demo\"")

// daemonHooks let demo reuse runDaemon: Boards replaces the configured
// boards; Observer receives every payload (live feed); Started is called
// once the hall and HTTP are started and the publisher holds its NATS
// connection with the streams made (publisherUp).
type daemonHooks struct {
	Boards   []hall.Board
	Observer func(hall.Observation)
	Started  func(h *hall.Hall, srv *broadcast.Server)
	// Reload loads the configuration again on SIGHUP; nil: SIGHUP is
	// not handled (demo).
	Reload func() (config.Config, error)
}

// runDaemon is the daemon: embedded NATS (when nats.url is empty),
// publisher, HTTP, the hall; sd_notify READY/STATUS/WATCHDOG/STOPPING.
// It returns when ctx is done and everything has drained.
func runDaemon(ctx context.Context, cfg config.Config, hk daemonHooks, log *slog.Logger, n *sdnotify.Notifier) error {
	boards := hk.Boards
	if len(boards) == 0 {
		return errNoBoards
	}
	subj, err := broadcast.NewSubjects(cfg.NATS.Prefix)
	if err != nil {
		return fmt.Errorf("nats.prefix: %w", err)
	}
	// The data folder's format first: a newer one is refused before
	// anything is opened in it.
	if was, err := storage.PrepareDataDir(storage.OS, cfg.DataDir); err != nil {
		return fmt.Errorf("data_dir: %w", err)
	} else if was > 0 && was < storage.DataFormat {
		log.Info("data folder upgraded", "data_dir", cfg.DataDir, "from_format", was, "to_format", storage.DataFormat)
	}
	var srv *broadcast.Server
	var dial, dialPublic func(context.Context) (*nats.Conn, error)
	if cfg.NATS.URL == "" {
		var users []broadcast.User
		for _, u := range cfg.NATS.Embedded.Users {
			users = append(users, broadcast.User{Name: u.User, Password: u.Password, Role: broadcast.Role(u.Role), Board: u.Board})
		}
		srv, err = broadcast.StartServer(broadcast.ServerOptions{Prefix: cfg.NATS.Prefix, StoreDir: filepath.Join(cfg.DataDir, "nats"),
			Listen: cfg.NATS.Embedded.Listen, Websocket: cfg.NATS.Embedded.WebSocket, Users: users, Logger: log.With("part", "nats"),
			TLS: embeddedTLS(cfg), Insecure: cfg.NATS.Embedded.Insecure})
		if err != nil {
			return fmt.Errorf("embedded NATS server (nats.embedded): %w", err)
		}
		defer srv.Shutdown()
		dial, dialPublic = srv.Dialer(), srv.PublicDialer()
		log.Info("embedded NATS server up", "url", srv.ClientURL())
	} else {
		dial = broadcast.ExternalDialer(broadcast.ExternalOptions{URL: cfg.NATS.URL, Creds: cfg.NATS.Creds, Nkey: cfg.NATS.Nkey,
			Logger: log.With("part", "nats")})
	}
	pub, err := broadcast.NewPublisher(broadcast.Options{Prefix: cfg.NATS.Prefix, Dir: filepath.Join(cfg.DataDir, "outbox"),
		Connect: dial, ConnectPublic: dialPublic, PublicDelay: cfg.Event.PublicDelay, Logger: log.With("part", "publisher"),
		RenderPGN: gamerecord.StatePGN, Follow: cfg.NATS.URL != "",
		Streams: broadcast.StreamOptions{Replicas: cfg.NATS.Replicas}})
	if err != nil {
		return fmt.Errorf("publisher (data_dir %s): %w", cfg.DataDir, err)
	}
	defer pub.Close()
	// Every board as the daemon sees it (dgtbridge status, /healthz?detail).
	var h *hall.Hall
	keeper := status.NewKeeper(statusBoards(boards), func(id string) (gamerecord.Record, bool) { return h.BoardRecord(id) }, nil)
	h, err = hall.New(withStorage(hall.Options{Boards: boards, Sink: keeper.Sink(pub), DataDir: cfg.DataDir, Record: cfg.Record, Subjects: subj,
		Requests: pub.Responder(), Observer: observers(hk.Observer, keeper.Observe), Logger: log.With("part", "hall")}, cfg.Storage, pub))
	if err != nil {
		return err
	}

	var web *broadcast.Web
	if cfg.HTTP.Listen != "" {
		wo := webOptions(&cfg, subj, pub, dial)
		wo.Logger = log.With("part", "web")
		if web, err = broadcast.NewWeb(wo); err != nil {
			return fmt.Errorf("web pages: %w", err)
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errc := make(chan error, 4)
	wg.Go(func() {
		if err := pub.Run(ctx); err != nil {
			errc <- fmt.Errorf("publisher: %w", err)
			cancel()
		}
	})
	wg.Go(func() {
		if err := h.Run(ctx); err != nil {
			errc <- err
			cancel()
		}
	})
	commit, _ := buildStamp()
	push := &pushRunner{ctx: ctx, wg: &wg, store: pub.Public(), log: log.With("part", "lichess")}
	push.update(&cfg)
	wg.Go(func() {
		_ = keeper.Run(ctx, status.WriterOptions{Connect: dial, Subjects: subj, Replicas: cfg.NATS.Replicas, Config: cfg.File, Name: daemonName(cfg.DataDir),
			Version: version, Commit: commit, Lichess: push.stats, Logger: log.With("part", "status")})
	})
	if hk.Reload != nil {
		rl := &reloader{cfg: cfg, load: hk.Reload, h: h, boards: boards, push: push, keeper: keeper, log: log.With("part", "reload"), n: n}
		wg.Go(func() { rl.run(ctx) })
	}
	if web != nil {
		wg.Go(func() { _ = web.Run(ctx) })
	}
	if cfg.HTTP.Listen != "" || cfg.HTTP.AdminListen != "" {
		hs := broadcast.NewHTTPServer(broadcast.HTTPOptions{Listen: cfg.HTTP.Listen, AdminListen: cfg.HTTP.AdminListen, Staff: httpStaff(&cfg),
			Games: pub.Public(), Health: []broadcast.HealthSource{pub, h}, Logger: log.With("part", "http"), Web: web,
			Detail: func() broadcast.StatusReport {
				r := keeper.Reports()
				r.Lichess, r.Version, r.Commit = push.stats(), version, commit
				return r
			},
			Metrics: []metrics.Source{pub, h}, Pprof: cfg.HTTP.Pprof})
		wg.Go(func() {
			if err := hs.Run(ctx); err != nil {
				errc <- fmt.Errorf("http: %w", err)
				cancel()
			}
		})
	}
	if cfg.LiveChess.Addr() != "" {
		wg.Go(func() {
			if err := runLiveChess(ctx, &cfg, dial, log.With("part", "livechess")); err != nil {
				errc <- fmt.Errorf("livechess: %w", err)
				cancel()
			}
		})
	}
	if hk.Started != nil {
		// What Started prints (demo's banner) is used at once: the
		// streams and the request responder must exist by then (a
		// consumer made from the banner found no stream while the
		// publisher, started just above, was still connecting).
		publisherUp(ctx, pub, time.Minute)
		hk.Started(h, srv)
	}
	supervise(ctx, h, pub, log, n)
	wg.Wait()
	close(errc)
	var errs []error
	for err := range errc {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// publisherUp returns once pub holds a working NATS connection with its
// streams made (Health nil), ctx is done, or after limit (then with what
// is up, as READY does: a caller is never kept waiting for ever).
func publisherUp(ctx context.Context, pub *broadcast.Publisher, limit time.Duration) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for pub.Health() != nil {
		select {
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		case <-tick.C:
		}
	}
}

// supervise is the main loop while the daemon runs: READY once every board
// and NATS are up (or after a minute, with what is up: a board left
// unplugged must not keep systemd waiting for ever), STATUS lines on
// changes, WATCHDOG pings at half of WATCHDOG_USEC; STOPPING on the way out.
func supervise(ctx context.Context, h *hall.Hall, pub *broadcast.Publisher, log *slog.Logger, n *sdnotify.Notifier) {
	var ping <-chan time.Time
	if wd, err := sdnotify.WatchdogTimeout(); err == nil && wd > 0 {
		t := time.NewTicker(wd / 2)
		defer t.Stop()
		ping = t.C
	}
	check := time.NewTicker(time.Second)
	defer check.Stop()
	readyBy := time.Now().Add(time.Minute)
	ready := false
	last := ""
	for {
		boards, dis := h.Summary()
		natsOK := pub.Health() == nil
		line := fmt.Sprintf("%d boards, %d disconnected; nats %s", boards, dis, map[bool]string{true: "ok", false: "down"}[natsOK])
		if !ready && ((dis == 0 && natsOK) || time.Now().After(readyBy)) {
			ready = true
			n.Ready(line)
			log.Info("ready", "status", line)
			last = line
		} else if line != last {
			n.Status(line)
			log.Info("status", "status", line)
			last = line
		}
		select {
		case <-ctx.Done():
			n.Stopping("draining")
			log.Info("stopping: draining boards and the outbox")
			return
		case <-ping:
			n.Watchdog()
		case <-h.Changed():
		case <-check.C:
		}
	}
}
