package dgt

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// sampleMessages holds one or more values of every message type, per mode.
func sampleMessages() map[Mode][]Message {
	var dump BoardDump
	for i := range dump.Fields {
		dump.Fields[i] = PieceCode(i % 16)
	}
	var dr [50]PieceCode
	for i := range dr {
		dr[i] = PieceCode(i % 13)
	}
	ee, _ := AppendEE(nil, []EEEvent{{Kind: EEPowerUp}, {Kind: EEPiece, Field: 12, Piece: BlackPawn, Fast: true},
		{Kind: EEClock, F: true, Hours: 1, Minutes: 59, Seconds: 7}, {Kind: EEEOF}})
	return map[Mode][]Message{
		SingleBoard: {
			dump,
			BoardDump{},
			FieldUpdate{Field: 36, Piece: WhitePawn},
			FieldUpdate{Field: 63, Piece: MagicBlackWin, Extra: 5},
			ClockTimes{Right: ClockSide{Hours: 1, Minutes: 30, Seconds: 5, TimePerMove: true}, Left: ClockSide{Minutes: 79, Seconds: 59, Flag: true, FinalFlag: true}, Status: 0x13},
			ClockTimes{},
			ClockTimes{Status: 0x20},
			ClockAck{Ack: [4]byte{0x10, 0x09, 0x20, 0x00}},
			ClockAck{Ack: [4]byte{0x90, 0x88, 0xB1, 0xFF}, Status: 0x7F},
			EEMoves{Data: string(ee)},
			EEMoves{},
			BusAddress{Address: 1025},
			BusAddress{Address: MaxBusAddress},
			SerialNumber{Serial: "01025"},
			SerialNumber{Serial: "12345 1.0\x00\x00\x00"},
			Trademark{Text: "Digital Game Technology\r\nCopyright (c) 2010 DGT\r\n"},
			Trademark{},
			Version{Major: 1, Minor: 2},
			DraughtsDump{White: true, Fields: dr},
			DraughtsDump{Fields: dr},
			BatteryStatus{Percent: 84, RunHours: NotAvailable, RunMinutes: NotAvailable, OnHours: 3, OnMinutes: 12, StandbyDays: 1, StandbyHours: 2, StandbyMinutes: 3, Flags: 2},
			BatteryStatus{Percent: 50, Len: 7},
			LongSerialNumber{Serial: "3000147740"},
		},
		Bus: {
			BusBoardDump{Address: 1025, Board: dump},
			BusClock{Address: 7, Clock: ClockTimes{Right: ClockSide{Minutes: 3, Seconds: 2}, Status: 0x09}},
			BusClock{Address: 7, Clock: ClockAck{Ack: [4]byte{0x10, 0x0A, 0, 0}}},
			BusUpdate{Address: 16383, Data: string(ee)},
			BusUpdate{Address: 1},
			BusFromStart{Address: 300, Data: string(ee)},
			BusPing{Address: 1025},
			BusStartGameWritten{Address: 2},
			BusVersion{Address: 9, Major: 1, Minor: 4},
			BusVersion{Address: 9, NoData: true},
			BusDraughtsDump{Address: 3, Fields: dr},
		},
	}
}

func TestMessageRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for mode, msgs := range sampleMessages() {
		for _, m := range msgs {
			name := mode.String() + "/" + typeName(m)
			seen[typeName(m)] = true
			t.Run(name, func(t *testing.T) {
				b, err := Encode(m)
				if err != nil {
					t.Fatal(err)
				}
				if MsgID(b[0]) != m.MsgID() {
					t.Fatalf("first byte 0x%02x, MsgID %v", b[0], m.MsgID())
				}
				if total := int(b[1])<<7 | int(b[2]); total != len(b) {
					t.Fatalf("length field %d, frame %d bytes", total, len(b))
				}
				got, n, err := ParseMessage(mode, b)
				if err != nil {
					t.Fatalf("% x: %v", b, err)
				}
				if n != len(b) || got != m {
					t.Fatalf("decoded %#v (%d bytes), want %#v (%d bytes)", got, n, m, len(b))
				}
				// The same through the streaming decoder, byte by byte.
				d := NewDecoder(mode)
				var out []Message
				for i := range b {
					d.Feed(b[i : i+1])
					if m, err := d.Next(); err == nil {
						out = append(out, m)
					} else if !errors.Is(err, ErrNeedMore) {
						t.Fatal(err)
					}
				}
				if len(out) != 1 || out[0] != m {
					t.Fatalf("streamed %v", out)
				}
			})
		}
	}
	if len(seen) != 20 {
		t.Errorf("%d message types covered, want 20", len(seen))
	}
}

