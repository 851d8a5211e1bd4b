package emu_test

import (
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
)

func TestIdentification(t *testing.T) {
	e := emu.New(emu.Setup{Serial: "04711", Version: [2]byte{3, 10}}, t0)
	for _, tc := range []struct {
		name string
		cmd  byte
		want dgt.Message
	}{
		{"version", 0x4D, dgt.Version{Major: 3, Minor: 10}},
		{"serial", 0x45, dgt.SerialNumber{Serial: "04711"}},
		{"long serial", 0x55, dgt.LongSerialNumber{Serial: "0000004711"}},
		{"bus address", 0x46, dgt.BusAddress{Address: 4711}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.Input(t0, []byte{tc.cmd})
			msgs := decode(t, dgt.SingleBoard, e.Output())
			if len(msgs) != 1 || msgs[0] != tc.want {
				t.Fatalf("got %v, want %v", msgs, tc.want)
			}
		})
	}
	t.Run("board dump", func(t *testing.T) {
		e.Input(t0, []byte{0x42})
		msgs := decode(t, dgt.SingleBoard, e.Output())
		if len(msgs) != 1 {
			t.Fatalf("got %v", msgs)
		}
		d := msgs[0].(dgt.BoardDump)
		want := emu.StartPlacement()
		if got := d.Placement(dgt.Normal); got != want {
			t.Fatalf("dump %v, want %v", got.String(), want.String())
		}
	})
}

func TestRotatedBoardReportsWhiteAtFieldsZeroToFifteen(t *testing.T) {
	e := emu.New(emu.Setup{Orientation: dgt.Rotated}, t0)
	e.Input(t0, []byte{0x42})
	d := decode(t, dgt.SingleBoard, e.Output())[0].(dgt.BoardDump)
	if got, want := d.String()[:8], "RNBKQBNR"; got != want {
		t.Fatalf("rank at fields 0-7 = %s, want %s (§2.5, capture 2)", got, want)
	}
}

func TestUpdateModes(t *testing.T) {
	move := emu.Script{
		{At: 0, Kind: emu.Lift, Square: sqName("e2")},
		{At: time.Second, Kind: emu.Place, Square: sqName("e4"), Piece: rules.Piece{Color: rules.White, Kind: rules.Pawn}},
		{At: 2 * time.Second, Kind: emu.Press, Side: emu.Left},
	}
	for _, tc := range []struct {
		name          string
		mode          byte
		fields, clock bool
	}{
		{"idle", 0x40, false, false},
		{"update board", 0x44, true, false},
		{"update", 0x43, true, true},
		{"update nice", 0x4B, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := emu.New(emu.Setup{}, t0)
			now := t0
			e.Input(now, []byte{tc.mode})
			e.Schedule(now, move)
			msgs := decode(t, dgt.SingleBoard, step(e, &now, 4*time.Second))
			fu := fieldUpdates(msgs)
			if tc.fields != (len(fu) > 0) {
				t.Errorf("field updates %v, want some: %v", fu, tc.fields)
			}
			if tc.fields && !slices.Equal(fu, []string{"e2 .", "e4 P"}) {
				t.Errorf("field updates %v, want [e2 . e4 P]", fu)
			}
			clocks := 0
			for _, m := range msgs {
				if _, ok := m.(dgt.ClockTimes); ok {
					clocks++
				}
			}
			if tc.clock != (clocks > 0) {
				t.Errorf("%d clock messages, want some: %v", clocks, tc.clock)
			}
		})
	}
}

func sqName(n string) rules.Square {
	s, err := rules.Chess8x8.ParseSquare(n)
	if err != nil {
		panic(err)
	}
	return s
}

// TestScanOrder shows the scan dynamics of a real board: a fast move is reported
// in field order (destination e4 = field 36 before origin e2 = field 52),
// a slow one in the order the hand made it.
func TestScanOrder(t *testing.T) {
	wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
	for _, tc := range []struct {
		name string
		gap  time.Duration
		want []string
	}{
		{"fast: destination first", 20 * time.Millisecond, []string{"e4 P", "e2 ."}},
		{"slow: origin first", 600 * time.Millisecond, []string{"e2 .", "e4 P"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := emu.New(emu.Setup{}, t0)
			now := t0
			e.Input(now, []byte{0x44})
			// lift just after the scanner passed e2 (field 52): the next
			// scan meets e4 (field 36) before e2.
			start := 53 * emu.DefaultScanPeriod / 64
			e.Schedule(t0, emu.Script{
				{At: start, Kind: emu.Lift, Square: sqName("e2")},
				{At: start + tc.gap, Kind: emu.Place, Square: sqName("e4"), Piece: wp},
			})
			got := fieldUpdates(decode(t, dgt.SingleBoard, step(e, &now, 2*time.Second)))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("updates %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFlickerIsReportedAndRestored(t *testing.T) {
	e := emu.New(emu.Setup{Flicker: 1, Seed: 7}, t0)
	now := t0
	e.Input(now, []byte{0x44})
	got := fieldUpdates(decode(t, dgt.SingleBoard, step(e, &now, 3*time.Second)))
	if len(got) < 2 {
		t.Fatalf("flicker rate 1 gave updates %v", got)
	}
	// Nothing moves: every misread square is reported empty, then back.
	last := map[string]string{}
	for _, u := range got {
		f, pc := u[:2], u[3:]
		if prev, seen := last[f]; seen && (prev == ".") == (pc == ".") {
			t.Fatalf("updates %v: %s not alternating empty/restored", got, f)
		}
		if _, seen := last[f]; !seen && pc != "." {
			t.Fatalf("updates %v: first report of %s is not a misread", got, f)
		}
		last[f] = pc
	}
	if p := e.Placement(); p != emu.StartPlacement() {
		t.Fatalf("physical board changed by flicker: %s", p.String())
	}
}
