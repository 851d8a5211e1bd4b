package gamestore

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

var t0 = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

// TestRecordFiles: a missing record file is no error; one that does not
// parse, or that holds another game, is a *RecordError wrapping
// ErrCorruptRecord naming the file; a save leaves no temporary file.
func TestRecordFiles(t *testing.T) {
	dir := t.TempDir()
	g := game.ID{Event: "e", Round: 1, Board: 1}
	if _, ok, err := LoadRecord(dir, g); ok || err != nil {
		t.Fatalf("missing record: %v %v", ok, err)
	}
	os.WriteFile(RecordPath(dir, g), []byte("{not json"), 0o644)
	_, _, err := LoadRecord(dir, g)
	var re *RecordError
	if !errors.Is(err, ErrCorruptRecord) || !errors.As(err, &re) || re.Path != RecordPath(dir, g) {
		t.Fatalf("corrupt record: %v", err)
	}
	other := gamerecord.NewRecord(gamerecord.Info{Game: game.ID{Event: "e", Round: 1, Board: 2}}, "", t0)
	if err := SaveRecord(dir, other); err != nil {
		t.Fatal(err)
	}
	os.Rename(RecordPath(dir, other.Info.Game), RecordPath(dir, g))
	if _, _, err := LoadRecord(dir, g); !errors.Is(err, ErrCorruptRecord) {
		t.Errorf("a record of another game: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
