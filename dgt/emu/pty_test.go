package emu_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"golang.org/x/sys/unix"
)

// TestGameInRealTimeOnAPTY: a game planned with Game.Plan and served in
// real time on a pseudo-terminal reaches a host that opens the slave like
// a serial port, and the host hears exactly the field updates, in the same
// order, that Play computes in simulated time: the emulator's model time
// does not depend on how late the serving goroutine wakes up.
func TestGameInRealTimeOnAPTY(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: a game in real time on a pseudo-terminal")
	}
	start := chess.StartPosition(chess.Standard)
	moves, final := randomGame(t, start, 7, 12)
	h := emu.DefaultHands()
	h.Think = emu.Span{Min: 150 * time.Millisecond, Max: 400 * time.Millisecond}
	h.PromoFetch = emu.Span{Min: 300 * time.Millisecond, Max: 500 * time.Millisecond}
	g := emu.Game{Start: start, Moves: moves, Seed: 7, Hands: h}

	master, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	powerUp := time.Now()
	e := emu.New(g.BoardSetup(), powerUp)
	script, _, err := g.Plan(powerUp, powerUp)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.ServePTY(ctx, master, e) })
	defer func() { cancel(); wg.Wait() }()
	port, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	if _, err := port.Write([]byte{byte(dgt.CmdSendUpdateNice), byte(dgt.CmdSendBoard)}); err != nil {
		t.Fatal(err)
	}
	// The host's command must reach the board before the first move.
	deadline := time.Now().Add(30 * time.Second)
	for cmds, _ := e.Received(); len(cmds) < 2; cmds, _ = e.Received() {
		if time.Now().After(deadline) {
			t.Fatal("the board never received the host's commands")
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.Schedule(powerUp, script)

	dec := dgt.NewDecoder(dgt.SingleBoard)
	var d dgt.BoardDump
	var heard []dgt.FieldUpdate
	buf := make([]byte, 512)
	want := final.Placement()
	for d.Placement(dgt.Normal) != want || len(heard) == 0 {
		if err := port.SetReadDeadline(deadline.Add(time.Minute)); err != nil && !errors.Is(err, os.ErrNoDeadline) {
			t.Fatal(err)
		}
		n, err := port.Read(buf)
		if err != nil {
			t.Fatalf("read after %d updates: %v", len(heard), err)
		}
		dec.Feed(buf[:n])
		for {
			m, err := dec.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			switch m := m.(type) {
			case dgt.BoardDump:
				d = m
			case dgt.FieldUpdate:
				d.Fields[m.Field] = m.Piece
				heard = append(heard, m)
			}
		}
		if time.Now().After(deadline.Add(time.Minute)) {
			t.Fatalf("final position not reached; board heard %s", d.String())
		}
	}
	p, err := emu.Play(g)
	if err != nil {
		t.Fatal(err)
	}
	var sim []dgt.FieldUpdate
	for _, h := range p.Heard {
		if u, ok := h.Msg.(dgt.FieldUpdate); ok {
			sim = append(sim, u)
		}
	}
	if !slices.Equal(heard, sim) {
		t.Fatalf("real time heard %d updates, simulated %d:\n%v\n%v", len(heard), len(sim), heard, sim)
	}
}
