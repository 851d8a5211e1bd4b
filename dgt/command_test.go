package dgt

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

func sampleCommands() []Command {
	cmds := []Command{
		SetLEDs{Pattern: 1, Start: 12, End: 28},
		ClearLEDs,
		ClockEnd, ClockButtonRequest, ClockVersionQuery,
		ClockDisplay{Chars: [6]byte{Segment('1'), Segment('2'), Segment('3'), Segment('4'), Segment('5'), Segment('6')}, Icons: IconLeftColon | IconRightColon, Beep: true},
		ClockDisplay{},
		ClockIcons{Left: 1, Right: 2, LeftPeriod: 0x21, RightPeriod: 3, Special: 0x40},
		SetNRun{Left: ClockSetting{Hours: 1, Minutes: 30, Seconds: 0}, Right: ClockSetting{Minutes: 59, Seconds: 59, CountUp: true}, Flags: RunLeft | ToggleOnLever},
		ClockBeep{Units: 4},
		ClockText{Text: "HELLO   ", Beep: 3},
		Rev2Text{Text: "picochess  "},
		BusCommand{Cmd: BusCmdPing},
		BusCommand{Cmd: BusCmdRandomizePing, Address: MaxBusAddress},
	}
	for c := range simpleNames {
		cmds = append(cmds, c)
	}
	for c := range busCmdNames {
		cmds = append(cmds, BusCommand{Cmd: c, Address: 1025})
	}
	return cmds
}

func TestCommandRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range sampleCommands() {
		seen[typeName(c)] = true
		t.Run(typeName(c), func(t *testing.T) {
			b, err := c.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			if b[0] != c.CmdByte() {
				t.Fatalf("first byte 0x%02x, CmdByte 0x%02x", b[0], c.CmdByte())
			}
			got, n, err := ParseCommand(b)
			if err != nil || n != len(b) || got != c {
				t.Fatalf("% x decoded to %#v, %d, %v; want %#v", b, got, n, err, c)
			}
			for i := 1; i < len(b); i++ {
				if _, _, err := ParseCommand(b[:i]); !errors.Is(err, ErrNeedMore) {
					t.Fatalf("prefix of %d bytes: %v, want ErrNeedMore", i, err)
				}
			}
		})
	}
	if len(seen) != 10 {
		t.Errorf("%d command types covered, want 10", len(seen))
	}
}

func TestKnownCommandBytes(t *testing.T) {
	tests := []struct {
		name string
		c    Command
		want []byte
	}{
		{"update nice", CmdSendUpdateNice, []byte{0x4B}},
		{"clock version (§1.4)", ClockVersionQuery, []byte{0x2B, 3, 3, 9, 0}},
		{"clock end (§3.3)", ClockEnd, []byte{0x2B, 3, 3, 3, 0}},
		{"clear LEDs (§2.10)", ClearLEDs, []byte{0x60, 4, 0, 0x40, 0x40, 0}},
		{"bus example (§4.3)", BusCommand{Cmd: BusCmdSendClock, Address: 0x10<<7 | 6}, []byte{0x81, 0x10, 0x06, 0x17}},
		{"beep", ClockBeep{Units: 2}, []byte{0x2B, 4, 3, 0x0B, 2, 0}},
		{"setnrun binary", SetNRun{Left: SettingOf(5*time.Minute + 3*time.Second), Right: SettingOf(90 * time.Minute), Flags: RunRight},
			[]byte{0x2B, 0x0A, 3, 0x0A, 0, 5, 3, 1, 30, 0, 2, 0}},
		{"ascii padded", ClockText{Text: "ab"}, []byte{0x2B, 0x0C, 3, 0x0C, 'a', 'b', ' ', ' ', ' ', ' ', ' ', ' ', 0, 0}},
		{"display order C B A F E D", ClockDisplay{Chars: [6]byte{1, 2, 3, 4, 5, 6}, Icons: 7}, []byte{0x2B, 0x0B, 3, 1, 3, 2, 1, 6, 5, 4, 7, 1, 0}},
		{"icons", ClockIcons{Left: 1, Right: 2, LeftPeriod: 3, RightPeriod: 4, Special: 5}, []byte{0x2B, 0x0B, 3, 2, 1, 2, 3, 4, 5, 0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.c.AppendBinary(nil)
			if err != nil || !bytes.Equal(b, tt.want) {
				t.Fatalf("got % x, %v; want % x", b, err, tt.want)
			}
		})
	}
}

