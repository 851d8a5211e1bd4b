package serialport

import (
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/dgt/link"
)

// PrintDiscovered writes Discover's results as a table: each port, its
// USB ids and what it holds (a DGT board with its version, serial number
// and clock; or why none was found).
func PrintDiscovered(w io.Writer, results []Result) {
	fmt.Fprintf(w, "%-20s %-10s %s\n", "PORT", "USB", "DGT")
	for _, r := range results {
		usb := "-"
		if r.USB {
			usb = r.VID + ":" + r.PID
		}
		found := Describe(r.Board)
		switch {
		case r.Unopened:
			found = "cannot open: " + r.Err.Error()
		case r.Err != nil:
			found = "no DGT board: " + r.Err.Error()
		}
		fmt.Fprintf(w, "%-20s %-10s %s\n", r.Path, usb, found)
	}
}

// Describe says what a probe found, e.g. "board 1.07 serial 01025
// (0000001025), clock DGT 3000 2.0".
func Describe(c link.Connected) string {
	s := fmt.Sprintf("board %d.%02d serial %s", c.Version.Major, c.Version.Minor, c.Serial)
	if c.LongSerial != "" {
		s += " (" + c.LongSerial + ")"
	}
	switch {
	case !c.Clock:
		s += ", no clock"
	case c.ClockVersion[0] == 2:
		s += fmt.Sprintf(", clock DGT 3000 %d.%d", c.ClockVersion[0], c.ClockVersion[1])
	default:
		s += fmt.Sprintf(", clock XL %d.%d", c.ClockVersion[0], c.ClockVersion[1])
	}
	return s
}
