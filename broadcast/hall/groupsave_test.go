package hall

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestGroupSaver: many boards saving at once get their records committed
// (each board's last save is the file's content, no temporary file left),
// a save into a directory that cannot exist fails with a *RecordError and
// leaves the other boards' saves of the batch committed, and after stop a
// save is written directly.
func TestGroupSaver(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "file")
	if err := os.WriteFile(bad, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad = filepath.Join(bad, "games") // a file in the way: MkdirAll fails
	g := newGroupSaver()
	var sw sync.WaitGroup
	sw.Go(g.start())
	const boards, saves = 40, 5
	var wg sync.WaitGroup
	errs := make([]error, boards)
	var badErr error
	for i := range boards {
		wg.Go(func() {
			done := make(chan error, 1)
			r := NewRecord(Info{Game: game.ID{Event: "e", Round: 1, Board: i + 1}}, "", t0)
			for ply := 1; ply <= saves; ply++ {
				r.Moves = append(r.Moves, Ply{UCI: "e2e4", SAN: "e4"})
				r.Published = ply
				if err := g.save(dir, r, done); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Go(func() {
		r := NewRecord(Info{Game: game.ID{Event: "e", Round: 1, Board: 99}}, "", t0)
		badErr = g.save(bad, r, make(chan error, 1))
	})
	wg.Wait()
	g.stop()
	sw.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("board %d: %v", i+1, err)
		}
		r, ok, err := LoadRecord(dir, game.ID{Event: "e", Round: 1, Board: i + 1})
		if err != nil || !ok || len(r.Moves) != saves || r.Published != saves {
			t.Fatalf("board %d: loaded %v %v %+v", i+1, ok, err, r)
		}
	}
	var re *RecordError
	if !errors.As(badErr, &re) || re.Path != RecordPath(bad, game.ID{Event: "e", Round: 1, Board: 99}) {
		t.Errorf("save into a file: %v", badErr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// Stopped: written by the caller.
	r := NewRecord(Info{Game: game.ID{Event: "e", Round: 2, Board: 1}}, "", t0)
	if err := g.save(dir, r, make(chan error, 1)); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := LoadRecord(dir, r.Info.Game); !ok || err != nil {
		t.Fatalf("save after stop: %v %v", ok, err)
	}
}
