package identify

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/dgtbridge/dgtbridge/serialport"
)

// Want is a configured board: where the configuration says it is.
type Want struct {
	Board int    // the board number in the current round, as the daemon numbers it
	Blind bool   // the blind player's own board (boards[].blind) of that table
	Port  string // as configured: a stable name, a device path, or "auto"
	// Address is the bus address on a bus line; 0 is a board on a port
	// of its own.
	Address uint16
}

// String names the board as the list does: "board 17", "board 17
// (blind player's board)".
func (w Want) String() string {
	if w.Blind {
		return fmt.Sprintf("board %d (blind player's board)", w.Board)
	}
	return fmt.Sprintf("board %d", w.Board)
}

// ClockKind is what is cabled to a board: a closed set.
type ClockKind uint8

// The clock kinds.
const (
	NoClock  ClockKind = iota
	DGT3000            // a DGT 3000 (clock version 2.x): eight characters of text
	XL                 // a DGT XL (clock version 1.x): six 7-segment digits
	BusClock           // a clock on a bus line: its kind cannot be asked
)

// Found is a board that answered on a port.
type Found struct {
	// Address is the board's bus address: on a bus line, and for a board
	// alone on its port that answered a bus discovery too; 0 for one that
	// did not.
	Address uint16
	// Serial is the five-digit serial number; on a bus line, whose
	// protocol has no serial-number request, the address written with
	// five digits (the address is the serial number read as a number).
	Serial     string
	LongSerial string   // the ten-digit serial, "" when not known
	Firmware   [2]uint8 // major, minor
	Clock      ClockKind
	// ClockVersion is the clock's version (DGT 3000 and XL only).
	ClockVersion [2]uint8
}

// Port is what one port answered ([Probe]).
type Port struct {
	// Path is the path asked; Device the device it resolves to ("" when
	// the path does not exist).
	Path, Device string
	// Names are the stable names (symlinks in /dev/dgt/…, /dev/serial/…)
	// of Device.
	Names []string
	USB   string // "VID:PID" of a USB device, "" otherwise
	// Bus: the boards answered as a bus line.
	Bus    bool
	Boards []Found
	// Err is why no board answered: a *BusyError, an *OpenError or a
	// *NoBoardError.
	Err error
}

// BusyError: another program holds the port (the running daemon, a
// terminal program); it was not opened.
type BusyError struct {
	Path    string
	Holders []serialport.Holder // empty when the system only said "busy"
}

func (e *BusyError) Error() string {
	if len(e.Holders) == 0 {
		return fmt.Sprintf("%s is held by another program", e.Path)
	}
	s := fmt.Sprintf("%s is held by", e.Path)
	for i, h := range e.Holders {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf(" %s (pid %d)", h.Command, h.PID)
	}
	return s
}

// OpenError: the path could not be opened as a serial port (it does not
// exist, it is no serial port, or no permission).
type OpenError struct {
	Path string
	Err  error
}

