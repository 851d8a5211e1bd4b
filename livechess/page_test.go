package livechess_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/lcclient"
	"github.com/dgtbridge/dgtbridge/livechess"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

var (
	g1 = game.ID{Event: "open2026", Round: 1, Board: 1}
	g2 = game.ID{Event: "open2026", Round: 1, Board: 2}
)

// eboards reads GET /api/v1.0/eboards.
func (h *hall) eboards() []lcclient.Board {
	h.t.Helper()
	resp, err := http.Get(h.http + livechess.Path + "/eboards")
	if err != nil {
		h.t.Fatalf("GET eboards: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		h.t.Fatalf("GET eboards: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	var out []lcclient.Board
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		h.t.Fatalf("GET eboards: %v", err)
	}
	return out
}

// waitBoards waits until the listing satisfies ok (the server reads the
// buckets as they change).
func (h *hall) waitBoards(ctx context.Context, what string, ok func([]lcclient.Board) bool) []lcclient.Board {
	h.t.Helper()
	for {
		b := h.eboards()
		if ok(b) {
			return b
		}
		select {
		case <-ctx.Done():
			h.t.Fatalf("waiting for the boards to show %s; last listing %s", what, show(b))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func show(b []lcclient.Board) string {
	out, _ := json.Marshal(b)
	return string(out)
}

// placed waits until board serial shows the position fen of its game's
// state.
func (h *hall) placed(ctx context.Context, serial, fen string) {
	h.t.Helper()
	want, _, _ := strings.Cut(fen, " ")
	h.waitBoards(ctx, serial+" at "+want, func(bs []lcclient.Board) bool {
		for _, b := range bs {
			// A board without its game's first state shows the start
			// too: the clock (every state here has one) says it is in.
			if b.SerialNr == serial && b.Board != nil && *b.Board == want && len(b.Clock) > 0 && string(b.Clock) != "null" {
				return true
			}
		}
		return false
	})
}

// takeOne reads the page's next frame with new moves and checks it brings
// exactly want.
func takeOne(ctx context.Context, t *testing.T, p *lcclient.Page, want string) {
	t.Helper()
	got, _, err := p.Take(ctx)
	if err != nil {
		t.Fatalf("waiting for %s: %v", want, err)
	}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("frame brought %q, want exactly [%s]", got, want)
	}
}

func startFEN() string { return chess.StartPosition(chess.Standard).FEN() }

// TestLichessPageHandshakeAndMoves runs the Lichess page's handshake on
// the board the setting lists first, then plays: one new move per frame,
// castling once, several plies in one state still one per frame, and a
// takeback that shortens the list.
func TestLichessPageHandshakeAndMoves(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{FirstBoard: "r1-b2"})
	h.board("r1-b1", g1, "25805", true)
	h.board("r1-b2", g2, "25806", true)
	h.start(g1)
	h.start(g2)
	h.each(g2, "e4", "e5")
	h.placed(ctx, "25806", h.fen(g2))

	p := &lcclient.Page{C: h.dial(ctx)}
	boards, err := p.Handshake(ctx, h.fen(g2))
	if err != nil {
		t.Fatalf("handshake: %v", err)
	}
	if len(boards) != 2 || boards[0].SerialNr != "25806" || boards[1].SerialNr != "25805" {
		t.Fatalf("eboards lists %s, want 25806 (livechess.first_board r1-b2) then 25805", show(boards))
	}
	// The page sent setup right after subscribe: the first frame already
	// counts from its position, with no move for the page to take.
	if len(p.Initial.SAN) != 0 || p.Initial.Start == nil || *p.Initial.Start != h.fen(g2) || p.Initial.Board == nil ||
		p.Initial.Match == nil || !*p.Initial.Match {
		t.Fatalf("first frame %+v, want no moves from %s, the board, match", p.Initial, h.fen(g2))
	}

	for _, m := range []string{"Nf3", "Nc6", "Bc4", "Bc5", "O-O"} {
		h.each(g2, m)
		takeOne(ctx, t, p, m)
	}
	h.clock(g2, 5300000, 5390000, game.RunningBlack) // a frame with the same moves
	h.play(g2, "d6", "c3", "Nf6")                    // three plies in one state
	for _, m := range []string{"d6", "c3", "Nf6"} {
		takeOne(ctx, t, p, m)
	}
	if n := strings.Count(strings.Join(p.Played, " "), "O-O"); n != 1 {
		t.Fatalf("the page took O-O %d times: %q", n, p.Played)
	}
	want := []string{"Nf3", "Nc6", "Bc4", "Bc5", "O-O", "d6", "c3", "Nf6"}
	if !slices.Equal(p.Played, want) {
		t.Fatalf("page played %q, want %q", p.Played, want)
	}

	h.takeBack(g2, 1) // Nf6 taken back
	got, _, err := p.Take(ctx)
	if err != nil || len(got) != 7 || got[6] != "c3" {
		t.Fatalf("after a takeback the frame holds %q (%v), want the seven moves since the setup, up to c3", got, err)
	}
	h.each(g2, "Nge7")
	takeOne(ctx, t, p, "Nge7")
}

// TestPromotions plays a game whose pawns promote, one with a capture and
// check, one under-promotion.
func TestPromotions(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{})
	h.board("r1-b1", g1, "1", true)
	h.start(g1)
	h.placed(ctx, "1", startFEN())
	p := &lcclient.Page{C: h.dial(ctx)}
	if _, err := p.Handshake(ctx, startFEN()); err != nil {
		t.Fatalf("handshake: %v", err)
	}
	moves := []string{"e4", "d5", "exd5", "c6", "dxc6", "Qb6", "cxb7", "Qc7", "bxa8=Q", "Nf6", "Qxb8+", "Qxb8",
		"h4", "g5", "hxg5", "Bg7", "gxf6", "O-O", "fxe7", "Qb4", "exf8=N"}
	for _, m := range moves {
		h.each(g1, m)
	}
	for _, m := range moves {
		got, _, err := p.Take(ctx)
		if err != nil {
			t.Fatalf("waiting for %s: %v", m, err)
		}
		if len(got) != 1 || strings.TrimRight(got[0], "+#") != strings.TrimRight(m, "+#") {
			t.Fatalf("frame brought %q, want [%s]", got, m)
		}
	}
	for _, want := range []string{"bxa8=Q", "exf8=N"} {
		found := false
		for _, m := range p.Played {
			found = found || strings.HasPrefix(m, want)
		}
		if !found {
			t.Errorf("no %s in %q", want, p.Played)
		}
	}
}

// TestReconnectAndSetup: the page loses its socket, moves are played
// meanwhile, it reconnects and sets up its own game's position: the moves
// since come one a frame. A setup mid-game restarts the list; a setup of a
// position the record never had sends no moves and match false.
func TestReconnectAndSetup(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{})
	h.board("r1-b1", g1, "25805", true)
	h.start(g1)
	h.placed(ctx, "25805", startFEN())
	c := h.dial(ctx)
	p := &lcclient.Page{C: c}
	if _, err := p.Handshake(ctx, startFEN()); err != nil {
		t.Fatalf("handshake: %v", err)
	}
	h.each(g1, "d4")
	takeOne(ctx, t, p, "d4")
	h.each(g1, "d5")
	takeOne(ctx, t, p, "d5")
	lichessGame := h.fen(g1)
	c.Close()

	h.each(g1, "c4", "e6")
	h.placed(ctx, "25805", h.fen(g1))
	p = &lcclient.Page{C: h.dial(ctx)}
	if _, err := p.Handshake(ctx, lichessGame); err != nil {
		t.Fatalf("handshake again: %v", err)
	}
	// The moves played while the page was away come one a frame.
	if !slices.Equal(p.Initial.SAN, []string{"c4"}) || p.Initial.Start == nil || *p.Initial.Start != lichessGame {
		t.Fatalf("first frame after the reconnect: %q from %v, want [c4] from the page's position", p.Initial.SAN, p.Initial.Start)
	}
	takeOne(ctx, t, p, "e6")

	// Setup mid-game: the position now.
	if err := p.Setup(ctx, 4, h.fen(g1)); err != nil {
		t.Fatalf("setup: %v", err)
	}
	_, e, err := p.C.Next(ctx)
	if err != nil || e.Start == nil || *e.Start != h.fen(g1) || len(e.SAN) != 0 {
		t.Fatalf("frame after setup: %+v %v, want start %s and no moves", e, err, h.fen(g1))
	}
	h.each(g1, "Nc3")
	takeOne(ctx, t, p, "Nc3")

	// A position this game never had.
	other := "8/8/8/4k3/8/8/4K3/8 w - - 0 1"
	if err := p.Setup(ctx, 5, other); err != nil {
		t.Fatalf("setup: %v", err)
	}
	_, e, err = p.C.Next(ctx)
	if err != nil || len(e.SAN) != 0 || e.Match == nil || *e.Match || e.Start == nil || *e.Start != other {
		t.Fatalf("frame after a setup the record lacks: %+v %v, want no moves, match false", e, err)
	}
	h.each(g1, "Nf6")
	_, e, err = p.C.Next(ctx)
	if err != nil || len(e.SAN) != 0 {
		t.Fatalf("a move while the set-up position is not on the board sent %+v %v, want no moves", e, err)
	}
	if err := p.Setup(ctx, 6, h.fen(g1)); err != nil {
		t.Fatalf("setup: %v", err)
	}
	h.each(g1, "Bg5")
	takeOne(ctx, t, p, "Bg5")
	// The same setup again after a move (a page that did not take it
	// empties its list and sets up its position again): the move comes
	// again.
	again := h.fen(g1)
	if err := p.Setup(ctx, 8, again); err != nil {
		t.Fatalf("setup: %v", err)
	}
	h.each(g1, "Be7")
	takeOne(ctx, t, p, "Be7")
	if err := p.Setup(ctx, 9, again); err != nil {
		t.Fatalf("setup: %v", err)
	}
	takeOne(ctx, t, p, "Be7")
	h.each(g1, "e3")
	takeOne(ctx, t, p, "e3")
	// The set-up ply stays the origin however far the game goes.
	more := []string{"O-O", "Nf3", "h6", "Bh4", "b6", "cxd5", "exd5", "Rc1"}
	for _, m := range more {
		h.each(g1, m)
		takeOne(ctx, t, p, m)
	}

	// The client's next game from the start, while the board still shows
	// this one: the start is far back in the record, not the board's
	// position, so no move of this game is sent as the new game's.
	if err := p.Setup(ctx, 7, startFEN()); err != nil {
		t.Fatalf("setup: %v", err)
	}
	_, e, err = p.C.Next(ctx)
	if err != nil || len(e.SAN) != 0 || e.Match == nil || *e.Match {
		t.Fatalf("setup of the start behind a played game: %+v %v, want no moves, match false", e, err)
	}
}

// TestEmptyHall: no board; eboards is an empty list and a subscription is
// refused with an error response.
func TestEmptyHall(t *testing.T) {
	ctx := testCtx(t)
	h := newHall(t, livechess.Options{})
	if b := h.eboards(); len(b) != 0 {
		t.Fatalf("GET eboards in an empty hall: %s", show(b))
	}
	p := &lcclient.Page{C: h.dial(ctx)}
	boards, err := p.Handshake(ctx, "")
	if len(boards) != 0 || err == nil {
		t.Fatalf("handshake in an empty hall: %s %v", show(boards), err)
	}
	_, err = p.C.Call(ctx, 0, "subscribe", map[string]any{"feed": "eboardevent", "id": 1, "param": map[string]any{"serialnr": "25805"}})
	var ce *lcclient.CallError
	if !errors.As(err, &ce) || !strings.Contains(ce.Message, "25805") {
		t.Fatalf("subscribe to a board that is not there: %v, want an error response naming it", err)
	}
}
