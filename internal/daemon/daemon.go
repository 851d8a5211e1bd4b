package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/serialport"
	"github.com/dgtbridge/dgtbridge/status"
	"github.com/dgtbridge/dgtbridge/systemd/sdnotify"
	"github.com/nats-io/nats.go"
)

// errNoBoards is what run says when the configuration lists no board.
var ErrNoBoards = errors.New("no boards configured: add a board under \"boards:\" in the configuration file " +
	"(e.g. - {port: /dev/ttyACM0, round: 1, board: 1, white: \"A\", black: \"B\"}; \"dgtbridge ports\" lists the boards plugged in), " +
	"or try the whole pipeline without hardware with \"dgtbridge demo\"")

// Options are what [Run] is given besides the configuration: Boards are
// the hall's boards ([HallBoards] of the configuration, or the demo's);
// Observer receives every payload (live feed); Started is called once
// the hall and HTTP are started and the publisher holds its NATS
// connection with the streams made (publisherUp).
type Options struct {
	Boards []hall.Board
	// Spares are the boards kept ready for switch_board ([HallSpares]).
	Spares   []hall.Spare
	Observer func(hall.Observation)
	Started  func(h *hall.Hall, srv *broadcast.Server)
	// Reload loads the configuration again on SIGHUP; nil: SIGHUP is
	// not handled (demo).
	Reload func() (config.Config, error)
	// Version and Commit name the build in the status and /healthz?detail.
	Version, Commit string
}

// RunConfigured is "dgtbridge run" once its configuration is loaded: the
// configuration's warnings logged, its boards opened (each port claimed
// once), systemd told (sd_notify, when started by it), the memory limit
// set for the hall's size, and [Run] on those boards. o.Boards is
// ignored.
func RunConfigured(ctx context.Context, cfg config.Config, o Options, log *slog.Logger) error {
	for _, n := range append(TeamDropNotes(&cfg), cfg.SecretFileNotes()...) {
		log.Warn(n)
	}
	if len(cfg.Boards) == 0 {
		return ErrNoBoards
	}
	boards, claims, err := openBoards(&cfg, log)
	if err != nil {
		return err
	}
	n, err := sdnotify.New()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Warn("systemd notification socket unusable", "err", err)
	}
	defer n.Close()
	// The daemon's memory limit (not demo's, nor a test's process).
	ApplyMemoryLimit(cfg.Daemon, len(boards), log)
	o.Boards, o.Spares = boards, HallSpares(&cfg, claims, log)
	return Run(ctx, cfg, o, log, n)
}

// openBoards is the configuration's boards as the hall reads them, each
// port claimed once (claims: for the spares, which claim theirs after).
func openBoards(cfg *config.Config, log *slog.Logger) ([]hall.Board, *serialport.Claims, error) {
	claims := &serialport.Claims{}
	boards, err := HallBoards(cfg, func(b config.Board) (hall.Board, error) { return BoardFor(b, claims, log), nil })
	return boards, claims, err
}

