package identify

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/serialport"
)

// TestLabel: what each kind of clock shows for a configured board, the
// blind player's board and a board not in the configuration, within the
// DGT 3000's eight characters and the XL's six digits; nothing on a bus
// line or without a clock.
func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		want *Want
		kind ClockKind
		out  string
	}{
		{&Want{Board: 7}, DGT3000, "board 7"},
		{&Want{Board: 17}, DGT3000, "board 17"},
		{&Want{Board: 117}, DGT3000, "B 117"},
		{&Want{Board: 2000}, DGT3000, "B 2000"},
		{&Want{Board: 60, Blind: true}, DGT3000, "blind 60"},
		{nil, DGT3000, "unknown"},
		{&Want{Board: 17}, XL, "b   17"},
		{&Want{Board: 2000}, XL, "b 2000"},
		{&Want{Board: 60, Blind: true}, XL, "bL  60"},
		{nil, XL, "------"},
		{&Want{Board: 17}, BusClock, ""},
		{&Want{Board: 17}, NoClock, ""},
	} {
		got := Label(tc.want, tc.kind)
		if got != tc.out {
			t.Errorf("Label(%v, %d) = %q, want %q", tc.want, tc.kind, got, tc.out)
		}
		if len(got) > 8 || tc.kind == XL && len(got) != 6 {
			t.Errorf("Label %q does not fit the display", got)
		}
	}
}

// TestMatchSaysWhy: a board configured alone on what is a bus line, a bus
// board configured on a port where a single board answered (without an
// address, or with another), a board on a port that was not there and one
// on a busy port are missing, each with its reason; a board alone on its
// port is matched by the bus address it answered with; the boards found on them stay "not in the configuration";
// a configured port is matched through resolve (a stable name).
func TestMatchSaysWhy(t *testing.T) {
	ports := []Port{
		{Path: "/dev/ttyUSB0", Device: "/dev/ttyUSB0", Bus: true, Boards: []Found{{Address: 4102, Serial: "04102"}, {Address: 4101, Serial: "04101"}}},
		{Path: "/dev/ttyACM0", Device: "/dev/ttyACM0", Boards: []Found{{Serial: "01025", Clock: DGT3000}}},
		{Path: "/dev/dgt/by-path/x", Err: &OpenError{Path: "/dev/dgt/by-path/x", Err: fs.ErrNotExist}},
		{Path: "/dev/ttyACM2", Device: "/dev/ttyACM2", Boards: []Found{{Address: 4444, Serial: "04444", Clock: XL}}},
		{Path: "/dev/ttyACM3", Device: "/dev/ttyACM3", Boards: []Found{{Address: 4445, Serial: "04445"}}},
		{Path: "/dev/ttyACM1", Device: "/dev/ttyACM1", Err: &BusyError{Path: "/dev/ttyACM1", Holders: []serialport.Holder{{PID: 812, Command: "dgtbridge"}}}},
	}
	names := map[string]string{"/dev/dgt/by-path/line": "/dev/ttyUSB0", "/dev/ttyACM0": "/dev/ttyACM0", "/dev/ttyUSB0": "/dev/ttyUSB0", "/dev/ttyACM1": "/dev/ttyACM1", "/dev/ttyACM2": "/dev/ttyACM2", "/dev/ttyACM3": "/dev/ttyACM3"}
	wants := []Want{
		{Board: 1, Port: "/dev/dgt/by-path/line", Address: 4101},
		{Board: 5, Port: "/dev/ttyUSB0"},
		{Board: 6, Port: "/dev/ttyACM0", Address: 4106},
		{Board: 7, Port: "/dev/dgt/by-path/x"},
		{Board: 8, Port: "/dev/ttyACM1"},
		{Board: 9, Port: "/dev/dgt/by-path/never-asked"},
		{Board: 10, Port: "/dev/ttyACM2", Address: 4444},
		{Board: 11, Port: "/dev/ttyACM3", Address: 4446},
	}
	r := Match(ports, wants, func(p string) string { return names[p] })
	if rows := r.Ports[0].Rows; rows[0].Found.Address != 4101 || rows[0].Want == nil || rows[0].Want.Board != 1 || rows[1].Want != nil {
		t.Errorf("bus line rows %+v: want 4101 as board 1 first, then 4102 unknown", rows)
	}
	if r.Ports[1].Rows[0].Want != nil || r.Ports[1].Rows[0].Shows != "unknown" {
		t.Errorf("single board %+v: want not in the configuration, showing \"unknown\"", r.Ports[1].Rows[0])
	}
	why := map[int]string{}
	for _, m := range r.Missing {
		why[m.Want.Board] = m.Why
	}
	for board, want := range map[int]string{
		5:  "its port is a bus line (2 boards): give each board its bus_address",
		6:  "a board on a port of its own answered there, not a bus line with address 4106",
		7:  "no such port",
		8:  "its port /dev/ttyACM1 is held by dgtbridge (pid 812)",
		9:  "no such port",
		11: "the one board there has address 4445, not 4446",
	} {
		if !strings.Contains(why[board], want) {
			t.Errorf("board %d missing because %q, want %q", board, why[board], want)
		}
	}
	if row := r.Ports[3].Rows[0]; row.Want == nil || row.Want.Board != 10 || row.Shows != "b   10" {
		t.Errorf("a board alone on its port, configured by its bus address: %+v, want board 10 showing \"b   10\"", row)
	}
	if found, unknown := r.Found(); found != 5 || unknown != 3 || len(r.Missing) != 6 {
		t.Errorf("found %d (%d unknown), missing %d; want 5 (3), 6", found, unknown, len(r.Missing))
	}
	var b strings.Builder
	if err := Print(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"/dev/ttyUSB0  (bus line: its clocks show nothing, find each board by the address on it)\n  board 1     address 4101, serial 04101, firmware 0.00, no clock\n  ?           address 4102",
		"busy: /dev/ttyACM1 is held by dgtbridge (pid 812); not opened. The running daemon reads it: \"dgtbridge status\" shows its boards",
		"5 boards found: 2 in the configuration, 3 not; 6 configured boards missing",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the list lacks %q:\n%s", want, b.String())
		}
	}
	if !errors.Is(&NoBoardError{Single: fs.ErrClosed}, fs.ErrClosed) {
		t.Error("NoBoardError does not unwrap to the single board's error")
	}
}
