package identify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// StableDirs are the folders whose symlinks name a port for good: the
// udev rules' /dev/dgt/by-path and /dev/dgt (usb-SERIAL), and the
// system's /dev/serial/by-path and /dev/serial/by-id.
var StableDirs = []string{"/dev/dgt/by-path", "/dev/dgt", "/dev/serial/by-path", "/dev/serial/by-id"}

// Options tune [Probe] and [Show]; the zero value is the command's.
type Options struct {
	// Single are the time limits of asking a board on a port of its own;
	// zero: serialport.ProbeSettings.
	Single link.Settings
	// Bus tunes the discovery of a bus line (Addresses are set per port
	// from the configuration).
	Bus bus.Settings
	// NameDirs are the folders of stable names; nil: StableDirs.
	NameDirs []string
}

func (o Options) single() link.Settings {
	if o.Single == (link.Settings{}) {
		return serialport.ProbeSettings
	}
	return o.Single
}

// Target is a port to ask: its path, and its USB ids when listed.
type Target struct {
	Path string
	USB  string // "VID:PID", or ""
}

// Probe asks every port of targets and every configured port (the same
// device named twice is asked once), all at once, and matches the boards
// that answered to wants. A port held by another program is not opened
// ([BusyError]). Every port is discovered as a bus line first (the
// configured addresses asked first), then asked as a board on its own
// when that found one board, on a port not configured as a bus line, or
// none (see askPort).
func Probe(ctx context.Context, targets []Target, wants []Want, o Options) Report {
	resolve := func(p string) string {
		d, err := filepath.EvalSymlinks(p)
		if err != nil {
			return ""
		}
		if a, err := filepath.Abs(d); err == nil {
			d = a
		}
		return d
	}
	for _, w := range wants {
		if w.Port != serialport.Auto {
			targets = append(targets, Target{Path: w.Port})
		}
	}
	var ports []Port
	seen := map[string]int{}
	for _, t := range targets {
		dev := resolve(t.Path)
		key := dev
		if key == "" {
			key = t.Path
		}
		if i, ok := seen[key]; ok {
			if ports[i].USB == "" {
				ports[i].USB = t.USB
			}
			continue
		}
		seen[key] = len(ports)
		ports = append(ports, Port{Path: t.Path, Device: dev, USB: t.USB})
	}
	names := stableNames(o.NameDirs, resolve)
	var devices []string
	for i := range ports {
		ports[i].Names = names[ports[i].Device]
		if ports[i].Device != "" {
			devices = append(devices, ports[i].Device)
		}
	}
	holders := serialport.Holders(devices)
	var wg sync.WaitGroup
	for i := range ports {
		p := &ports[i]
		if h := holders[p.Device]; len(h) > 0 {
			p.Err = &BusyError{Path: p.Path, Holders: h}
			continue
		}
		var addrs []uint16
		for _, w := range wants {
			if w.Address != 0 && w.Port != serialport.Auto && (resolve(w.Port) == p.Device && p.Device != "" || w.Port == p.Path) {
				addrs = append(addrs, w.Address)
			}
		}
		wg.Go(func() { askPort(ctx, p, addrs, o) })
	}
	wg.Wait()
	return Match(ports, wants, resolve)
}

// askPort asks one port. The line is discovered first: a board on a
// port of its own answers a bus discovery as well (with its address), but
// the boards of a bus line all answer a single-board request at once, and
// their replies merge on the wired-OR line into one that looks valid (two
// serial numbers OR-ed into a third). Two boards or more are a bus line;
// one, on a port not configured as a bus line, is asked again as a board
// on its own (for its serial number and clock), keeping the address; none
// is asked as a board on its own.
func askPort(ctx context.Context, p *Port, addrs []uint16, o Options) {
	path := p.Path
	if p.Device != "" {
		path = p.Device
	}
	var heard counter
	var busErr, singleErr error
	rwc, err := open(path)
	if err != nil {
		p.Err = err
		return
	}
	s := o.Bus
	s.Addresses = addrs
	found, busErr := bus.Probe(ctx, counted{rwc, &heard}, s)
	for _, f := range found {
		b := Found{Address: f.Address, Serial: fmt.Sprintf("%05d", f.Address), Firmware: [2]uint8{f.Version.Major, f.Version.Minor}}
		if f.Clock {
			b.Clock = BusClock
		}
		p.Boards = append(p.Boards, b)
	}
	if len(found) > 1 || len(found) == 1 && len(addrs) > 0 || ctx.Err() != nil {
		p.Bus = len(found) > 0
		return
	}
	if rwc, err = open(path); err != nil {
		p.Err = err
		return
	}
	c, singleErr := link.Probe(ctx, counted{rwc, &heard}, o.single())
	switch {
	case singleErr == nil:
		f := Found{Serial: c.Serial, LongSerial: c.LongSerial, Firmware: [2]uint8{c.Version.Major, c.Version.Minor}, ClockVersion: c.ClockVersion}
		switch {
		case !c.Clock:
		case c.ClockVersion[0] == 2:
			f.Clock = DGT3000
		default:
			f.Clock = XL
		}
		if len(found) == 1 {
			f.Address = found[0].Address
		}
		p.Boards = []Found{f}
	case len(found) == 1:
		p.Bus = true // a line of one board that does not answer on its own
	default:
		p.Err = &NoBoardError{Single: singleErr, Bus: busErr, Heard: heard.n.Load()}
	}
}

// counter counts the bytes read from a port.
type counter struct{ n atomic.Int64 }

// counted is a port whose reads are counted.
type counted struct {
	io.ReadWriteCloser
	c *counter
}

func (c counted) Read(b []byte) (int, error) {
	n, err := c.ReadWriteCloser.Read(b)
	c.c.n.Add(int64(n))
	return n, err
}

// open opens a port as serialport does; EBUSY (another program set it for
// exclusive use) is a *BusyError, other failures an *OpenError.
func open(path string) (io.ReadWriteCloser, error) {
	rwc, err := serialport.Open(path)
	switch {
	case errors.Is(err, syscall.EBUSY):
		return nil, &BusyError{Path: path}
	case err != nil:
		return nil, &OpenError{Path: path, Err: err}
	}
	return rwc, nil
}

// stableNames maps each device to the symlinks of dirs that point at it,
// in the order of dirs.
func stableNames(dirs []string, resolve func(string) string) map[string][]string {
	if dirs == nil {
		dirs = StableDirs
	}
	out := map[string][]string{}
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Type()&os.ModeSymlink == 0 {
				continue
			}
			name := filepath.Join(d, e.Name())
			if dev := resolve(name); dev != "" {
				out[dev] = append(out[dev], name)
			}
		}
	}
	return out
}
