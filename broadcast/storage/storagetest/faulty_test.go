package storagetest

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// TestFaults: a failing op fails with the errno (as the os package wraps
// it) on matching paths only, and passes through after Heal; a stalled
// fsync waits until released, then goes through; calls are counted.
func TestFaults(t *testing.T) {
	dir := t.TempDir()
	fs := New(nil)
	f, err := fs.OpenFile(filepath.Join(dir, "journal.seg"), os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fs.Fail(Write, "journal", syscall.ENOSPC)
	if _, err := f.Write([]byte("x")); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("write on a full disk: %v", err)
	}
	other, _ := fs.OpenFile(filepath.Join(dir, "other"), os.O_RDWR|os.O_CREATE, 0o640)
	if _, err := other.Write([]byte("x")); err != nil {
		t.Errorf("a write to another path failed: %v", err)
	}
	other.Close()
	fs.Heal()
	if _, err := f.Write([]byte("x")); err != nil {
		t.Errorf("write after Heal: %v", err)
	}
	if fs.Calls(Write) != 3 || fs.Failed(Write) != 1 {
		t.Errorf("writes %d, failed %d; want 3 and 1", fs.Calls(Write), fs.Failed(Write))
	}
	if j, all := fs.Written("journal"), fs.Written(""); j != 1 || all != 2 {
		t.Errorf("bytes written: journal %d, all %d; want 1 and 2 (the failed write wrote none)", j, all)
	}
	fs.Fail(Open, "", syscall.EMFILE)
	if _, err := fs.OpenFile(filepath.Join(dir, "x"), os.O_RDWR|os.O_CREATE, 0o640); !errors.Is(err, syscall.EMFILE) {
		t.Errorf("open with no descriptors left: %v", err)
	}
	fs.Heal()

	synctest.Test(t, func(t *testing.T) {
		release := fs.Stall(Sync, "journal")
		done := make(chan time.Time)
		start := time.Now()
		go func() {
			f.Sync()
			done <- time.Now()
		}()
		time.Sleep(5 * time.Second)
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("a stalled fsync returned")
		default:
		}
		release()
		if took := (<-done).Sub(start); took != 5*time.Second {
			t.Errorf("the fsync took %v, want the 5 s it was stalled", took)
		}
	})
}
