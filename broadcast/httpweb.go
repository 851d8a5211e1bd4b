package broadcast

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/web"
)

// The web pages' routes (docs/contract.md §5, docs/web.md), mounted by
// NewHTTPServer when HTTPOptions.Web is set. Every URL the pages use is
// relative, so they work behind a reverse proxy under a path prefix.
//
//	GET /                          the spectators' page
//	GET /arbiter                   the arbiters' page
//	GET /hall                      the organisers' hall page (signs in to NATS)
//	GET /assets/<file>             the pages' scripts and styles (embedded)
//	GET /api/public.json           every board shown: the public copy
//	GET /api/public/events         the same as server-sent events: a
//	                               "snapshot" first, then a "board" event
//	                               for each board that changed
//	GET /api/public/game/<g>.json  one game with its move list
//	GET /api/config.json           event, prefix, NATS websocket URL, boards

// webCSP is the pages' Content-Security-Policy: scripts and styles from the
// daemon only, no inline script; inline style attributes are allowed (the
// board component positions pieces with them); connect-src is completed per
// request with the NATS websocket's origin.
const webCSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; connect-src 'self'"

// webStreamPing is how often an idle event stream gets a comment line, so
// proxies and browsers keep it open.
const webStreamPing = 20 * time.Second

// webWriteTimeout bounds one write to a stream: a client that reads
// nothing for that long is dropped (its browser reconnects).
const webWriteTimeout = 30 * time.Second

type webHTTP struct {
	w      *Web
	files  fs.FS
	etags  map[string]string
	stop   chan struct{}
	stopMu sync.Once
}

// mountWeb adds the pages' routes to mux; it returns the function that ends
// the open event streams (for the server's shutdown).
func mountWeb(mux *http.ServeMux, w *Web) func() {
	h := &webHTTP{w: w, files: web.Files(), etags: map[string]string{}, stop: make(chan struct{})}
	_ = fs.WalkDir(h.files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(h.files, p)
		if err == nil {
			sum := sha256.Sum256(b)
			h.etags[p] = `"` + hex.EncodeToString(sum[:12]) + `"`
		}
		return nil
	})
	mux.HandleFunc("GET /{$}", h.page("index.html"))
	mux.HandleFunc("GET /arbiter", h.page("arbiter.html"))
	mux.HandleFunc("GET /hall", h.page("hall.html"))
	mux.HandleFunc("GET /assets/{file}", h.asset)
	mux.HandleFunc("GET /api/public.json", h.snapshot)
	mux.HandleFunc("GET /api/public/events", h.events)
	mux.HandleFunc("GET /api/public/game/{file}", h.game)
	mux.HandleFunc("GET /api/config.json", h.config)
	return func() { h.stopMu.Do(func() { close(h.stop) }) }
}

// security sets the headers every page and API answer carries.
func (h *webHTTP) security(w http.ResponseWriter, r *http.Request) {
	csp := webCSP
	if o := h.websocketOrigin(r); o != "" {
		csp += " " + o
	}
	hd := w.Header()
	hd.Set("Content-Security-Policy", csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
}

func (h *webHTTP) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h.serveFile(w, r, name)
	}
}

func (h *webHTTP) asset(w http.ResponseWriter, r *http.Request) {
	f := r.PathValue("file")
	if f == "" || strings.Contains(f, "/") || strings.HasPrefix(f, ".") {
		http.NotFound(w, r)
		return
	}
	h.serveFile(w, r, "assets/"+f)
}

