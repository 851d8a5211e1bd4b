package identify

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// Print writes the list: each port with its stable names and the boards
// found on it (the configured board each is, or "not in the
// configuration"; its address and serial number; what its clock shows),
// or why none answered; then the configured boards missing and those on
// port auto; then a count.
func Print(w io.Writer, r Report) error {
	var b strings.Builder
	for _, p := range r.Ports {
		b.WriteString(portLine(p.Port))
		for _, n := range p.Port.Names {
			fmt.Fprintf(&b, "    = %s\n", n)
		}
		if p.Port.Err != nil {
			fmt.Fprintf(&b, "  %s\n", portError(p.Port.Err))
		}
		for _, row := range p.Rows {
			fmt.Fprintf(&b, "  %-11s %s\n", rowName(row), rowText(row))
		}
	}
	if len(r.Missing) > 0 {
		b.WriteString("\nmissing (in the configuration, not found):\n")
		for _, m := range r.Missing {
			where := m.Want.Port
			if m.Want.Address != 0 {
				where = fmt.Sprintf("address %d on %s", m.Want.Address, m.Want.Port)
			}
			fmt.Fprintf(&b, "  %s, %s: %s\n", m.Want, where, m.Why)
		}
	}
	if len(r.Auto) > 0 {
		b.WriteString("\nport auto (the daemon takes the first board it finds; give each its socket's name to know which):\n")
		for _, w := range r.Auto {
			fmt.Fprintf(&b, "  %s\n", w)
		}
	}
	found, unknown := r.Found()
	fmt.Fprintf(&b, "\n%d boards found: %d in the configuration, %d not; %d configured boards missing\n", found, found-unknown, unknown, len(r.Missing))
	_, err := io.WriteString(w, b.String())
	return err
}

// portLine is a port's heading: the device (or the path asked), what it
// is.
func portLine(p Port) string {
	s := p.Device
	if s == "" {
		s = p.Path
	}
	var notes []string
	if p.Bus {
		notes = append(notes, "bus line: its clocks show nothing, find each board by the address on it")
	}
	if p.USB != "" {
		notes = append(notes, "USB "+p.USB)
	}
	if len(notes) > 0 {
		s += "  (" + strings.Join(notes, ", ") + ")"
	}
	return s + "\n"
}

// portError says why no board answered on a port, and what to do.
func portError(err error) string {
	var busy *BusyError
	var open *OpenError
	switch {
	case errors.As(err, &busy):
		s := "busy: " + busy.Error() + "; not opened."
		for _, h := range busy.Holders {
			if h.Command == "dgtbridge" {
				return s + " The running daemon reads it: \"dgtbridge status\" shows its boards; stop it (systemctl stop dgtbridge) to identify them here"
			}
		}
		return s + " Close that program (or stop the daemon: systemctl stop dgtbridge) and try again"
	case errors.Is(err, fs.ErrNotExist):
		return noSuchPort
	case errors.As(err, &open):
		return "cannot open: " + open.Error()
	}
	return err.Error()
}

// rowName is the first column: the configured board, or "?".
func rowName(row Row) string {
	if row.Want == nil {
		return "?"
	}
	return fmt.Sprintf("board %d", row.Want.Board)
}

// rowText describes a board found: "address 4101, serial 04101, firmware
// 1.2, clock: …".
func rowText(row Row) string {
	f := row.Found
	var parts []string
	if f.Address != 0 {
		parts = append(parts, fmt.Sprintf("address %d", f.Address))
	}
	serial := "serial " + f.Serial
	if f.LongSerial != "" {
		serial += " (" + f.LongSerial + ")"
	}
	parts = append(parts, serial, fmt.Sprintf("firmware %d.%02d", f.Firmware[0], f.Firmware[1]))
	switch f.Clock {
	case NoClock:
		parts = append(parts, "no clock")
	case DGT3000:
		parts = append(parts, fmt.Sprintf("DGT 3000 %d.%d shows %q", f.ClockVersion[0], f.ClockVersion[1], row.Shows))
	case XL:
		parts = append(parts, fmt.Sprintf("XL %d.%d shows %q", f.ClockVersion[0], f.ClockVersion[1], row.Shows))
	case BusClock:
		parts = append(parts, "clock")
	}
	s := strings.Join(parts, ", ")
	if row.Want == nil {
		s += ": not in the configuration"
	} else if row.Want.Blind {
		s += ": the blind player's board"
	}
	return s
}
