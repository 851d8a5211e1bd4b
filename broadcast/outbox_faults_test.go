package broadcast

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
)

// TestOutboxWriteFails: while the disk is full (and then while the process
// has no file descriptors left for a new segment), appends fail with the
// cause, journal nothing (the caller keeps the messages) and the health
// says so; once the disk answers again every message appended is there,
// once, in order, also after a reopen.
func TestOutboxWriteFails(t *testing.T) {
	for _, c := range []struct {
		name string
		op   storagetest.Op
		err  error
	}{{"ENOSPC", storagetest.Write, syscall.ENOSPC}, {"EIO", storagetest.Write, syscall.EIO}, {"EMFILE", storagetest.Open, syscall.EMFILE}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			fs := storagetest.New(nil)
			ob := openOutbox(t, dir, OutboxOptions{FS: fs, SegmentBytes: 300})
			now := time.UnixMilli(1_000)
			var want []string
			appendOK := func(i int) error {
				err := ob.Append([]envelope{env(i, false)}, []time.Time{now})
				if err == nil {
					want = append(want, fmt.Sprintf("id%d", i))
				}
				return err
			}
			for i := range 5 {
				if err := appendOK(i); err != nil {
					t.Fatal(err)
				}
			}
			fs.Fail(c.op, "", c.err)
			failed := 0
			for i := 5; i < 15; i++ {
				if err := appendOK(i); err != nil {
					failed++
					if c.op == storagetest.Write && !errors.Is(err, c.err) {
						t.Errorf("append %d: %v, want %v", i, err, c.err)
					}
				}
			}
			if c.op == storagetest.Write && failed != 10 {
				t.Errorf("%d of 10 appends failed on a full disk", failed)
			}
			if err := ob.Health(); err == nil || !strings.Contains(err.Error(), c.err.Error()) {
				t.Errorf("health while failing: %v", err)
			}
			if ob.Pending() != len(want) {
				t.Errorf("%d pending, want %d: a failed append left a record", ob.Pending(), len(want))
			}
			fs.Heal()
			for i := 15; i < 20; i++ {
				if err := appendOK(i); err != nil {
					t.Fatalf("append after the disk recovered: %v", err)
				}
			}
			if err := ob.SyncDirty(); err != nil {
				t.Fatal(err)
			}
			ob.Close()
			ob2 := openOutbox(t, dir, OutboxOptions{})
			if got := drain(t, ob2, now); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("after reopen\n got %v\nwant %v", got, want)
			}
			if d := ob2.Damage(); len(d) != 0 {
				t.Errorf("damage after failed writes: %+v", d)
			}
		})
	}
}

// TestOutboxSyncFails: an fsync that fails (EIO) may have dropped the
// pages it was flushing, so the records since the last good fsync do not
// count as durable: SyncDirty reports the failure (and the health), and
// the next SyncDirty after the disk recovers writes them again into a new
// segment. A reopen finds every record exactly once.
func TestOutboxSyncFails(t *testing.T) {
	dir := t.TempDir()
	fs := storagetest.New(nil)
	ob := openOutbox(t, dir, OutboxOptions{FS: fs})
	now := time.UnixMilli(1_000)
	for i := range 3 {
		ob.Append([]envelope{env(i, false)}, []time.Time{now})
	}
	if err := ob.SyncDirty(); err != nil {
		t.Fatal(err)
	}
	for i := 3; i < 6; i++ {
		ob.Append([]envelope{env(i, false)}, []time.Time{now})
	}
	fs.Fail(storagetest.Sync, "", syscall.EIO)
	if err := ob.SyncDirty(); !errors.Is(err, syscall.EIO) {
		t.Fatalf("sync on a failing disk: %v", err)
	}
	if err := ob.Health(); err == nil {
		t.Error("healthy after a failed fsync")
	}
	if err := ob.SyncDirty(); err == nil {
		t.Error("a second sync on the failing disk succeeded")
	}
	fs.Heal()
	before, _ := filepath.Glob(filepath.Join(dir, "*.seg"))
	if err := ob.SyncDirty(); err != nil {
		t.Fatalf("sync after the disk recovered: %v", err)
	}
	after, _ := filepath.Glob(filepath.Join(dir, "*.seg"))
	if len(after) <= len(before) {
		t.Errorf("segments %v → %v: the unsynced records were not written again", before, after)
	}
	ob.Append([]envelope{env(6, false)}, []time.Time{now})
	ob.Close()
	ob2 := openOutbox(t, dir, OutboxOptions{})
	if got := drain(t, ob2, now); fmt.Sprint(got) != "[id0 id1 id2 id3 id4 id5 id6]" {
		t.Errorf("after reopen: %v", got)
	}
}
