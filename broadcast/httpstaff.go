package broadcast

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/httpauth"
)

// What the HTTP server shows to whom (docs/contract.md §5):
//
//   - the public listener (HTTPOptions.Listen) serves the public copy (PGN,
//     the pages) and GET /healthz to anyone: "ok", or 503 and a short
//     reason that names no board, device, game or error text
//     ([PublicHealther]);
//   - GET /healthz?detail, GET /metrics and pprof show the live hall and
//     the process: on the public listener only with the HTTP Basic
//     credentials of a staff user (HTTPOptions.Staff: organisers and
//     arbiters), and there /healthz gives its full reasons too;
//   - the admin listener (HTTPOptions.AdminListen, loopback) serves
//     /healthz (full, and ?detail), /metrics and pprof without
//     credentials: whoever reaches a loopback port is on the machine.
//
// Every answer of either listener, errors and 404 included, carries the
// security headers of [securityHeaders].

// PublicHealther is a [HealthSource] that can say why it is unhealthy in
// words anyone may read: a component and a count ("nats: not connected",
// "2 of 40 boards not connected"), never a board, a device, a game, an
// error's text or anything of a game. The public /healthz uses it; a
// source without it is reported there as "not healthy", and a source with
// Summary() (boards, disconnected int) (the hall) by its counts.
type PublicHealther interface {
	PublicHealth() error
}

// boardCounter is a health source that counts its boards (the hall).
type boardCounter interface {
	Summary() (boards, disconnected int)
}

// staffRealm is the realm of the HTTP Basic challenge.
const staffRealm = `Basic realm="dgtbridge staff", charset="UTF-8"`

// defaultCSP is the Content-Security-Policy of every answer that is not a
// page (PGN, JSON, text, errors): nothing may load, nothing may frame it.
// The pages set their own ([webCSP]).
const defaultCSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// securityHeaders sets, before next runs, the headers every answer
// carries: no MIME sniffing (a PGN is never run as a script), a
// Content-Security-Policy, no framing, no Referer to other sites. A
// handler may replace the policy (the pages do).
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", defaultCSP)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

