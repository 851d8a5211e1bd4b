package broadcast

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/httpauth"
	"github.com/dgtbridge/dgtbridge/internal/metrics"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// HealthSource is something /healthz asks: nil means healthy, an error says
// why not (e.g. "board 3: /dev/ttyACM2 disconnected").
type HealthSource interface {
	Health() error
}

// healthFunc adapts a function to [HealthSource].
type healthFunc func() error

// Health calls f.
func (f healthFunc) Health() error { return f() }

// HTTPOptions configures the HTTP feeds (docs/contract.md §5).
type HTTPOptions struct {
	// Listen is http.listen (host:port): the public listener; "" none.
	Listen string
	// AdminListen is http.admin_listen: a loopback host:port serving
	// /healthz with its detail, /metrics and pprof without credentials
	// (httpstaff.go); "" none.
	AdminListen string
	// Staff are the users whose HTTP Basic credentials open /healthz's
	// detail, /metrics and pprof on the public listener: the organisers and
	// arbiters among them (passwords written out or bcrypt hashes).
	Staff []User
	// Games serves the PGN: the publisher's public (delayed) store.
	Games *Store
	// Health sources, all of which must be healthy for /healthz to say 200
	// (typically the publisher and the boards).
	Health []HealthSource
	// Logger (nil: discarded).
	Logger *slog.Logger
	// Web, when set, adds the web pages and their API (httpweb.go).
	Web *Web
	// Detail, when set, serves GET /healthz?detail (staff only): the
	// verdict and this report as JSON (healthdetail.go).
	Detail func() StatusReport
	// Metrics are written at GET /metrics (staff only; Prometheus text
	// format), after the process's own figures (typically the publisher
	// and the hall).
	Metrics []metrics.Source
	// Listening, when set, is called by Run with each listener's key
	// ("http.listen", "http.admin_listen") and address once it is open
	// (port 0 picked a free one): for a banner, or a test.
	Listening func(key, addr string)
	// Pprof serves Go's profiles at /debug/pprof/ (staff only; http.pprof,
	// off by default: a profile costs CPU and shows the program's
	// internals).
	Pprof bool
}

// Backlogger is a health source that can also say it is behind (lines
// "behind: …", nil when not): /healthz lists them under "ok", with 200,
// because a daemon behind loses nothing and restarting it would not help.
type Backlogger interface {
	Backlog() []string
}

// pgnContentType is the media type of the PGN feeds.
const pgnContentType = "application/x-chess-pgn; charset=utf-8"

// httpLimits bound what one client may hold of the HTTP server.
type httpLimits struct {
	readHeader, read, write, idle time.Duration
	maxHeader                     int
}

// defaultHTTPLimits: headers within 10 s and 16 KiB, a request within 30 s,
// a response within 60 s (a round's PGN of 2,000 games is a few MB; the web
// page's event stream sets a deadline per event), and a kept-alive
// connection closed after 2 minutes without a request, so idle clients
// cannot pile up connections (file descriptors) for ever.
var defaultHTTPLimits = httpLimits{readHeader: 10 * time.Second, read: 30 * time.Second, write: 60 * time.Second,
	idle: 2 * time.Minute, maxHeader: 16 << 10}

// HTTPServer serves the PGN feeds and the health check.
type HTTPServer struct {
	o      HTTPOptions
	limits httpLimits
	log    *slog.Logger
	auth   *httpauth.Checker
	// refusedLog throttles the log lines of refused sign-ins.
	refusedLog logThrottle
	mux        *http.ServeMux // the public listener's
	admin      *http.ServeMux // the admin listener's
	webStop    func()         // ends the pages' event streams on shutdown
}

