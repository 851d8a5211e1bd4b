package obp

import (
	"errors"
	"reflect"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// FuzzDecoder: no input panics the decoder, whatever the read sizes; any
// junk followed by a line end never costs the good lines after it; and
// every message decoded re-encodes to a line that decodes to the same
// message.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte("L h2 @81234*1F"), uint8(3), true)
	f.Add([]byte("\x00\xff\r\r*"), uint8(1), false)
	f.Add([]byte(sealed("B rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR")), uint8(17), true)
	f.Add([]byte(sealed("C none")+"\n"+sealed("E 1 x")), uint8(5), false)
	f.Add(make([]byte, 400), uint8(200), true)
	goodXQ := []string{sealed("L h2 @1"), sealed("P e2 C @2"), sealed("C 899000 900000 2 @3"), sealed("B 9/9/9/9/9/9/9/9/9/4K4")}
	goodChess := []string{sealed("L e2 @1"), sealed("P e4 P @2"), sealed("C none"), sealed("B 4k3/8/8/8/8/8/8/4K3 @4")}
	f.Fuzz(func(t *testing.T, junk []byte, step uint8, xq bool) {
		g, good := rules.Chess8x8, goodChess
		if xq {
			g, good = rules.Xiangqi9x10, goodXQ
		}
		stream := append(append([]byte(nil), junk...), '\n')
		for _, l := range good {
			stream = append(stream, l...)
			stream = append(stream, '\n')
		}
		d := NewDecoder(g)
		n := int(step)%64 + 1
		var msgs []Message
		for i := 0; i < len(stream); i += n {
			d.Feed(stream[i:min(i+n, len(stream))])
			for {
				m, err := d.Next()
				if errors.Is(err, ErrNeedMore) {
					break
				}
				if err != nil {
					var le *LineError
					if !errors.As(err, &le) {
						t.Fatalf("error %v is no *LineError", err)
					}
					continue
				}
				msgs = append(msgs, m)
				again, err := Parse(m.AppendLine(nil, g)[:len(m.AppendLine(nil, g))-1], g)
				if err != nil || !reflect.DeepEqual(again, m) {
					t.Fatalf("%#v re-encodes to %q → %#v, %v", m, m.AppendLine(nil, g), again, err)
				}
			}
		}
		want := len(good)
		if len(msgs) < want {
			t.Fatalf("only %d messages after the junk, want the %d good lines", len(msgs), want)
		}
		for i, m := range msgs[len(msgs)-want:] {
			if got := string(m.AppendLine(nil, g)); got != good[i]+"\n" {
				t.Fatalf("good line %d decoded as %q, want %q", i, got, good[i])
			}
		}
		if d.Buffered() != 0 {
			t.Fatalf("%d bytes left over", d.Buffered())
		}
	})
}

// FuzzCommandDecoder: no input panics a board's command decoder.
func FuzzCommandDecoder(f *testing.F) {
	f.Add([]byte("I\nB\r\nC\n"))
	f.Add([]byte("\n\n\x00X\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var d CommandDecoder
		d.Feed(b)
		d.Feed([]byte("\nB\n"))
		var last Command
		for {
			c, err := d.Next()
			if errors.Is(err, ErrNeedMore) {
				break
			}
			if err == nil {
				last = c
			}
		}
		if last != CmdBoard {
			t.Fatalf("the B after the junk was lost (last %q)", last)
		}
	})
}