func TestCommandEncodeRejects(t *testing.T) {
	for _, c := range []Command{
		SimpleCommand(0x48),
		ClockRequest{Cmd: ClockCmdBeep},
		SetNRun{Left: ClockSetting{Minutes: 60}},
		SetNRun{Right: ClockSetting{Hours: 10}},
		ClockText{Text: "123456789"},
		Rev2Text{Text: "123456789012"},
		BusCommand{Cmd: 0x90},
		BusCommand{Cmd: BusCmdPing, Address: MaxBusAddress + 1},
	} {
		t.Run(typeName(c), func(t *testing.T) {
			if b, err := c.AppendBinary(nil); !errors.Is(err, ErrInvalid) {
				t.Fatalf("encoded % x, %v; want ErrInvalid", b, err)
			}
		})
	}
}

func TestParseCommandErrors(t *testing.T) {
	tests := []struct {
		name   string
		b      []byte
		reason error
		skip   int
	}{
		{"unknown single byte", []byte{0x48, 0x42}, ErrUnknownCommand, 1},
		{"unknown high byte", []byte{0x90, 0x42}, ErrUnknownCommand, 1},
		{"bus checksum", []byte{0x81, 0x10, 0x06, 0x18}, ErrChecksum, 4},
		{"bus cut short", []byte{0x81, 0x10, 0x87, 0, 0}, ErrTruncated, 2},
		{"LED frame", []byte{0x60, 5, 0, 0, 0, 0}, ErrInvalid, 1},
		{"clock size", []byte{0x2B, 0x20}, ErrInvalid, 1},
		{"clock unknown, envelope intact", []byte{0x2B, 3, 3, 0x07, 0}, ErrUnknownCommand, 5},
		{"clock size mismatch", []byte{0x2B, 4, 3, 0x03, 0, 0}, ErrInvalid, 6},
		{"clock envelope broken", []byte{0x2B, 3, 4, 0x03, 0}, ErrInvalid, 1},
		{"setnrun minutes", []byte{0x2B, 0x0A, 3, 0x0A, 0, 60, 0, 0, 0, 0, 1, 0}, ErrInvalid, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, n, err := ParseCommand(tt.b)
			var ce *CommandError
			if !errors.Is(err, tt.reason) || !errors.As(err, &ce) || n != tt.skip || ce.Skipped != n {
				t.Fatalf("got %v, %d, %v; want %v skipping %d", c, n, err, tt.reason, tt.skip)
			}
		})
	}
}

func TestCommandDecoderResync(t *testing.T) {
	d := NewCommandDecoder()
	stream := []byte{0x48, 0x4B, 0x2B, 3, 3, 9, 0, 0x81, 0x10, 0x06, 0x18, 0x87, 0, 1, 0x08, 0x42}
	var got []Command
	var errs []*CommandError
	for _, c := range stream {
		d.Feed([]byte{c})
		for {
			cmd, err := d.Next()
			if errors.Is(err, ErrNeedMore) {
				break
			}
			var ce *CommandError
			if errors.As(err, &ce) {
				errs = append(errs, ce)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, cmd)
		}
	}
	want := []Command{CmdSendUpdateNice, ClockVersionQuery, BusCommand{Cmd: BusCmdPing, Address: 1}, CmdSendBoard}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("command %d: %#v, want %#v", i, got[i], want[i])
		}
	}
	if len(errs) != 2 || errs[0].Offset != 0 || errs[1].Offset != 7 || !errors.Is(errs[1], ErrChecksum) {
		t.Fatalf("errors %v", errs)
	}
	if d.Buffered() != 0 || d.Offset() != int64(len(stream)) {
		t.Fatalf("buffered %d, offset %d", d.Buffered(), d.Offset())
	}
}