// NewHTTPServer builds the handlers:
//
//	GET /pgn/<event>/<round>.pgn          the round, multi-game PGN, by board
//	GET /pgn/<event>/<round>/<board>.pgn  one game
//	GET /bpgn/<event>/<round>/<board>.bpgn  a team-drop match (httpbpgn.go)
//	GET /healthz                          200 "ok", or 503 and one reason a line
//	GET /healthz?detail                   the same verdict, and every board, as JSON (with Detail)
//	GET /metrics, /debug/pprof/           the process's figures, profiles (with Pprof)
//
// /healthz?detail, /metrics and pprof are staff only, and /healthz says
// its reasons in full only to staff (httpstaff.go).
//
// A round or game with no public state yet is 404 (a Lichess poller treats
// it as "nothing yet" rather than an empty game).
func NewHTTPServer(o HTTPOptions) *HTTPServer {
	h := &HTTPServer{o: o, limits: defaultHTTPLimits, log: o.Logger, auth: staffChecker(o.Staff),
		mux: http.NewServeMux(), admin: http.NewServeMux()}
	if h.log == nil {
		h.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h.mux.HandleFunc("GET /pgn/{event}/{file}", h.round)
	h.mux.HandleFunc("GET /pgn/{event}/{round}/{file}", h.game)
	h.mux.HandleFunc("GET /bpgn/{event}/{round}/{file}", h.bpgn)
	h.mux.HandleFunc("GET /lcc/{event}/{round}/{file}", h.lcc) // httplcc.go
	h.mux.HandleFunc("GET /healthz", h.publicHealth)
	h.mountAdmin(h.mux, h.staffOnly)
	h.admin.HandleFunc("GET /healthz", h.health)
	h.mountAdmin(h.admin, func(f http.HandlerFunc) http.HandlerFunc { return f })
	if o.Web != nil {
		h.webStop = mountWeb(h.mux, o.Web)
	}
	return h
}

// handler returns the public listener's handler (for httptest or another
// server).
func (h *HTTPServer) handler() http.Handler { return securityHeaders(h.mux) }

// adminHandler returns the admin listener's handler.
func (h *HTTPServer) adminHandler() http.Handler { return securityHeaders(loopbackHost(h.admin)) }

func pgnNumber(s string) (int, bool) {
	base, ok := strings.CutSuffix(s, ".pgn")
	if !ok {
		return 0, false
	}
	return positive(base)
}

func positive(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

func (h *HTTPServer) round(w http.ResponseWriter, r *http.Request) {
	ev := r.PathValue("event")
	round, ok := pgnNumber(r.PathValue("file"))
	if !ValidToken(ev) || !ok {
		http.Error(w, "want /pgn/<event>/<round>.pgn", http.StatusNotFound)
		return
	}
	pgn, n := h.o.Games.RoundPGN(ev, round)
	if n == 0 {
		http.Error(w, "no public games in this round yet", http.StatusNotFound)
		return
	}
	writePGN(w, r, pgn)
}

func (h *HTTPServer) game(w http.ResponseWriter, r *http.Request) {
	ev := r.PathValue("event")
	round, ok1 := positive(r.PathValue("round"))
	board, ok2 := pgnNumber(r.PathValue("file"))
	if !ValidToken(ev) || !ok1 || !ok2 {
		http.Error(w, "want /pgn/<event>/<round>/<board>.pgn", http.StatusNotFound)
		return
	}
	pgn, ok := h.o.Games.GamePGN(game.ID{Event: ev, Round: round, Board: board})
	if !ok {
		http.Error(w, "no public game on this board yet", http.StatusNotFound)
		return
	}
	writePGN(w, r, pgn)
}

// pgnMaxAge is how long a cache (a CDN in front of the hall, a poller)
// may serve the public PGN without asking again: the public copy is
// already event.public_delay behind, and pollers come every few seconds.
const pgnMaxAge = "public, max-age=3"

// writePGN sends pgn with a strong ETag of its content and a short
// max-age, so a cache may keep it a few seconds and a poller (Lichess
// polls every few seconds) that sends If-None-Match gets a 304 while
// nothing changed.
func writePGN(w http.ResponseWriter, r *http.Request, pgn string) {
	sum := sha256.Sum256([]byte(pgn))
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", pgnMaxAge)
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", pgnContentType)
	_, _ = io.WriteString(w, pgn)
}

func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

func (h *HTTPServer) health(w http.ResponseWriter, r *http.Request) {
	var bad []string
	for _, s := range h.o.Health {
		if err := s.Health(); err != nil {
			bad = append(bad, err.Error())
		}
	}
	if h.o.Detail != nil && r.URL.Query().Has("detail") {
		h.healthDetail(w, bad)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if len(bad) > 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, strings.Join(bad, "\n")+"\n")
		return
	}
	lines := []string{"ok"}
	for _, s := range h.o.Health {
		if b, ok := s.(Backlogger); ok {
			lines = append(lines, b.Backlog()...)
		}
	}
	_, _ = io.WriteString(w, strings.Join(lines, "\n")+"\n")
}

func (h *HTTPServer) metrics(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", metrics.ContentType)
	w.Header().Set("Cache-Control", "no-store")
	metrics.Process(w)
	for _, s := range h.o.Metrics {
		s.WriteMetrics(w)
	}
}

// Run listens on o.Listen and o.AdminListen (those not "") and serves
// until ctx is done, then shuts down gracefully (up to 5 s for in-flight
// requests). Cancellation returns nil; an error names the listener's key.
// The admin listener's address is logged (port 0 picks a free one).
func (h *HTTPServer) Run(ctx context.Context) error {
	var pub, adm net.Listener
	var err error
	if h.o.Listen != "" {
		if pub, err = net.Listen("tcp", h.o.Listen); err != nil {
			return fmt.Errorf("http.listen %s: %w", h.o.Listen, err)
		}
	}
	if h.o.AdminListen != "" {
		if host, _, err := net.SplitHostPort(h.o.AdminListen); err == nil && !isLoopback(host) {
			if pub != nil {
				pub.Close()
			}
			return fmt.Errorf("%w: http.admin_listen %s (it shows the live hall without sign-in)", ErrAdminNotLoopback, h.o.AdminListen)
		}
		if adm, err = net.Listen("tcp", h.o.AdminListen); err != nil {
			if pub != nil {
				pub.Close()
			}
			return fmt.Errorf("http.admin_listen %s: %w", h.o.AdminListen, err)
		}
		h.log.Info("admin HTTP listener (/healthz?detail, /metrics, pprof)", "url", "http://"+adm.Addr().String())
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 2)
	n := 0
	for _, s := range []struct {
		ln      net.Listener
		handler http.Handler
		key     string
	}{{pub, h.handler(), "http.listen"}, {adm, h.adminHandler(), "http.admin_listen"}} {
		if s.ln == nil {
			continue
		}
		n++
		go func() {
			err := h.serve(ctx, s.ln, s.handler)
			if err != nil {
				err = fmt.Errorf("%s: %w", s.key, err)
				cancel()
			}
			errc <- err
		}()
	}
	if h.o.Listening != nil {
		if pub != nil {
			h.o.Listening("http.listen", pub.Addr().String())
		}
		if adm != nil {
			h.o.Listening("http.admin_listen", adm.Addr().String())
		}
	}
	var errs []error
	for range n {
		errs = append(errs, <-errc)
	}
	return errors.Join(errs...)
}

// serve serves handler on an existing listener (which it closes) until ctx
// is done.
func (h *HTTPServer) serve(ctx context.Context, ln net.Listener, handler http.Handler) error {
	l := h.limits
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: l.readHeader, ReadTimeout: l.read, WriteTimeout: l.write,
		IdleTimeout: l.idle, MaxHeaderBytes: l.maxHeader}
	if h.webStop != nil {
		srv.RegisterOnShutdown(h.webStop)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
