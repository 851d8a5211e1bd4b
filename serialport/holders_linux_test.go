//go:build linux

package serialport

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// TestHoldersNamesTheProgram: a port another process has open is reported
// with that process's id and name, also under a symlink's name; a port
// only this process has open, a path that is no device, and /dev/null
// (a device every process has open, but no serial line), are not.
func TestHoldersNamesTheProgram(t *testing.T) {
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	free, freePath, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer free.Close()
	mine, err := os.OpenFile(freePath, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer mine.Close()
	slave, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "30")
	cmd.ExtraFiles = []*os.File{slave}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	link := t.TempDir() + "/by-path-name"
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	var got map[string][]Holder
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got = Holders([]string{path, link, freePath, os.TempDir(), os.DevNull}); len(got[path]) > 0 {
			break // the child has started
		}
	}
	want := Holder{PID: cmd.Process.Pid, Command: "sleep"}
	for _, p := range []string{path, link} {
		if len(got[p]) != 1 || got[p][0] != want {
			t.Errorf("holders of %s: %+v, want %+v", p, got[p], want)
		}
	}
	if len(got) != 2 {
		t.Errorf("holders %+v: only %s (and its link) is held by another process", got, path)
	}
}