// loopbackHost serves next only to requests whose Host names this machine
// (localhost, a loopback address): the admin listener has no sign-in, and
// a web page a browser on the machine loads from elsewhere could otherwise
// point its own name at 127.0.0.1 (DNS rebinding) and read the live hall
// through the visitor's browser. Others get 403.
func loopbackHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if !isLoopback(strings.Trim(host, "[]")) {
			http.Error(w, "the admin listener answers requests for localhost, 127.0.0.1 or [::1] only", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// staffChecker returns the checker of the staff among users (organisers
// and arbiters; other roles never sign in over HTTP).
func staffChecker(users []User) *httpauth.Checker {
	var staff []httpauth.User
	for _, u := range users {
		if u.Role == RoleOrganiser || u.Role == RoleArbiter {
			staff = append(staff, httpauth.User{Name: u.Name, Password: u.Password})
		}
	}
	return httpauth.New(staff)
}

// staff checks r's credentials: nil when they are a staff user's.
func (h *HTTPServer) staff(r *http.Request) error {
	name, pw, ok := r.BasicAuth()
	if !ok {
		return httpauth.ErrNoCredentials
	}
	return h.auth.Check(name, pw)
}

// refuse answers a request whose credentials did not pass: 401 with a
// challenge, or 503 when sign-ins are busy.
func (h *HTTPServer) refuse(w http.ResponseWriter, r *http.Request, err error) {
	w.Header().Set("Cache-Control", "no-store")
	if errors.Is(err, httpauth.ErrBusy) {
		w.Header().Set("Retry-After", "1")
		http.Error(w, "too many sign-ins at once: try again", http.StatusServiceUnavailable)
		return
	}
	if !errors.Is(err, httpauth.ErrNoCredentials) {
		if ok, skipped := h.refusedLog.allow(time.Now()); ok {
			h.log.Warn("http: staff sign-in refused", "path", r.URL.Path, "remote", r.RemoteAddr, "more_refused_unlogged", skipped)
		}
	}
	w.Header().Set("WWW-Authenticate", staffRealm)
	msg := "staff only: the admin listener (http.admin_listen), or the credentials of an organiser or arbiter"
	http.Error(w, msg, http.StatusUnauthorized)
}

// staffOnly serves next to requests with a staff user's credentials.
func (h *HTTPServer) staffOnly(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h.staff(r); err != nil {
			h.refuse(w, r, err)
			return
		}
		next(w, r)
	}
}

// mountAdmin adds the staff paths to mux; wrap guards each (staffOnly on
// the public listener, nothing on the admin listener).
func (h *HTTPServer) mountAdmin(mux *http.ServeMux, wrap func(http.HandlerFunc) http.HandlerFunc) {
	mux.HandleFunc("GET /metrics", wrap(h.metrics))
	if h.o.Pprof {
		mux.HandleFunc("/debug/pprof/", wrap(pprof.Index))
		mux.HandleFunc("/debug/pprof/cmdline", wrap(pprof.Cmdline))
		mux.HandleFunc("/debug/pprof/profile", wrap(pprof.Profile))
		mux.HandleFunc("/debug/pprof/symbol", wrap(pprof.Symbol))
		mux.HandleFunc("/debug/pprof/trace", wrap(pprof.Trace))
	}
}

// publicHealth is GET /healthz on the public listener: the full answer
// (and ?detail) for staff credentials; otherwise the verdict with the
// sources' public reasons, and 401 for ?detail.
func (h *HTTPServer) publicHealth(w http.ResponseWriter, r *http.Request) {
	_, _, hasCreds := r.BasicAuth()
	if hasCreds || r.URL.Query().Has("detail") {
		if err := h.staff(r); err != nil {
			h.refuse(w, r, err)
			return
		}
		h.health(w, r)
		return
	}
	var bad []string
	behind := false
	for _, s := range h.o.Health {
		if err := s.Health(); err != nil {
			bad = append(bad, publicReason(s))
		} else if b, ok := s.(Backlogger); ok && len(b.Backlog()) > 0 {
			behind = true
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if len(bad) > 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, strings.Join(bad, "\n")+"\n")
		return
	}
	if behind {
		_, _ = io.WriteString(w, "ok\nbehind (the admin listener says where)\n")
		return
	}
	_, _ = io.WriteString(w, "ok\n")
}

// publicReason is why an unhealthy source is unhealthy, in words anyone
// may read (see [PublicHealther]).
func publicReason(s HealthSource) string {
	if p, ok := s.(PublicHealther); ok {
		if err := p.PublicHealth(); err != nil {
			return err.Error()
		}
	}
	if c, ok := s.(boardCounter); ok {
		if n, dis := c.Summary(); dis > 0 {
			return fmt.Sprintf("%d of %d boards not connected", dis, n)
		}
		return "the hall is not healthy (not its boards: the admin listener says why)"
	}
	return "not healthy (the admin listener says why)"
}

// refusedLogEvery is how often a refused sign-in is logged at most: a
// client trying passwords must not fill the log (the count of those left
// out is on the next line).
const refusedLogEvery = 10 * time.Second

// logThrottle lets one log line through per refusedLogEvery and counts
// the others. The zero value is ready; safe for concurrent use.
type logThrottle struct {
	mu      sync.Mutex
	last    time.Time
	skipped int
}

// allow reports whether a line may be logged at now, and how many were
// left out since the last one.
func (l *logThrottle) allow(now time.Time) (bool, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.last.IsZero() && now.Sub(l.last) < refusedLogEvery {
		l.skipped++
		return false, 0
	}
	n := l.skipped
	l.last, l.skipped = now, 0
	return true, n
}