// serveFile sends an embedded file with an ETag of its content: browsers
// revalidate (no-cache) and get a 304 while the binary is the same.
func (h *webHTTP) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	etag, ok := h.etags[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h.security(w, r)
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	b, err := fs.ReadFile(h.files, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	_, _ = w.Write(b)
}

func (h *webHTTP) writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	h.security(w, r)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func (h *webHTTP) snapshot(w http.ResponseWriter, r *http.Request) {
	h.writeJSON(w, r, h.w.snapshot())
}

func (h *webHTTP) game(w http.ResponseWriter, r *http.Request) {
	base, ok := strings.CutSuffix(r.PathValue("file"), ".json")
	id, err := game.ParseID(base)
	if !ok || err != nil {
		http.Error(w, "want /api/public/game/<event>.<round>.<board>.json", http.StatusNotFound)
		return
	}
	g, ok := h.w.game(id)
	if !ok {
		http.Error(w, "no such game on the public copy", http.StatusNotFound)
		return
	}
	h.writeJSON(w, r, g)
}

// events streams the public view as server-sent events: "snapshot" (every
// board) first, then "board" events as boards change, a comment every
// webStreamPing. A browser's EventSource reconnects by itself and gets a
// fresh snapshot.
func (h *webHTTP) events(w http.ResponseWriter, r *http.Request) {
	c, ok := h.w.subscribe()
	if !ok {
		http.Error(w, "too many open event streams", http.StatusServiceUnavailable)
		return
	}
	defer h.w.unsubscribe(c)
	rc := http.NewResponseController(w)
	h.security(w, r)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	send := func(event string, v any) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(webWriteTimeout))
		if event == "" {
			_, err := io.WriteString(w, ": ping\n\n")
			return err == nil && rc.Flush() == nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return false
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("snapshot", h.w.snapshot()) {
		return
	}
	ping := time.NewTicker(webStreamPing)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-h.stop:
			return
		case <-ping.C:
			if !send("", nil) {
				return
			}
		case <-c.wake:
			for _, b := range h.w.changed(c) {
				if !send("board", b) {
					return
				}
			}
		}
	}
}

// webConfig is GET api/config.json: what the arbiters' page needs to sign
// in and name subjects.
type webConfig struct {
	Event     webEvent         `json:"event"`
	Prefix    string           `json:"prefix"`
	Websocket string           `json:"websocket"`
	Boards    []webConfigBoard `json:"boards"`
}

type webConfigBoard struct {
	Game    string `json:"game"`
	Board   int    `json:"board"`
	BoardID string `json:"board_id,omitempty"`
	Variant string `json:"variant"`
	// StartFEN is the position the board's game starts from.
	StartFEN string `json:"start_fen"`
}

func (h *webHTTP) config(w http.ResponseWriter, r *http.Request) {
	cfg := webConfig{Event: h.w.event(), Prefix: h.w.o.Subjects.Prefix, Websocket: h.websocketURL(r), Boards: h.w.configBoards()}
	h.writeJSON(w, r, cfg)
}

// websocketURL is WebOptions.Websocket as the page must use it: a URL
// (absolute, or relative to the page), with an unspecified listener host
// replaced by the host the page was loaded from.
func (h *webHTTP) websocketURL(r *http.Request) string {
	ws := h.w.o.Websocket
	switch {
	case ws == "":
		return ""
	case strings.HasPrefix(ws, "ws://"), strings.HasPrefix(ws, "wss://"):
		return ws
	}
	host, port, err := net.SplitHostPort(ws)
	if err != nil || strings.Contains(ws, "/") {
		return ws // a path, relative to the page
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if h2, _, err := net.SplitHostPort(r.Host); err == nil {
			host = h2
		} else {
			host = r.Host
		}
	}
	scheme := "ws://"
	if h.w.o.WebsocketTLS {
		scheme = "wss://"
	}
	return scheme + net.JoinHostPort(strings.Trim(host, "[]"), port)
}

// websocketOrigin is the websocket URL's origin for connect-src ("" when it
// is relative: 'self' does not cover ws:, so a relative one adds ws: and
// wss: of the page's own host).
func (h *webHTTP) websocketOrigin(r *http.Request) string {
	ws := h.websocketURL(r)
	if ws == "" {
		return ""
	}
	u, err := url.Parse(ws)
	if err != nil {
		return ""
	}
	if u.Scheme == "ws" || u.Scheme == "wss" {
		return u.Scheme + "://" + u.Host
	}
	return "ws://" + r.Host + " wss://" + r.Host
}
