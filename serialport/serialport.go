package serialport

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

// Auto is the port setting that means "find the board".
const Auto = "auto"

// ErrClaimed: another board of this process has the port open.
var ErrClaimed = errors.New("in use by another board of this daemon")

// ErrNoBoard: port auto found no DGT board (yet).
var ErrNoBoard = errors.New("no DGT board found on any serial port")

// ErrNotSerialPort: the path opened, but it is no terminal device (its
// line settings cannot be read). Only the Linux opener tells this case
// apart.
var ErrNotSerialPort = errors.New("not a serial port")

// Open opens a DGT board's port: 9600 baud, 8 data bits, no parity,
// 1 stop bit, no flow control, DTR and RTS low (docs/dgt-boards.md, "Serial ports on Linux"), and
// no read timeout: a Read blocks until data arrives or the port is closed,
// which is how the owning goroutine is stopped. Errors name the path. On
// Linux the port is opened by openTTY (tty_linux.go), elsewhere by
// go.bug.st/serial (openGoSerial).
func Open(path string) (io.ReadWriteCloser, error) { return OpenBaud(path, 9600) }

// openGoSerial opens a port with go.bug.st/serial, which waits for every
// read in a select(2) call of its own (19 % of the daemon's CPU at 2,000
// boards): the fallback where openTTY is not available. Errors
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
	// Modem lines: some bus adapters misbehave with DTR/RTS high.
	// Devices without modem lines (pseudo-terminals, some rfcomm links)
	// refuse these calls; that is harmless, so the errors are ignored.
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

// Port is one serial port the system lists.
type Port struct {
	Path         string
	USB          bool
	VID, PID     string
	SerialNumber string
	Product      string
}

// List lists the serial ports, USB ones first (DGT boards are USB
// CDC/FTDI devices or rfcomm Bluetooth links).
func List() ([]Port, error) {
	details, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return nil, fmt.Errorf("list serial ports: %w", err)
	}
	var out []Port
	for _, d := range details {
		out = append(out, Port{Path: d.Name, USB: d.IsUSB, VID: d.VID, PID: d.PID, SerialNumber: d.SerialNumber, Product: d.Product})
	}
	slices.SortStableFunc(out, func(a, b Port) int { return rank(a) - rank(b) })
	return out, nil
}

func rank(p Port) int {
	switch {
	case p.USB:
		return 0
	case strings.Contains(p.Path, "rfcomm"):
		return 1
	}
	return 2
}

// ProbeSettings are the time limits of a probe: short, because `ports`
// and `port: auto` probe every candidate in turn.
var ProbeSettings = link.Settings{IdentifyInterval: time.Second, IdentifyTries: 2, ReplyTimeout: 1500 * time.Millisecond}

// Probe opens path and asks who is there: the board's identity, or why
// none answered (an error of Open when the path cannot be opened).
func Probe(ctx context.Context, path string) (link.Connected, error) {
	rwc, err := Open(path)
	if err != nil {
		return link.Connected{}, err
	}
	return link.Probe(ctx, rwc, ProbeSettings)
}

// Result is what [Discover] found on one port: the board that answered,
// or Err. Unopened says Err came from opening the path (no such device,
// no permission, no serial port) rather than from a silent device.
type Result struct {
	Port
	Board    link.Connected
	Err      error
	Unopened bool
}

// Discover probes every port of ports for a DGT board, all at once (each
// port is its own device), and returns one Result per port in the same
// order. It returns when every probe has ended; ctx cuts them short.
func Discover(ctx context.Context, ports []Port) []Result {
	out := make([]Result, len(ports))
	var wg sync.WaitGroup
	for i, p := range ports {
		out[i].Port = p
		wg.Go(func() {
			rwc, err := Open(p.Path)
			if err != nil {
				out[i].Err, out[i].Unopened = err, true
				return
			}
			out[i].Board, out[i].Err = link.Probe(ctx, rwc, ProbeSettings)
		})
	}
	wg.Wait()
	return out
}

// Claims records the ports this process has open for boards, so that
// port: auto for one board does not probe or take another board's port,
// and two boards configured on one path get a clear error. A nil *Claims
// claims nothing; the zero Claims is ready to use.
type Claims struct {
	mu  sync.Mutex
	set map[string]bool
}

// Claim takes path p for the caller; false when it is taken already.
func (c *Claims) Claim(p string) bool {
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

// Release gives path p back.
func (c *Claims) Release(p string) {
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

// Open claims path and opens it at baud (see [OpenBaud]); closing the
// port releases the claim. A path claimed already is refused with
// [ErrClaimed].
func (c *Claims) Open(path string, baud int) (io.ReadWriteCloser, error) {
	if !c.Claim(path) {
		return nil, fmt.Errorf("serial port %s: %w", path, ErrClaimed)
	}
	rwc, err := OpenBaud(path, baud)
	if err != nil {
		c.Release(path)
		return nil, err
	}
	return &claimed{ReadWriteCloser: rwc, release: func() { c.Release(path) }}, nil
}

// Opener returns the opener the daemon hands to dgt/link (or, as
// port.Opener, to dgt/bus) for a configured port: a device path, or
// [Auto]. claims (may be nil) is shared by all boards of the process;
// rescan ≤ 0 means 2 s; log may be nil. With "auto"
// it lists the serial ports, probes every unclaimed one for a DGT board
// (version request) and opens the first that answers; when none
// does it lists again every rescan interval until ctx is done, so a board
// plugged in later is picked up. A reconnect (the link calls the opener
// again) starts a new search, so a board that comes back on another
// device name is found too.
func Opener(port string, claims *Claims, rescan time.Duration, log *slog.Logger) port.Opener {
	if port != Auto {
		return func(ctx context.Context) (io.ReadWriteCloser, error) { return claims.Open(port, 9600) }
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
			} else if !errors.Is(err, ErrNoBoard) {
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
func findBoard(ctx context.Context, claims *Claims, log *slog.Logger) (io.ReadWriteCloser, error) {
	ports, err := List()
	if err != nil {
		return nil, err
	}
	for _, p := range ports {
		if !claims.Claim(p.Path) {
			continue
		}
		info, err := Probe(ctx, p.Path)
		if err == nil {
			rwc, err := Open(p.Path)
			if err == nil {
				log.Info("port auto: DGT board found", "port", p.Path, "serial", info.Serial)
				return &claimed{ReadWriteCloser: rwc, release: func() { claims.Release(p.Path) }}, nil
			}
		}
		claims.Release(p.Path)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return nil, ErrNoBoard
}
