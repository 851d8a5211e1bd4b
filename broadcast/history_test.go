package broadcast

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// describe lists a history's payloads as kind:ply.revision.
func describe(h History) string {
	var s []string
	for _, p := range h.Payloads {
		switch p := p.(type) {
		case game.MoveEvent:
			s = append(s, fmt.Sprintf("m%d.%d", p.Ply, p.Revision))
		case game.Correction:
			s = append(s, fmt.Sprintf("c%d.%d", p.Ply, p.Revision))
		case game.Result:
			s = append(s, "r"+p.Result)
		default:
			s = append(s, fmt.Sprintf("%T", p))
		}
	}
	return fmt.Sprint(s)
}

// TestHistory: a game's record read back as published (what the recovery of
// a damaged record reads): its moves, correction and result from the
// GAMES stream in order, nothing of other games, nothing twice (a move
// published again); before NATS is reached only what waits in the outbox,
// with an error saying so; and messages still in the outbox after those of
// the stream.
func TestHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: an in-process NATS server")
	}
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p := newDaemonPublisher(t, srv, 0)
	other := game.ID{Event: "open2026", Round: 1, Board: 2}
	for ply := 1; ply <= 3; ply++ {
		p.PublishMove(move(ply, 0))
	}
	p.PublishMove(move(2, 0)) // handed again after a restart: the same message
	om := move(1, 0)
	om.Game = other
	p.PublishMove(om)

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	h, err := p.History(ctx, testGame)
	cancel()
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || describe(h) != "[m1.0 m2.0 m3.0 m2.0]" || h.FromStream != 0 {
		t.Errorf("not connected: %s (from the stream %d), %v; want the outbox's four and an error", describe(h), h.FromStream, err)
	}

	runPublisher(t, p)
	waitFor(t, "the outbox sent", 20*time.Second, func() bool { return p.Pending() == 0 })
	p.PublishCorrection(game.Correction{Game: testGame, Ply: 1, FEN: "fen", Moves: []string{"e2e4"}, Reason: game.Takeback,
		At: game.T(time.Now()), Revision: 1})
	p.PublishMove(move(2, 1))
	p.PublishResult(game.Result{Game: testGame, Result: "1-0", Termination: "normal", At: game.T(time.Now()), Revision: 1})
	waitFor(t, "the outbox sent", 20*time.Second, func() bool { return p.Pending() == 0 })
	h, err = p.History(context.Background(), testGame)
	if err != nil || describe(h) != "[m1.0 m2.0 m3.0 c1.1 m2.1 r1-0]" || h.FromStream != 6 || h.Stream != "DGT_GAMES" {
		t.Errorf("connected: %s (from %s %d), %v", describe(h), h.Stream, h.FromStream, err)
	}
	if h, err := p.History(context.Background(), game.ID{Event: "open2026", Round: 9, Board: 9}); err != nil || len(h.Payloads) != 0 {
		t.Errorf("a game never published: %s, %v", describe(h), err)
	}
}
