package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stopsWithin runs args in-process, cancels the context after a while
// (the signal), and returns how long the command took to return after
// it and its error.
func stopsWithin(t *testing.T, args ...string) (time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, io.Discard, io.Discard) }()
	time.Sleep(300 * time.Millisecond) // let it get going: what is measured is the stop
	cancel()
	at := time.Now()
	select {
	case err := <-done:
		return time.Since(at), err
	case <-time.After(20 * time.Second):
		t.Fatalf("%v did not stop within 20 s of the interrupt", args)
		return 0, nil
	}
}

// TestPerftStopsQuickly: a deep xiangqi count (each root move's subtree
// takes the engine about 15 s) stops within a second of the interrupt.
// Before, the interrupt was seen only between root moves.
func TestPerftStopsQuickly(t *testing.T) {
	d, err := stopsWithin(t, "perft", "--variant", "xiangqi", "--depth", "6")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if d > time.Second {
		t.Errorf("stopped %v after the interrupt, want within a second", d)
	}
}

// growingRecording makes a FIFO with a few hexlog lines in it, held open
// by a writer that never closes it (a recording still being written), and
// returns its path.
func growingRecording(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "board.hexlog")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(p, os.O_RDWR, 0) // never blocks, keeps the FIFO open
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	fmt.Fprintf(w, "2026-02-08T08:00:00.000Z > 45\n2026-02-08T08:00:00.050Z < 93 00 06 01 00\n")
	return p
}

// TestReplayStopsOnGrowingRecording: replay reading a recording that is
// still being written (it waits for more) stops within a second of the
// interrupt. Before, it waited for ever.
func TestReplayStopsOnGrowingRecording(t *testing.T) {
	d, err := stopsWithin(t, "replay", growingRecording(t))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	if d > time.Second {
		t.Errorf("stopped %v after the interrupt, want within a second", d)
	}
}

// TestReplayAlertsNeverOverwrite: --alerts refuses a file that is one of
// the recordings (what "replay --alerts *.hexlog" gives) or an existing
// file that is not an alerts file, and leaves both untouched; an earlier
// alerts file is replaced.
func TestReplayAlertsNeverOverwrite(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.hexlog")
	b := filepath.Join(dir, "b.hexlog")
	rec := "2026-02-08T08:00:00.000Z > 45\n"
	for _, p := range []string{a, b} {
		os.WriteFile(p, []byte(rec), 0o644)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--alerts", a, b, a}, "is also one of the recordings"},
		{[]string{"replay", "--alerts", a, b}, "exists and is not an alerts file"},
	} {
		code, _, errOut := runMain(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, errOut)
		}
		for _, p := range []string{a, b} {
			if got, _ := os.ReadFile(p); string(got) != rec {
				t.Fatalf("%s was changed: %q", p, got)
			}
		}
	}
	old := filepath.Join(dir, "alerts.jsonl")
	os.WriteFile(old, []byte(`{"id":"old"}`+"\n"), 0o644)
	if code, _, errOut := runMain(t, "replay", "--alerts", old, b); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got, _ := os.ReadFile(old); strings.Contains(string(got), "old") {
		t.Errorf("the earlier alerts file was not replaced: %q", got)
	}
}

// TestSignalsExitCodes builds the binary and sends real signals, once
// the command is at work (perft computing, a replay waiting on a growing
// recording it has opened): each exits with 143 (SIGTERM) or 130
// (SIGINT). A command still running 20 s after the signal is a hang.
func TestSignalsExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: builds the binary")
	}
	bin := buildBinary(t, t.TempDir())
	computing := func(pid int) bool { return cpuTicks(pid) >= 20 } // 0.2 s of CPU: past start-up, in perft
	opened := func(path string) func(int) bool {
		return func(pid int) bool {
			fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
			for _, fd := range fds {
				if l, err := os.Readlink(fd); err == nil && l == path {
					return true
				}
			}
			return false
		}
	}
	rec1, rec2 := growingRecording(t), growingRecording(t)
	for _, c := range []struct {
		args  []string
		ready func(pid int) bool
		sig   syscall.Signal
		code  int
	}{
		{[]string{"perft", "--variant", "xiangqi", "--depth", "7"}, computing, syscall.SIGTERM, 143},
		{[]string{"replay", rec1}, opened(rec1), syscall.SIGINT, 130},
		{[]string{"replay", rec2}, opened(rec2), syscall.SIGTERM, 143},
	} {
		cmd := exec.Command(bin, c.args...)
		dieWithTest(cmd)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(20 * time.Second); !c.ready(cmd.Process.Pid); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("%v: not at work after 20 s", c.args)
			}
		}
		cmd.Process.Signal(c.sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: still running 20 s after %v", c.args, c.sig)
		}
		if got := cmd.ProcessState.ExitCode(); got != c.code {
			t.Errorf("%v after %v: exit %d, want %d", c.args, c.sig, got, c.code)
		}
	}
}

// cpuTicks is a process's user and system CPU time in clock ticks
// (/proc/<pid>/stat; 0 when it cannot be read).
func cpuTicks(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return ut + st
}
