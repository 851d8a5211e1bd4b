package hall

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHallArbiterSetsClock: an arbiter's adjust_clock command goes through
// the board's link to the DGT 3000 as a SetNRun (White's time on the left
// display), and nothing else is ever sent to the clock.
func TestHallArbiterSetsClock(t *testing.T) {
	integration(t)
	// The link re-sends a clock command the clock has not acknowledged
	// within AckTimeout: on a loaded machine the emulated clock's ACK can
	// take patientLink's 5 s, and the resend would be a second SetNRun.
	// Counting exactly one needs a time-out no stall reaches.
	f := startHall(t, "r1-b9", game.ID{Event: "open2026", Round: 1, Board: 9}, "00009", func(b *Board) { b.Link.AckTimeout = time.Minute })
	b := f.b
	arb := f.arbiter(t)
	rep, err := arb.Request(testPrefix+".arbiter.open2026.1.9.cmd",
		[]byte(`{"cmd":"adjust_clock","white_ms":3000000,"black_ms":2400000,"running":"none","by":"IA Test"}`), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var cr CommandReply
	if json.Unmarshal(rep.Data, &cr); !cr.OK {
		t.Fatalf("adjust_clock: %s", rep.Data)
	}
	waitFor(t, 10*time.Second, "the clock to take the setting", func() bool {
		c := b.e.Clock(time.Now())
		return c.HostControl && c.Left == 50*time.Minute && c.Right == 40*time.Minute
	})
	_, clockCmds := b.e.Received()
	// The link's identification asks for the clock's version (0x09);
	// the only other clock command is the arbiter's SetNRun (0x0A).
	if n := bytes.Count(clockCmds, []byte{0x0a}); n != 1 {
		t.Errorf("clock commands %x: want exactly one SetNRun", clockCmds)
	}
	for _, c := range clockCmds {
		if c != 0x09 && c != 0x0a {
			t.Errorf("clock command %#x sent: the daemon shows nothing to the players", c)
		}
	}
}
