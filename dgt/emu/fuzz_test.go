package emu_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
)

// FuzzInput: whatever a host sends (cut anywhere, with time passing), an
// emulated board and a bus line do not panic, and everything they answer
// decodes as DGT messages. A board answers in the mode the host last put
// it in, so a single board's replies are checked until a bus command
// switches it to bus mode, and a bus line is only checked not to panic.
func FuzzInput(f *testing.F) {
	f.Add([]byte{0x40, 0x4D, 0x45, 0x55, 0x42, 0x4B}, uint8(3))
	f.Add([]byte{0x2B, 0x0A, 0x03, 0x0A, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x00}, uint8(1))
	f.Add([]byte{0x2B, 0x04, 0x03, 0x0B, 0x00}, uint8(2))
	f.Add([]byte{0x81, 0x08, 0x01, 0x0A}, uint8(4))
	f.Fuzz(func(t *testing.T, host []byte, chunk uint8) {
		at := t0
		one := emu.New(emu.Setup{Serial: "01025"}, at)
		line := emu.NewLine(at, emu.New(emu.Setup{Serial: "01025"}, at), emu.New(emu.Setup{Serial: "02050"}, at))
		for _, dev := range []struct {
			d    emu.Device
			mode dgt.Mode
		}{{one, dgt.SingleBoard}, {line, dgt.Bus}} {
			dec := dgt.NewDecoder(dev.mode)
			step := int(chunk)%8 + 1
			check := func() {
				out := dev.d.Output()
				if dev.mode == dgt.SingleBoard && !one.BusMode() {
					dec.Feed(out)
				}
			}
			for pos := 0; pos < len(host); pos += step {
				at = at.Add(100 * time.Millisecond)
				dev.d.Input(at, host[pos:min(pos+step, len(host))])
				dev.d.Advance(at)
				check()
			}
			at = at.Add(5 * time.Second)
			dev.d.Advance(at)
			check()
			for {
				_, err := dec.Next()
				if errors.Is(err, dgt.ErrNeedMore) {
					break
				}
				if err != nil {
					t.Fatalf("%v mode: the emulator sent bytes that do not decode: %v", dev.mode, err)
				}
			}
		}
	})
}
