package emu_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
)

func busCmd(op byte, addr uint16) []byte {
	b := []byte{op, byte(addr>>7) & 0x7F, byte(addr) & 0x7F}
	return append(b, (b[0]+b[1]+b[2])&0x7F)
}

func newLine(n int) *emu.Line {
	var boards []*emu.Emulator
	for i := 1; i <= n; i++ {
		boards = append(boards, emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", 1000+i), Seed: uint64(i)}, t0))
	}
	return emu.NewLine(t0, boards...)
}

func TestLineDirectedCommands(t *testing.T) {
	l := newLine(32)
	now := t0
	for _, tc := range []struct {
		name string
		cmd  []byte
		want dgt.Message
	}{
		{"ping", busCmd(0x87, 1017), dgt.BusPing{Address: 1017}},
		{"version", busCmd(0x8B, 1032), dgt.BusVersion{Address: 1032, Major: 1, Minor: 7}},
		{"start game", busCmd(0x85, 1001), dgt.BusStartGameWritten{Address: 1001}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l.Input(now, tc.cmd)
			msgs := decode(t, dgt.Bus, step(l, &now, 200*time.Millisecond))
			if len(msgs) != 1 || msgs[0] != tc.want {
				t.Fatalf("got %v, want %v", msgs, tc.want)
			}
		})
	}
	t.Run("bad checksum ignored", func(t *testing.T) {
		c := busCmd(0x87, 1017)
		c[3] ^= 1
		l.Input(now, c)
		if out := step(l, &now, 200*time.Millisecond); len(out) != 0 {
			t.Fatalf("reply % x to a command with a bad checksum", out)
		}
	})
	t.Run("unknown address ignored", func(t *testing.T) {
		l.Input(now, busCmd(0x87, 999))
		if out := step(l, &now, 200*time.Millisecond); len(out) != 0 {
			t.Fatalf("reply % x to an absent address", out)
		}
	})
}

func TestLineChangesAndRepeat(t *testing.T) {
	l := newLine(16)
	b := l.Boards()[4] // address 1005
	now := t0
	l.Input(now, busCmd(0x83, 1005)) // drain the power-up records
	step(l, &now, 100*time.Millisecond)
	b.Schedule(now, emu.Script{
		{At: 0, Kind: emu.Lift, Square: sqName("g1")},
		{At: 500 * time.Millisecond, Kind: emu.Place, Square: sqName("f3"), Piece: rules.Piece{Color: rules.White, Kind: rules.Knight}},
		{At: time.Second, Kind: emu.Press, Side: emu.Right},
		{At: 2 * time.Second, Kind: emu.Press, Side: emu.Left},
	})
	step(l, &now, 3*time.Second)
	l.Input(now, busCmd(0x83, 1005))
	msgs := decode(t, dgt.Bus, step(l, &now, 100*time.Millisecond))
	if len(msgs) != 1 {
		t.Fatalf("got %v", msgs)
	}
	up := msgs[0].(dgt.BusUpdate)
	evs, err := dgt.ParseEE([]byte(up.Data))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		switch ev.Kind {
		case dgt.EEPiece:
			got = append(got, fmt.Sprintf("%s %s", ev.Field, ev.Piece))
		case dgt.EEClock:
			got = append(got, "clock")
		}
	}
	want := fmt.Sprint([]string{"g1 .", "f3 N", "clock"})
	if fmt.Sprint(got) != want {
		t.Fatalf("changes %v, want %v (the first press only starts the clock; the second halts one)", got, want)
	}
	l.Input(now, busCmd(0x84, 1005))
	again := decode(t, dgt.Bus, step(l, &now, 100*time.Millisecond))
	if len(again) != 1 || again[0] != msgs[0] {
		t.Fatalf("REPEAT_CHANGES gave %v, want %v", again, msgs[0])
	}
	l.Input(now, busCmd(0x83, 1005))
	if empty := decode(t, dgt.Bus, step(l, &now, 100*time.Millisecond)); len(empty) != 1 || empty[0].(dgt.BusUpdate).Data != "" {
		t.Fatalf("second SEND_CHANGES gave %v, want an empty update", empty)
	}
}

// TestBroadcastPingCollides shows why discovery must repeat: 32
// boards answer a broadcast ping at random moments within 1.1 s, and some
// answers overlap on the wired-OR line.
func TestBroadcastPingCollides(t *testing.T) {
	l := newLine(32)
	now := t0
	l.Input(now, busCmd(0x87, 0))
	msgs, errs := decodeLoose(dgt.Bus, step(l, &now, 1200*time.Millisecond))
	seen := map[uint16]bool{}
	for _, m := range msgs {
		p, ok := m.(dgt.BusPing)
		if !ok || p.Address < 1001 || p.Address > 1032 || seen[p.Address] {
			t.Fatalf("unexpected message %v", m)
		}
		seen[p.Address] = true
	}
	if len(seen) == 0 {
		t.Fatal("no ping answer got through")
	}
	if len(seen) < 32 && len(errs) == 0 {
		t.Fatalf("%d answers and no frame error: a lost answer must show as a collision", len(seen))
	}
	var fe *dgt.FrameError
	for _, err := range errs {
		if !errors.As(err, &fe) {
			t.Fatalf("error %v is no FrameError", err)
		}
	}
	t.Logf("%d of 32 answers intact, %d frame errors", len(seen), len(errs))

	// Boards told to ignore the next broadcast stay silent.
	for a := uint16(1001); a <= 1032; a++ {
		l.Input(now, busCmd(0x8A, a))
	}
	step(l, &now, 500*time.Millisecond)
	l.Input(now, busCmd(0x87, 0))
	if out := step(l, &now, 1200*time.Millisecond); len(out) != 0 {
		t.Fatalf("boards answered a broadcast they were told to ignore: % x", out)
	}
}

func TestSingleBoardCommandSwitchesMode(t *testing.T) {
	e := emu.New(emu.Setup{}, t0)
	if !e.BusMode() {
		t.Fatal("power-up is not bus mode (§1.4)")
	}
	e.Input(t0, []byte{0x4D})
	if e.BusMode() || len(e.Output()) == 0 {
		t.Fatal("a single-board command did not switch to single-board mode and answer")
	}
	e.Input(t0, busCmd(0x87, e.Address()))
	if !e.BusMode() || len(e.Output()) != 0 {
		t.Fatal("the bus command that switched to bus mode was executed (§4.2)")
	}
	e.Input(t0, busCmd(0x87, e.Address()))
	if msgs := decode(t, dgt.Bus, e.Output()); len(msgs) != 1 {
		t.Fatalf("ping in bus mode: %v", msgs)
	}
}
