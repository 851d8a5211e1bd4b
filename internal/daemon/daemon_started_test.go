package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/nats-io/nats.go/jetstream"
)

// TestStartedOnceStreamsExist: the daemon calls its Started hook (the
// demo prints its banner there, and what it prints is used at once) only
// when the publisher's streams exist. Before, Started came right after the
// publisher's goroutine was launched: a consumer made from the banner
// found no DGT_GAMES stream (TestDemo failed so on a loaded machine,
// "stream not found"; here nearly every time).
func TestStartedOnceStreamsExist(t *testing.T) {
	cfg, hb := manualDaemon(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	checked := make(chan error, 1)
	started := func(_ *hall.Hall, srv *broadcast.Server) {
		nc, err := srv.Connect()
		if err != nil {
			checked <- err
			return
		}
		defer nc.Close()
		js, err := jetstream.New(nc)
		if err == nil {
			for _, name := range []string{"DGT_GAMES", "DGT_ALERTS"} {
				if _, err = js.Stream(ctx, name); err != nil {
					err = fmt.Errorf("stream %s: %w", name, err)
					break
				}
			}
		}
		checked <- err
	}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, cfg, Options{Boards: hb, Started: started}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	}()
	select {
	case err := <-checked:
		if err != nil {
			t.Errorf("when Started was called: %v", err)
		}
	case err := <-done:
		t.Fatalf("the daemon returned before Started: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("Started was not called")
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("daemon: %v", err)
	}
}

// manualDaemon is the configuration of a daemon with one manual board
// (no port), its embedded server on a free port and no HTTP, and its
// boards as the hall takes them.
func manualDaemon(t *testing.T) (config.Config, []hall.Board) {
	t.Helper()
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	cfg.NATS.Embedded.Listen = "127.0.0.1:0"
	cfg.HTTP.Listen = ""
	cfg.Event.ID = "open2026"
	cfg.Boards = []config.Board{{Protocol: "manual", Round: 1, Board: 1, White: "A", Black: "B"}}
	hb, err := HallBoards(&cfg, func(config.Board) (hall.Board, error) { return hall.Board{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	return cfg, hb
}
