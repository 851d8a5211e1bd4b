package broadcast_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Example wires the pieces the way the daemon does: embedded server,
// publisher, events from a tracker, and the organisers' round PGN over
// request/reply.
func Example() {
	dir, _ := os.MkdirTemp("", "dgtbridge-example")
	defer os.RemoveAll(dir)
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: "dgt", StoreDir: filepath.Join(dir, "nats")})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Shutdown()
	pub, err := broadcast.NewPublisher(broadcast.Options{
		Prefix:      "dgt",
		Dir:         filepath.Join(dir, "outbox"),
		Connect:     srv.Dialer(),
		PublicDelay: 15 * time.Minute,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pub.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = pub.Run(ctx) })
	defer wg.Wait()
	defer cancel()

	// What the tracker/adjudicator side calls (it never waits for NATS).
	g := game.ID{Event: "open2026", Round: 1, Board: 1}
	at := game.T(time.Date(2026, 2, 8, 8, 1, 2, 0, time.UTC))
	if err := pub.PublishMove(game.MoveEvent{Game: g, Ply: 1, SAN: "e4", UCI: "e2e4", At: at}); err != nil {
		fmt.Println(err)
		return
	}
	if err := pub.PublishState(game.GameState{Game: g, Event: "open2026", Round: 1, Board: 1,
		White: "Carlsen, Magnus", Black: "Nepomniachtchi, Ian", Moves: []string{"e2e4"}, SAN: []string{"e4"},
		Result: "*", UpdatedAt: at}); err != nil {
		fmt.Println(err)
		return
	}

	// Health is nil once the publisher is connected and its stores loaded.
	for deadline := time.Now().Add(10 * time.Second); pub.Health() != nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			fmt.Println("publisher not healthy after 10 s:", pub.Health())
			return
		}
	}
	nc, err := srv.Connect()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer nc.Close()
	reply, err := nc.Request("dgt.api.pgn.open2026.1", nil, 5*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(reply.Data))
	// Output:
	// [Event "open2026"]
	// [Site "?"]
	// [Date "????.??.??"]
	// [Round "1.1"]
	// [White "Carlsen, Magnus"]
	// [Black "Nepomniachtchi, Ian"]
	// [Result "*"]
	// [GameId "open2026.1.1"]
	//
	// 1. e4 *
}