// Run is the daemon: embedded NATS (when nats.url is empty),
// publisher, HTTP, the hall; sd_notify READY/STATUS/WATCHDOG/STOPPING.
// It returns when ctx is done and everything has drained.
func Run(ctx context.Context, cfg config.Config, hk Options, log *slog.Logger, n *sdnotify.Notifier) error {
	boards := hk.Boards
	if len(boards) == 0 {
		return ErrNoBoards
	}
	subj, err := broadcast.NewSubjects(cfg.NATS.Prefix)
	if err != nil {
		return fmt.Errorf("nats.prefix: %w", err)
	}
	// The data folder's format first: a newer one is refused before
	// anything is opened in it.
	if err := prepareDataDir(cfg.DataDir, log); err != nil {
		return err
	}
	nt, err := connectNATS(&cfg, log)
	if err != nil {
		return err
	}
	defer nt.close()
	pub, err := broadcast.NewPublisher(broadcast.Options{Prefix: cfg.NATS.Prefix, Dir: filepath.Join(cfg.DataDir, "outbox"),
		Connect: nt.dial, ConnectPublic: nt.dialPublic, PublicDelay: cfg.Event.PublicDelay, Logger: log.With("part", "publisher"),
		RenderPGN: gamerecord.StatePGN, Follow: cfg.NATS.URL != "",
		Streams: broadcast.StreamOptions{Replicas: cfg.NATS.Replicas}})
	if err != nil {
		return fmt.Errorf("publisher (data_dir %s): %w", cfg.DataDir, err)
	}
	defer pub.Close()
	// Every board as the daemon sees it (dgtbridge status, /healthz?detail).
	var h *hall.Hall
	keeper := status.NewKeeper(statusBoards(boards), func(id string) (gamerecord.Record, bool) { return h.BoardRecord(id) }, nil)
	h, err = hall.New(withStorage(hall.Options{Boards: boards, Spares: hk.Spares, Sink: keeper.Sink(pub), DataDir: cfg.DataDir, Record: cfg.Record, Subjects: subj,
		Requests: pub.Responder(), Observer: observers(hk.Observer, keeper.Observe), Logger: log.With("part", "hall")}, cfg.Storage, pub))
	if err != nil {
		return err
	}
	web, err := newWeb(&cfg, subj, pub, nt.dial, log)
	if err != nil {
		return err
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g := &group{cancel: cancel}
	g.vital("publisher", pub.Run)
	g.vital("", h.Run)
	push := &pushRunner{ctx: ctx, wg: &g.wg, store: pub.Public(), log: log.With("part", "lichess")}
	push.update(&cfg)
	g.wg.Go(func() {
		_ = keeper.Run(ctx, status.WriterOptions{Connect: nt.dial, Subjects: subj, Replicas: cfg.NATS.Replicas, Config: cfg.File, Name: daemonName(cfg.DataDir),
			Version: hk.Version, Commit: hk.Commit, Lichess: push.stats, Logger: log.With("part", "status")})
	})
	if hk.Reload != nil {
		rl := &reloader{cfg: cfg, load: hk.Reload, h: h, boards: boards, push: push, keeper: keeper, log: log.With("part", "reload"), n: n}
		g.wg.Go(func() { rl.run(ctx) })
	}
	if web != nil {
		g.wg.Go(func() { _ = web.Run(ctx) })
	}
	if cfg.HTTP.Listen != "" || cfg.HTTP.AdminListen != "" {
		detail := func() broadcast.StatusReport {
			r := keeper.Reports()
			r.Lichess, r.Version, r.Commit = push.stats(), hk.Version, hk.Commit
			return r
		}
		g.vital("http", httpServer(&cfg, pub, h, web, detail, log).Run)
	}
	if cfg.LiveChess.Addr() != "" {
		g.vital("livechess", func(ctx context.Context) error {
			return runLiveChess(ctx, &cfg, nt.dial, log.With("part", "livechess"))
		})
	}
	g.start(ctx)
	if hk.Started != nil {
		publisherUp(ctx, pub, time.Minute)
		hk.Started(h, nt.srv)
	}
	supervise(ctx, h, pub, log, n)
	return g.wait()
}

// prepareDataDir checks the data folder's format and marks it with ours
// (storage.PrepareDataDir): a newer format is an error.
func prepareDataDir(dir string, log *slog.Logger) error {
	was, err := storage.PrepareDataDir(storage.OS, dir)
	if err != nil {
		return fmt.Errorf("data_dir: %w", err)
	}
	if was > 0 && was < storage.DataFormat {
		log.Info("data folder upgraded", "data_dir", dir, "from_format", was, "to_format", storage.DataFormat)
	}
	return nil
}

// natsLink is how the daemon reaches NATS: the embedded server (srv, nil
// with nats.url) and the dialers of its publisher (dialPublic: the
// public account's, embedded only).
type natsLink struct {
	srv              *broadcast.Server
	dial, dialPublic func(context.Context) (*nats.Conn, error)
}

// connectNATS starts the embedded server (nats.url empty) or makes the
// dialer of the organiser's server.
func connectNATS(cfg *config.Config, log *slog.Logger) (natsLink, error) {
	if cfg.NATS.URL != "" {
		return natsLink{dial: broadcast.ExternalDialer(broadcast.ExternalOptions{URL: cfg.NATS.URL, Creds: cfg.NATS.Creds, Nkey: cfg.NATS.Nkey,
			Logger: log.With("part", "nats")})}, nil
	}
	var users []broadcast.User
	for _, u := range cfg.NATS.Embedded.Users {
		users = append(users, broadcast.User{Name: u.User, Password: u.Password, Role: broadcast.Role(u.Role), Board: u.Board})
	}
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: cfg.NATS.Prefix, StoreDir: filepath.Join(cfg.DataDir, "nats"),
		Listen: cfg.NATS.Embedded.Listen, Websocket: cfg.NATS.Embedded.WebSocket, Users: users, Logger: log.With("part", "nats"),
		TLS: embeddedTLS(*cfg), Insecure: cfg.NATS.Embedded.Insecure})
	if err != nil {
		return natsLink{}, fmt.Errorf("embedded NATS server (nats.embedded): %w", err)
	}
	log.Info("embedded NATS server up", "url", srv.ClientURL())
	return natsLink{srv: srv, dial: srv.Dialer(), dialPublic: srv.PublicDialer()}, nil
}

// close shuts the embedded server down (nothing with nats.url).
func (l natsLink) close() {
	if l.srv != nil {
		l.srv.Shutdown()
	}
}

// group runs the daemon's parts: a vital part that fails stops the
// daemon (cancel) and its error is Run's.
type group struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	vitals []vitalPart
	mu     sync.Mutex
	errs   []error
}

type vitalPart struct {
	name string
	run  func(context.Context) error
}

// vital adds a part that start runs; name prefixes its error ("": none).
func (g *group) vital(name string, run func(context.Context) error) {
	g.vitals = append(g.vitals, vitalPart{name, run})
}

// start runs the vital parts, each in its goroutine.
func (g *group) start(ctx context.Context) {
	for _, p := range g.vitals {
		g.wg.Go(func() {
			err := p.run(ctx)
			if err == nil {
				return
			}
			if p.name != "" {
				err = fmt.Errorf("%s: %w", p.name, err)
			}
			g.mu.Lock()
			g.errs = append(g.errs, err)
			g.mu.Unlock()
			g.cancel()
		})
	}
}

// wait returns once every part has returned, with the vital parts'
// errors.
func (g *group) wait() error {
	g.wg.Wait()
	return errors.Join(g.errs...)
}

// publisherUp returns once pub holds a working NATS connection with its
// streams made (Health nil), ctx is done, or after limit (then with what
// is up, as READY does: a caller is never kept waiting for ever). Run
// waits so before Options.Started: what Started prints (the demo's
// banner) is used at once, and the streams and the request responder
// must exist by then (a consumer made from the banner found no stream
// while the publisher, just started, was still connecting).
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
