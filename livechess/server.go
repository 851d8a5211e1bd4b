package livechess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
)

// DefaultListen is where LiveChess listens and where its clients look.
const DefaultListen = "127.0.0.1:1982"

// Path is the API's path: the WebSocket, and GET Path+"/eboards".
const Path = "/api/v1.0"

// DefaultOrigins are the sites whose pages may open the API from a
// browser (Lichess's DGT page) besides pages served from this machine.
var DefaultOrigins = []string{"lichess.org", "*.lichess.org", "localhost", "127.0.0.1", "::1"}

// Options configure a [Server]. Conn and Prefix are required.
type Options struct {
	// Listen is host:port (default [DefaultListen]).
	Listen string
	// Conn reads the daemon's feed: a user that may read the status and
	// games buckets and <p>.game.> (an organiser). The server does not
	// close it.
	Conn *nats.Conn
	// Prefix is nats.prefix.
	Prefix string
	// FirstBoard is the board id listed first ("" : boards by game);
	// clients that take the first board take it.
	FirstBoard string
	// Origins are more origin hosts ("example.org", "*.example.org")
	// whose pages may use the API, beside [DefaultOrigins].
	Origins []string
	// AllowRemote serves clients that are not on this machine; off, only
	// loopback clients that name the host localhost or a loopback address
	// are served (a web page elsewhere cannot reach it through DNS tricks).
	AllowRemote bool
	// Logger (nil: discarded).
	Logger *slog.Logger
	// Now is the clock of the frames' times (default time.Now).
	Now func() time.Time
}

// Server is the LiveChess-compatible API. Create it with [New]; call Run
// (or Serve) once.
type Server struct {
	o    Options
	view *view
	log  *slog.Logger
	now  func() time.Time
	mux  *http.ServeMux

	wg      sync.WaitGroup // the sessions
	ctxMu   sync.Mutex
	serving context.Context
}

// New checks the options and returns a server.
func New(o Options) (*Server, error) {
	if o.Conn == nil || o.Prefix == "" {
		return nil, errors.New("livechess: Options.Conn and Options.Prefix are required")
	}
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	s := &Server{o: o, view: newView(o.FirstBoard), log: o.Logger, now: o.Now, mux: http.NewServeMux()}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.mux.HandleFunc("GET "+Path, s.websocket)
	s.mux.HandleFunc("GET "+Path+"/eboards", s.eboards)
	s.mux.HandleFunc("OPTIONS "+Path+"/eboards", s.eboards)
	return s, nil
}

// Run listens on Options.Listen and serves until ctx ends; it returns nil
// then, or the error that stopped it.
func (s *Server) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.o.Listen)
	if err != nil {
		return fmt.Errorf("livechess.listen: %w", err)
	}
	return s.Serve(ctx, ln)
}

// Serve is Run on a listener of the caller's (closed when it returns).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.ctxMu.Lock()
	s.serving = ctx
	s.ctxMu.Unlock()
	srv := &http.Server{Handler: s.guard(s.mux), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10}
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	go func() { errc <- s.follow(ctx) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
	}
	cancel()
	sctx, scancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer scancel()
	_ = srv.Shutdown(sctx)
	s.wg.Wait()
	return err
}

// guard refuses clients from elsewhere (unless AllowRemote) and pages of
// sites that are not allowed.
func (s *Server) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.o.AllowRemote && (!loopbackAddr(r.RemoteAddr) || !loopbackHost(r.Host)) {
			http.Error(w, "this LiveChess API serves this machine only", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			if !s.originAllowed(o) {
				http.Error(w, "origin "+o+" may not use this API (livechess.origins)", http.StatusForbidden)
				return
			}
			w.Header().Set("Access-Control-Allow-Origin", o)
			w.Header().Set("Vary", "Origin")
		}
		h.ServeHTTP(w, r)
	})
}

// originAllowed reports whether a page from origin may use the API.
func (s *Server) originAllowed(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	for _, p := range append(append([]string(nil), DefaultOrigins...), s.o.Origins...) {
		p = strings.ToLower(p)
		if host == p || strings.HasPrefix(p, "*.") && strings.HasSuffix(host, p[1:]) {
			return true
		}
	}
	return false
}

func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// eboards serves GET /api/v1.0/eboards (and its CORS preflight).
func (s *Server) eboards(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodOptions {
		w.Header().Set("Access-Control-Allow-Methods", "GET")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	out := []EBoard{}
	for _, b := range s.view.list() {
		out = append(out, b.eboard(false))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(out)
}

// websocket upgrades a client and serves it until it goes.
func (s *Server) websocket(w http.ResponseWriter, r *http.Request) {
	// Counted before the upgrade: until then the connection is one that
	// the HTTP server's Shutdown waits for, so Serve's Wait comes after.
	s.wg.Add(1)
	defer s.wg.Done()
	// The origin was checked by guard: pages of other sites never get here.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.log.Debug("livechess: upgrade failed", "remote", r.RemoteAddr, "err", err)
		return
	}
	c.SetReadLimit(maxRequest)
	s.ctxMu.Lock()
	ctx := s.serving
	s.ctxMu.Unlock()
	s.log.Info("livechess: client connected", "remote", r.RemoteAddr, "origin", r.Header.Get("Origin"))
	(&session{s: s, c: c, feeds: map[int]*feed{}, waiting: map[int]time.Time{}}).run(ctx)
	c.CloseNow()
	s.log.Info("livechess: client gone", "remote", r.RemoteAddr)
}
