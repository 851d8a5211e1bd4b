package daemon

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
)

// TestDaemonRefusesNewerData: a data folder written by a newer daemon is
// refused before anything is opened in it (no server store, no outbox, no
// game files), and the folder is left as it was.
func TestDaemonRefusesNewerData(t *testing.T) {
	cfg, hb := manualDaemon(t)
	marker := filepath.Join(cfg.DataDir, storage.FormatFile)
	if err := os.WriteFile(marker, []byte("dgtbridge data format 99\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	err := Run(context.Background(), cfg, Options{Boards: hb}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	if !errors.Is(err, storage.ErrNewerFormat) {
		t.Fatalf("Run on a newer data folder: %v", err)
	}
	entries, _ := os.ReadDir(cfg.DataDir)
	if len(entries) != 1 || entries[0].Name() != storage.FormatFile {
		t.Errorf("the refused folder holds %v, want the format file alone", entries)
	}
}