func (e *OpenError) Error() string { return e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// NoBoardError: the port opened, but no DGT board answered, neither as a
// board on its own (Single says how that failed) nor on a bus line (Bus
// is nil when the line was asked and nobody answered). Heard counts the
// bytes that came back: 0 is a silent port, more a device that answers
// but speaks no DGT.
type NoBoardError struct {
	Single error
	Bus    error
	Heard  int64
}

func (e *NoBoardError) Error() string {
	s := "no DGT board: nothing came back (switched off, or no board on this port)"
	if e.Heard > 0 {
		s = fmt.Sprintf("no DGT board: %d bytes came back, none of them a DGT reply (another device, or a damaged line)", e.Heard)
	}
	if e.Bus != nil {
		s += "; the line failed: " + e.Bus.Error()
	}
	return s
}

// Unwrap returns how the single-board request failed.
func (e *NoBoardError) Unwrap() error { return e.Single }

// Row is one board found: the configured board it is (nil: not in the
// configuration) and what its clock is to show ("" nothing).
type Row struct {
	Found Found
	Want  *Want
	Shows string
}

// PortRows is a port with the boards found on it.
type PortRows struct {
	Port Port
	Rows []Row
}

// Missing is a configured board that was not found, and why.
type Missing struct {
	Want Want
	Why  string
}

// Report is the outcome of an identification.
type Report struct {
	Ports   []PortRows
	Missing []Missing
	// Auto are the boards configured with port auto: the daemon takes the
	// first board it finds for them, so they are matched to no socket.
	Auto []Want
}

// Found counts the boards found, and of them those not in the
// configuration.
func (r Report) Found() (found, unknown int) {
	for _, p := range r.Ports {
		for _, row := range p.Rows {
			found++
			if row.Want == nil {
				unknown++
			}
		}
	}
	return found, unknown
}

// Match matches what the ports answered to the configured boards. resolve
// maps a configured port to its device (as [Port].Device; "" when it does
// not exist); a configured port that resolves to no probed port is
// missing. Ports keep their order; a port's boards are in address order.
func Match(ports []Port, wants []Want, resolve func(string) string) Report {
	var r Report
	byDevice := map[string]int{}
	for i, p := range ports {
		rows := make([]Row, 0, len(p.Boards))
		for _, f := range p.Boards {
			rows = append(rows, Row{Found: f})
		}
		slices.SortFunc(rows, func(a, b Row) int { return cmp.Compare(a.Found.Address, b.Found.Address) })
		r.Ports = append(r.Ports, PortRows{Port: p, Rows: rows})
		for _, k := range []string{p.Device, p.Path} {
			if _, ok := byDevice[k]; k != "" && !ok {
				byDevice[k] = i
			}
		}
	}
	for _, w := range wants {
		if w.Port == serialport.Auto {
			r.Auto = append(r.Auto, w)
			continue
		}
		dev := resolve(w.Port)
		i, ok := byDevice[dev]
		if dev == "" || !ok {
			if j, ok2 := byDevice[w.Port]; ok2 {
				i, ok = j, true
			}
		}
		if !ok {
			why := "its port was not asked"
			if dev == "" {
				why = noSuchPort
			}
			r.Missing = append(r.Missing, Missing{Want: w, Why: why})
			continue
		}
		p := &r.Ports[i]
		row := -1
		for j := range p.Rows {
			lone := !p.Port.Bus && len(p.Rows) == 1
			if p.Rows[j].Want == nil && (w.Address == 0 && lone || w.Address != 0 && p.Rows[j].Found.Address == w.Address) {
				row = j
				break
			}
		}
		if row < 0 {
			r.Missing = append(r.Missing, Missing{Want: w, Why: missingWhy(p.Port, w)})
			continue
		}
		want := w
		p.Rows[row].Want = &want
	}
	for i := range r.Ports {
		for j := range r.Ports[i].Rows {
			row := &r.Ports[i].Rows[j]
			row.Shows = Label(row.Want, row.Found.Clock)
		}
	}
	return r
}

// noSuchPort is why a board whose port does not exist is missing.
const noSuchPort = "no such port (not plugged in, or the udev rules not installed)"

// missingWhy says why w is not among what its port answered.
func missingWhy(p Port, w Want) string {
	var busy *BusyError
	switch {
	case errors.Is(p.Err, fs.ErrNotExist):
		return noSuchPort
	case errors.As(p.Err, &busy):
		return "its port " + busy.Error()
	case p.Err != nil:
		return "its port: " + p.Err.Error()
	case w.Address == 0 && p.Bus:
		return fmt.Sprintf("its port is a bus line (%d boards): give each board its bus_address", len(p.Boards))
	case w.Address != 0 && !p.Bus && len(p.Boards) == 1 && p.Boards[0].Address != 0:
		return fmt.Sprintf("the one board there has address %d, not %d", p.Boards[0].Address, w.Address)
	case w.Address != 0 && !p.Bus:
		return fmt.Sprintf("a board on a port of its own answered there, not a bus line with address %d", w.Address)
	case w.Address != 0:
		return fmt.Sprintf("address %d did not answer on its line (switched off, cable, or another address)", w.Address)
	}
	return "did not answer"
}

// Label returns what a clock of kind k shows for the configured board w
// (nil: not in the configuration): see the package doc. Clocks on a bus
// line, and boards without a clock, show nothing ("").
func Label(w *Want, k ClockKind) string {
	switch k {
	case DGT3000:
		if w == nil {
			return "unknown"
		}
		word := "board"
		if w.Blind {
			word = "blind"
		}
		if s := fmt.Sprintf("%s %d", word, w.Board); len(s) <= 8 {
			return s
		}
		if s := fmt.Sprintf("%c %d", word[0]-'a'+'A', w.Board); len(s) <= 8 {
			return s
		}
		return fmt.Sprintf("%d", w.Board%100000000)
	case XL:
		if w == nil {
			return "------"
		}
		if w.Blind {
			return fmt.Sprintf("bL%4d", w.Board%10000)
		}
		return fmt.Sprintf("b%5d", w.Board%100000)
	}
	return ""
}
