package livechess_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/internal/lcclient"
	"github.com/dgtbridge/dgtbridge/livechess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestErrorsAsTheProtocolGivesThem: every bad request is answered with
// response "error", the call's id and a message; the connection stays.
func TestErrorsAsTheProtocolGivesThem(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{})
	h.board("r1-b1", g1, "25805", true)
	h.start(g1)
	h.placed(ctx, "25805", startFEN())
	c := h.dial(ctx)
	if _, err := c.Call(ctx, 1, "subscribe", map[string]any{"feed": "eboardevent", "id": 7, "param": map[string]any{"serialnr": "25805"}}); err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	cases := []struct {
		call  string
		param any
		want  string
	}{
		{"nosuchcall", nil, "unknown call"},
		{"subscribe", map[string]any{"feed": "sources", "id": 8}, "unknown feed"},
		{"subscribe", map[string]any{"feed": "eboardevent", "id": 7, "param": map[string]any{"serialnr": "25805"}}, "already exists"},
		{"call", map[string]any{"id": 99, "method": "setup", "param": map[string]any{"fen": startFEN()}}, "no feed 99"},
		{"call", map[string]any{"id": 7, "method": "rotate", "param": nil}, "unknown method"},
		{"call", map[string]any{"id": 7, "method": "setup", "param": map[string]any{"fen": "not a fen"}}, "invalid FEN"},
		{"call", map[string]any{"id": 7, "method": "flip", "param": map[string]any{}}, "flip"},
		{"unsubscribe", map[string]any{"id": 42}, "no feed 42"},
	}
	for i, tc := range cases {
		_, err := c.Call(ctx, 100+i, tc.call, tc.param)
		var ce *lcclient.CallError
		if !errors.As(err, &ce) || !strings.Contains(ce.Message, tc.want) {
			t.Errorf("%s %v: %v, want an error response containing %q", tc.call, tc.param, err, tc.want)
		}
	}
	if err := c.SendRaw(ctx, []byte(`{"id":200,"call":`)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Answer(ctx, 0); err == nil || !strings.Contains(err.Error(), "invalid request") {
		t.Errorf("a frame that is no JSON: %v, want an error response", err)
	}
	// The feed still works: flip, then unsubscribe.
	if _, err := c.Call(ctx, 300, "call", map[string]any{"id": 7, "method": "flip", "param": map[string]any{"flip": true}}); err != nil {
		t.Fatalf("flip: %v", err)
	}
	for {
		id, e, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for the flipped frame: %v", err)
		}
		if id == 7 && e.Flipped != nil && *e.Flipped {
			break
		}
	}
	raw, err := c.Call(ctx, 301, "eboards", nil)
	var boards []lcclient.Board
	if err != nil || json.Unmarshal(raw, &boards) != nil || len(boards) != 1 || !boards[0].Flipped {
		t.Fatalf("eboards after flip: %s %v, want the board flipped", raw, err)
	}
	if _, err := c.Call(ctx, 302, "unsubscribe", map[string]any{"id": 7}); err != nil {
		t.Fatalf("unsubscribe: %v", err)
	}
}

