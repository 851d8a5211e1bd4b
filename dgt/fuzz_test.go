package dgt

import (
	"errors"
	"os"
	"testing"
)

// addSeeds adds encodings of every sample message and command, and the
// captures' first messages when present.
func addSeeds(f *testing.F, withCommands bool) {
	for mode, msgs := range sampleMessages() {
		for _, m := range msgs {
			b, err := Encode(m)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b, uint8(3), mode == Bus)
			f.Add(append([]byte{0x13, 0x8E, 0}, b...), uint8(1), mode == Bus)
		}
	}
	if withCommands {
		for _, c := range sampleCommands() {
			b, _ := c.AppendBinary(nil)
			f.Add(b, uint8(2), false)
		}
	}
	f.Add([]byte{}, uint8(0), false)
	f.Add([]byte{0x8F, 0x3E, 0x03, 0x6B}, uint8(9), false)
	if _, err := os.Stat(captureDir); err != nil {
		return // no captures: the samples above still seed the fuzzer
	}
	for _, name := range captureNames {
		raw, _ := loadCapture(f, name)
		var stream []byte
		for _, r := range raw[:min(len(raw), 40)] {
			stream = append(stream, r...)
		}
		f.Add(stream, uint8(5), false)
	}
}

// FuzzDecoder: the decoder never panics, never stalls, consumes every
// byte, yields messages that re-encode to themselves, and always
// resynchronises: a valid message after arbitrary bytes is decoded.
func FuzzDecoder(f *testing.F) {
	addSeeds(f, false)
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8, bus bool) {
		mode := SingleBoard
		tail, want := e4, Message(e4Msg)
		if bus {
			mode, tail, want = Bus, pingBus, BusPing{Address: 1025}
		}
		in := append(append([]byte(nil), data...), tail...)
		d := NewDecoder(mode)
		step := int(chunk)%16 + 1
		var last Message
		errsAfter := 0
		for pos := 0; pos < len(in); {
			n := min(step, len(in)-pos)
			d.Feed(in[pos : pos+n])
			pos += n
			for calls := 0; ; calls++ {
				if calls > len(in)+1 {
					t.Fatal("decoder stalls")
				}
				before := d.Offset()
				m, err := d.Next()
				if errors.Is(err, ErrNeedMore) {
					if d.Offset() < before {
						t.Fatal("offset went back")
					}
					break
				}
				if d.Offset() <= before {
					t.Fatalf("no progress at offset %d (%v)", before, err)
				}
				if err != nil {
					var fe *FrameError
					if !errors.As(err, &fe) || fe.Offset < before || fe.Skipped < 1 {
						t.Fatalf("bad error %v", err)
					}
					errsAfter++
					continue
				}
				b, err := Encode(m)
				if err != nil {
					t.Fatalf("decoded %#v does not encode: %v", m, err)
				}
				again, k, err := ParseMessage(mode, b)
				if err != nil || k != len(b) || again != m {
					t.Fatalf("round trip of %#v: %#v, %v", m, again, err)
				}
				last, errsAfter = m, 0
			}
		}
		if last != want || errsAfter != 0 {
			t.Fatalf("last message %#v (then %d errors), want %#v", last, errsAfter, want)
		}
		if d.Buffered() != 0 || d.Offset() != int64(len(in)) {
			t.Fatalf("buffered %d, offset %d of %d", d.Buffered(), d.Offset(), len(in))
		}
	})
}

// FuzzCommandDecoder: the command decoder never panics or stalls, and
// every decoded command re-encodes to itself.
func FuzzCommandDecoder(f *testing.F) {
	addSeeds(f, true)
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8, _ bool) {
		d := NewCommandDecoder()
		step := int(chunk)%16 + 1
		for pos := 0; pos < len(data); {
			n := min(step, len(data)-pos)
			d.Feed(data[pos : pos+n])
			pos += n
			for calls := 0; ; calls++ {
				if calls > len(data)+1 {
					t.Fatal("decoder stalls")
				}
				before := d.Offset()
				c, err := d.Next()
				if errors.Is(err, ErrNeedMore) {
					break
				}
				if d.Offset() <= before {
					t.Fatalf("no progress at offset %d", before)
				}
				if err != nil {
					var ce *CommandError
					if !errors.As(err, &ce) || ce.Skipped < 1 {
						t.Fatalf("bad error %v", err)
					}
					continue
				}
				b, err := c.AppendBinary(nil)
				if err != nil {
					t.Fatalf("decoded %#v does not encode: %v", c, err)
				}
				again, k, err := ParseCommand(b)
				if err != nil || k != len(b) || again != c {
					t.Fatalf("round trip of %#v: %#v, %v", c, again, err)
				}
			}
		}
		if d.Buffered() > 17 {
			t.Fatalf("%d bytes buffered: more than the longest command", d.Buffered())
		}
	})
}

// FuzzEELog: parsing an EEPROM dump or bus payload never panics; every
// entry is a real record (no NOP or EOF), re-encodes to bytes that parse
// back to the same entries, and entries plus bad records account for the
// input; a dump that starts with EE_NOP is never called wrapped.
func FuzzEELog(f *testing.F) {
	f.Add([]byte{0x7F, 0x7F, 0x7F, 0x6A, 0x48, 0, 0x51, 0x34, 0x71, 0x25, 0x09, 0x6F, 0x6B}, false, false)
	f.Add([]byte{0x45, 0x09, 0x34, 0x6A, 0x40, 0x34, 0x6B}, true, true)
	f.Add([]byte{0x23, 0x45, 0x61, 0x23, 0x45, 0x6B, 0x7F}, false, true)
	f.Fuzz(func(t *testing.T, data []byte, right, dump bool) {
		fb := FLeft
		if right {
			fb = FRight
		}
		var l EELog
		if dump {
			l = EEMoves{Data: string(data)}.Log(fb)
			if len(data) > 0 && data[0] == 0x7F && l.Wrapped {
				t.Fatal("a dump starting with EE_NOP called wrapped")
			}
		} else {
			l = ParseEELog(data, fb)
		}
		if (l.Bad == 0) != (l.Err == nil) {
			t.Fatalf("%d bad records, error %v", l.Bad, l.Err)
		}
		size := 0
		for _, e := range l.Entries {
			switch e.Kind {
			case EENop, EENop2, EEEOF:
				t.Fatalf("filler %v in the log", e)
			case EEClock:
				if e.Display != fb.Display(e.F) {
					t.Fatalf("clock record %v with display %v under %v", e, e.Display, fb)
				}
			}
			size += e.Len()
		}
		if size+l.Bad > len(data) {
			t.Fatalf("%d bytes of entries and %d bad records from %d bytes", size, l.Bad, len(data))
		}
		b, err := AppendEE(nil, l.Entries)
		if err != nil {
			t.Fatalf("entries do not re-encode: %v", err)
		}
		again := ParseEELog(b, fb)
		if again.Bad != 0 || len(again.Entries) != len(l.Entries) {
			t.Fatalf("re-encoded log parses to %v, want %v", again.Entries, l.Entries)
		}
		for i := range again.Entries {
			if again.Entries[i] != l.Entries[i] {
				t.Fatalf("entry %d: %v, then %v", i, l.Entries[i], again.Entries[i])
			}
		}
	})
}
