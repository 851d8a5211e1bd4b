package emu_test

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
)

// TestXLDisplayReadsBack: an XL clock's display command is read back as
// the characters its segments show, in the display's order A…F; the
// emulator's reading of every digit and letter agrees with package dgt's
// segment table (two tables written apart); a beep is counted; END gives
// the time display back.
func TestXLDisplayReadsBack(t *testing.T) {
	e := emu.New(emu.Setup{ClockVersion: [2]byte{1, 14}}, t0)
	send := func(c dgt.Command) {
		t.Helper()
		b, err := c.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		e.Input(t0, b)
	}
	send(dgt.ClockDisplay{Chars: dgt.XLText("b   17"), Beep: true})
	if c := e.Clock(t0); c.Text != "b   17" || c.Beeps != 1 {
		t.Errorf("display reads %q with %d beeps, want \"b   17\" and 1", c.Text, c.Beeps)
	}
	for _, s := range []string{"012345", "6789-b", "CdEFLn", "oPr   "} {
		send(dgt.ClockDisplay{Chars: dgt.XLText(s)})
		if c := e.Clock(t0); c.Text != s {
			t.Errorf("display %q reads %q", s, c.Text)
		}
	}
	send(dgt.ClockDisplay{Chars: [6]byte{0x7F &^ 0x01}})
	if c := e.Clock(t0); c.Text != "?     " {
		t.Errorf("a bitmap that is no character reads %q, want \"?     \"", c.Text)
	}
	send(dgt.ClockEnd)
	if c := e.Clock(t0); c.Text != "" {
		t.Errorf("after END the display reads %q, want the times", c.Text)
	}
}