// TestLenientSubscribe: a client that names no board and no feed id gets
// the first board and a feed id of the server's choice, and a param null
// is read like an absent one.
func TestLenientSubscribe(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{})
	h.board("r1-b1", g1, "", true) // no serial number: the board id stands for it
	h.start(g1)
	h.placed(ctx, "r1-b1", startFEN())
	c := h.dial(ctx)
	if err := c.SendRaw(ctx, []byte(`{"id":1,"call":"eboards","param":null}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Answer(ctx, 1); err != nil {
		t.Fatalf("eboards with param null: %v", err)
	}
	if _, err := c.Call(ctx, 2, "subscribe", map[string]any{"feed": "eboardevent", "param": map[string]any{}}); err != nil {
		t.Fatalf("subscribe without serial and feed id: %v", err)
	}
	id, e, err := c.Next(ctx)
	if err != nil || id == 0 || e.SerialNr != "r1-b1" {
		t.Fatalf("first frame: feed %d %+v %v, want a feed id and board r1-b1", id, e, err)
	}
}

// TestBoardStatesAndClock: connected boards are ACTIVE, lost ones
// NOTRESPONDING; the clock says which side runs; battery is null (no
// board reports one to the daemon); source is the port.
func TestBoardStatesAndClock(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{})
	h.board("r1-b1", g1, "25805", true)
	h.board("r1-b2", g2, "25806", false)
	h.start(g1)
	h.start(g2)
	h.each(g1, "e4")
	h.clock(g1, 5395000, 5400000, game.RunningBlack)
	bs := h.waitBoards(ctx, "both boards and the clock", func(bs []lcclient.Board) bool {
		return len(bs) == 2 && len(bs[0].Clock) > 0 && strings.Contains(string(bs[0].Clock), `"run":false`)
	})
	if *bs[0].State != livechess.StateActive || *bs[1].State != livechess.StateNotResponding {
		t.Errorf("states %s, %s; want ACTIVE, NOTRESPONDING", *bs[0].State, *bs[1].State)
	}
	if bs[0].Battery != nil || bs[0].Source == nil || *bs[0].Source != "/dev/ttyACM1" {
		t.Errorf("board 1: battery %v source %v", bs[0].Battery, bs[0].Source)
	}
	var clk livechess.Clock
	if err := json.Unmarshal(bs[0].Clock, &clk); err != nil || clk.White != 5395 || clk.Black != 5400 || clk.Run == nil || *clk.Run {
		t.Errorf("clock %s, want white 5395 s, black 5400 s, run false (Black's clock)", bs[0].Clock)
	}
}

// TestOnlyThisMachineAndAllowedSites: a page of another site cannot open
// the socket nor read the list; a request naming another host (a DNS
// rebinding page) is refused; Lichess's page and a client without Origin
// are served.
func TestOnlyThisMachineAndAllowedSites(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{Origins: []string{"*.example.org"}})
	if _, err := lcclient.Dial(ctx, h.url, "https://evil.example"); err == nil {
		t.Error("a page of https://evil.example opened the socket")
	}
	for _, origin := range []string{"", "https://lichess.org", "http://localhost:8080", "https://club.example.org"} {
		c, err := lcclient.Dial(ctx, h.url, origin)
		if err != nil {
			t.Errorf("origin %q refused: %v", origin, err)
			continue
		}
		c.Close()
	}
	get := func(host, origin string) int {
		req, _ := http.NewRequestWithContext(ctx, "GET", h.http+livechess.Path+"/eboards", nil)
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := get("attacker.example:1982", ""); s != http.StatusForbidden {
		t.Errorf("Host attacker.example: %d, want 403", s)
	}
	if s := get("", "https://evil.example"); s != http.StatusForbidden {
		t.Errorf("Origin evil.example: %d, want 403", s)
	}
	if s := get("localhost:1982", "https://lichess.org"); s != http.StatusOK {
		t.Errorf("Lichess's page: %d, want 200", s)
	}
}

// TestSerialNumberReportedLater: a board listed under its board id until
// it reports its serial number is then listed under the serial; a feed
// subscribed under the board id keeps that name in its frames, and a new
// client may subscribe with either.
func TestSerialNumberReportedLater(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{})
	h.board("r1-b1", g1, "", true)
	h.start(g1)
	h.placed(ctx, "r1-b1", startFEN())
	p := &lcclient.Page{C: h.dial(ctx)}
	if _, err := p.Handshake(ctx, ""); err != nil || p.Serial != "r1-b1" {
		t.Fatalf("handshake: %v, board %q", err, p.Serial)
	}
	h.board("r1-b1", g1, "25805", true)
	h.waitBoards(ctx, "the serial number", func(bs []lcclient.Board) bool { return len(bs) == 1 && bs[0].SerialNr == "25805" })
	h.each(g1, "e4")
	takeOne(ctx, t, p, "e4") // Take checks every frame names the feed's board
	for _, name := range []string{"25805", "r1-b1"} {
		c := h.dial(ctx)
		if _, err := c.Call(ctx, 1, "subscribe", map[string]any{"feed": "eboardevent", "id": 1, "param": map[string]any{"serialnr": name}}); err != nil {
			t.Errorf("subscribe as %s: %v", name, err)
			continue
		}
		if _, e, err := c.Next(ctx); err != nil || e.SerialNr != name || len(e.SAN) != 1 {
			t.Errorf("subscribed as %s: first frame %+v %v", name, e, err)
		}
	}
}

// TestHostileFrames: a binary frame is answered with an error; a frame
// larger than any request ends the connection, and the server serves the
// next client.
func TestHostileFrames(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{})
	c := h.dial(ctx)
	if err := c.SendBinary(ctx, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Answer(ctx, 0); err == nil || !strings.Contains(err.Error(), "text frame") {
		t.Errorf("binary frame: %v", err)
	}
	big := `{"id":1,"call":"eboards","param":"` + strings.Repeat("x", 1<<20) + `"}`
	_ = c.SendRaw(ctx, []byte(big))
	if _, err := c.Answer(ctx, 1); err == nil {
		t.Error("a 1 MiB request was answered")
	}
	c2 := h.dial(ctx)
	if _, err := c2.Call(ctx, 1, "eboards", nil); err != nil {
		t.Errorf("the next client: %v", err)
	}
}

// TestPublicUserSeesNoBoard: handed a public user's connection (a wiring
// mistake), the server reads nothing of the live feed: no board is listed
// while the organisers' buckets hold one.
func TestPublicUserSeesNoBoard(t *testing.T) {
	ctx := testCtx(t)
	h := newHallAs(t, livechess.Options{}, "viewer", "viewer-pw", nats.CustomInboxPrefix(broadcast.PublicInboxPrefix))
	h.board("r1-b1", g1, "25805", true)
	h.start(g1)
	h.each(g1, "e4")
	if _, err := h.status.Get(ctx, "r1-b1"); err != nil {
		t.Fatalf("the status bucket lacks the board: %v", err)
	}
	for range 10 { // the watches retry every second; none may get through
		if b := h.eboards(); len(b) != 0 {
			t.Fatalf("a public user's server lists %s", show(b))
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// TestStopsPromptly: a server with clients connected stops within a
// second of its context ending, and their sockets are closed.
func TestStopsPromptly(t *testing.T) {
	ctx := testCtx(t)
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: prefix, StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	lc, err := livechess.New(livechess.Options{Conn: nc, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- lc.Serve(sctx, ln) }()
	var clients []*lcclient.Client
	for range 3 {
		c, err := lcclient.Dial(ctx, "ws://"+ln.Addr().String()+livechess.Path, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Call(ctx, 1, "eboards", nil); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("Serve still running a second after its context ended")
	}
	for i, c := range clients {
		if _, _, err := c.Next(ctx); err == nil {
			t.Errorf("client %d still reads after the stop", i)
		}
	}
}
