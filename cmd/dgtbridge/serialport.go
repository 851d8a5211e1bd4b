package main

// This is the only file of the repository that imports go.bug.st/serial
// (docs/architecture.md, "Import layers"): everything else sees a port as an
// io.ReadWriteCloser.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"go.bug.st/serial"
	"go.bug.st/serial/enumerator"

	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/port"
)

// autoPort is the port setting that means "find the board".
const autoPort = "auto"

// errPortClaimed: another board of this process has the port open.
var errPortClaimed = errors.New("in use by another board of this daemon")

// errNoBoardFound: port auto found no DGT board (yet).
var errNoBoardFound = errors.New("no DGT board found on any serial port")

// openSerial opens a DGT board's port: 9600 baud, 8 data bits, no parity, 1
// stop bit, no flow control, DTR and RTS low (docs/dgt-boards.md, "The protocol
// in brief"), and no read timeout: a Read blocks until data arrives or the port
// is closed, which is how the owning goroutine is stopped. Errors name the
// path. On Linux the port is opened by openTTY (serialport_linux.go), elsewhere
// by go.bug.st/serial (openGoSerial).
func openSerial(path string) (io.ReadWriteCloser, error) { return openSerialBaud(path, 9600) }

// openGoSerial opens a port with go.bug.st/serial, which waits for every read
// in a select(2) call of its own (19 % of the daemon's CPU at 2,000 boards;
// docs/performance.md): the fallback where openTTY is not available. Errors
// wrap serial.PortError with %w and name the path.
func openGoSerial(path string, baud int) (io.ReadWriteCloser, error) {
	p, err := serial.Open(path, &serial.Mode{BaudRate: baud, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
	if err != nil {
		return nil, fmt.Errorf("open serial port %s: %w", path, err)
	}
	if err := p.SetReadTimeout(serial.NoTimeout); err != nil {
		p.Close()
		return nil, fmt.Errorf("serial port %s: %w", path, err)
	}
	// Modem lines: some bus adapters misbehave with DTR/RTS high
	// (docs/dgt-boards.md). Devices without modem lines (pseudo-terminals, some
	// rfcomm links) refuse these calls; that is harmless, so the errors are
	// ignored.
	_ = p.SetDTR(false)
	_ = p.SetRTS(false)
	return &portCloser{Port: p, path: path}, nil
}

// portCloser names the path in read and write errors.
type portCloser struct {
	serial.Port
	path string
}

func (p *portCloser) Read(b []byte) (int, error) {
	n, err := p.Port.Read(b)
	if err != nil {
		err = fmt.Errorf("serial port %s: %w", p.path, err)
	}
	return n, err
}

func (p *portCloser) Write(b []byte) (int, error) {
	n, err := p.Port.Write(b)
	if err != nil {
		err = fmt.Errorf("serial port %s: %w", p.path, err)
	}
	return n, err
}

// portInfo is one serial port the system lists.
type portInfo struct {
	Path         string
	USB          bool
	VID, PID     string
	SerialNumber string
	Product      string
}

// listPorts lists the serial ports, USB ones first (DGT boards are USB
// CDC/FTDI devices or rfcomm Bluetooth links).
func listPorts() ([]portInfo, error) {
	details, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return nil, fmt.Errorf("list serial ports: %w", err)
	}
	var out []portInfo
	for _, d := range details {
		out = append(out, portInfo{Path: d.Name, USB: d.IsUSB, VID: d.VID, PID: d.PID, SerialNumber: d.SerialNumber, Product: d.Product})
	}
	slices.SortStableFunc(out, func(a, b portInfo) int { return rank(a) - rank(b) })
	return out, nil
}

func rank(p portInfo) int {
	switch {
	case p.USB:
		return 0
	case strings.Contains(p.Path, "rfcomm"):
		return 1
	}
	return 2
}

// probeOptions are the time limits of a probe: short, because `ports` and
// `port: auto` probe every candidate in turn.
var probeOptions = link.Settings{IdentifyInterval: time.Second, IdentifyTries: 2, ReplyTimeout: 1500 * time.Millisecond}

// probePort opens path and asks who is there.
func probePort(ctx context.Context, path string) (link.Connected, error) {
	rwc, err := openSerial(path)
	if err != nil {
		return link.Connected{}, err
	}
	return link.Probe(ctx, rwc, probeOptions)
}

// portClaims records the ports this process has open for boards, so that
// port: auto for one board does not probe or take another board's port,
// and two boards configured on one path get a clear error. A nil
// *portClaims claims nothing.
type portClaims struct {
	mu  sync.Mutex
	set map[string]bool
}

func (c *portClaims) claim(p string) bool {
	if c == nil {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.set == nil {
		c.set = map[string]bool{}
	}
	if c.set[p] {
		return false
	}
	c.set[p] = true
	return true
}

func (c *portClaims) release(p string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.set, p)
}

// claimed wraps a port whose Close releases the claim.
type claimed struct {
	io.ReadWriteCloser
	once    sync.Once
	release func()
}

// SetReadDeadline passes a read deadline on to the port, when it takes
// one (dgt/bus then reads without a goroutine of its own).
func (c *claimed) SetReadDeadline(t time.Time) error {
	if d, ok := c.ReadWriteCloser.(interface{ SetReadDeadline(time.Time) error }); ok {
		return d.SetReadDeadline(t)
	}
	return os.ErrNoDeadline
}

func (c *claimed) Close() error {
	err := c.ReadWriteCloser.Close()
	c.once.Do(c.release)
	return err
}

// serialOpener returns the opener the daemon hands to dgt/link (or, as
// port.Opener, to dgt/bus) for a configured port: a device path, or
// "auto". claims (may be nil) is shared by all boards of the process;
// rescan ≤ 0 means 2 s; log may be nil. With "auto"
// it lists the serial ports, probes every unclaimed one for a DGT board
// (version request) and opens the first that answers; when none
// does it lists again every rescan interval until ctx is done, so a board
// plugged in later is picked up. A reconnect (the link calls the opener
// again) starts a new search, so a board that comes back on another
// device name is found too.
func serialOpener(port string, claims *portClaims, rescan time.Duration, log *slog.Logger) port.Opener {
	if port != autoPort {
		return func(ctx context.Context) (io.ReadWriteCloser, error) {
			if !claims.claim(port) {
				return nil, fmt.Errorf("serial port %s: %w", port, errPortClaimed)
			}
			rwc, err := openSerial(port)
			if err != nil {
				claims.release(port)
				return nil, err
			}
			return &claimed{ReadWriteCloser: rwc, release: func() { claims.release(port) }}, nil
		}
	}
	if rescan <= 0 {
		rescan = 2 * time.Second
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		for {
			if rwc, err := findBoard(ctx, claims, log); err == nil {
				return rwc, nil
			} else if !errors.Is(err, errNoBoardFound) {
				log.Warn("port auto: listing ports failed", "err", err)
			}
			t := time.NewTimer(rescan)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
		}
	}
}

// findBoard probes the unclaimed ports and opens the first DGT board.
func findBoard(ctx context.Context, claims *portClaims, log *slog.Logger) (io.ReadWriteCloser, error) {
	ports, err := listPorts()
	if err != nil {
		return nil, err
	}
	for _, p := range ports {
		if !claims.claim(p.Path) {
			continue
		}
		info, err := probePort(ctx, p.Path)
		if err == nil {
			rwc, err := openSerial(p.Path)
			if err == nil {
				log.Info("port auto: DGT board found", "port", p.Path, "serial", info.Serial)
				return &claimed{ReadWriteCloser: rwc, release: func() { claims.release(p.Path) }}, nil
			}
		}
		claims.release(p.Path)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return nil, errNoBoardFound
}