func TestKnownMessageBytes(t *testing.T) {
	tests := []struct {
		name string
		mode Mode
		b    []byte
		want Message
	}{
		{"e2 empty (§2.7)", SingleBoard, []byte{0x8E, 0, 5, 0x34, 0}, FieldUpdate{Field: 52, Piece: Empty}},
		{"e4 white pawn (§2.7)", SingleBoard, []byte{0x8E, 0, 5, 0x24, 1}, FieldUpdate{Field: 36, Piece: WhitePawn}},
		{"S bit masked (§2.7)", SingleBoard, []byte{0x8E, 0, 5, 0x24, 0x41}, FieldUpdate{Field: 36, Piece: WhitePawn, Extra: 4}},
		{"clock stopped 3:02 (§2.12)", SingleBoard, []byte{0x8D, 0, 0x0A, 0x20, 3, 2, 0x20, 3, 2, 8},
			ClockTimes{Right: ClockSide{Minutes: 3, Seconds: 2, TimePerMove: true}, Left: ClockSide{Minutes: 3, Seconds: 2, TimePerMove: true}, Status: 8}},
		{"clock version ACK 2.0 (§3.2)", SingleBoard, []byte{0x8D, 0, 0x0A, 0x0A, 0x10, 0x09, 0x0A, 0x20, 0x00, 0}, ClockAck{Ack: [4]byte{0x10, 0x09, 0x20, 0}}},
		{"bus address of 01025 (§2.8)", SingleBoard, []byte{0x90, 0, 5, 8, 1}, BusAddress{Address: 1025}},
		{"version 1.02", SingleBoard, []byte{0x93, 0, 5, 1, 2}, Version{Major: 1, Minor: 2}},
		{"bus ping reply of 1025 (§4.4)", Bus, []byte{0x87, 0, 6, 8, 1, 0x16}, BusPing{Address: 1025}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n, err := ParseMessage(tt.mode, tt.b)
			if err != nil || n != len(tt.b) || got != tt.want {
				t.Fatalf("got %#v, %d, %v; want %#v", got, n, err, tt.want)
			}
			b, err := Encode(tt.want)
			if err != nil {
				t.Fatal(err)
			}
			if tt.name != "clock version ACK 2.0 (§3.2)" && !bytes.Equal(b, tt.b) {
				t.Fatalf("encoded % x, want % x", b, tt.b)
			}
		})
	}
}

func TestClockAckMeaning(t *testing.T) {
	v := ClockAck{Ack: [4]byte{0x10, 0x09, 0x20, 0}}
	if maj, min, ok := v.Version(); !ok || maj != 2 || min != 0 || !v.OK() || v.Spontaneous() {
		t.Errorf("version ack: %d.%d %v ok=%v spont=%v", maj, min, ok, v.OK(), v.Spontaneous())
	}
	if c, ok := v.Command(); !ok || c != ClockCmdVersion {
		t.Errorf("command %v %v", c, ok)
	}
	a := ClockAck{Ack: [4]byte{0x10, 0x0C, 0, 0}}
	if c, _ := a.Command(); c != ClockCmdASCII {
		t.Errorf("ascii ack command %v", c)
	}
	if _, _, ok := a.Version(); ok {
		t.Error("ascii ack reports a version")
	}
	e := ClockAck{Ack: [4]byte{0x40, 0x0A, 0, 0}}
	if e.OK() {
		t.Error("error ack is OK")
	}
	b := ClockAck{Ack: [4]byte{0x10, 0x88, 0, '3'}}
	if btn, ok := b.Button(); !ok || btn != '3' || !b.Spontaneous() {
		t.Errorf("button %q %v", btn, ok)
	}
	if _, ok := b.Command(); ok {
		t.Error("spontaneous ack has a command")
	}
}

func TestEncodeRejects(t *testing.T) {
	bad := []Message{
		FieldUpdate{Field: 64},
		FieldUpdate{Piece: 16},
		BoardDump{Fields: [64]PieceCode{3: 16}},
		ClockTimes{Right: ClockSide{Hours: 10}},
		ClockTimes{Left: ClockSide{Minutes: 80}},
		ClockTimes{Status: 0x80},
		ClockTimes{Right: ClockSide{Seconds: 1}, Status: 0x20},
		BusAddress{Address: MaxBusAddress + 1},
		SerialNumber{},
		SerialNumber{Serial: "é"},
		Trademark{Text: strings.Repeat("x", maxTrademarkLen+1)},
		Version{Major: 0x80},
		BatteryStatus{Len: 3},
		BatteryStatus{Len: 7, Flags: 1},
		BusClock{Address: 1},
		BusPing{Address: MaxBusAddress + 1},
		BusVersion{NoData: true, Major: 1},
		BusUpdate{Data: "\x80"},
	}
	for _, m := range bad {
		t.Run(typeName(m), func(t *testing.T) {
			b, err := Encode(m)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("encoded % x, err %v; want ErrInvalid", b, err)
			}
		})
	}
}
