package serialport

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.bug.st/serial"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// servedPTY serves an emulator on a new pseudo-terminal until stop.
func servedPTY(t *testing.T, e emu.Device) (path string, stop func()) {
	t.Helper()
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { emu.ServePTY(ctx, m, e) })
	return path, func() { cancel(); wg.Wait() }
}

func TestOpenSerialErrors(t *testing.T) {
	_, err := Open("/dev/does-not-exist-dgt")
	if err == nil || !errors.Is(err, os.ErrNotExist) && !isPortError(err) {
		t.Fatalf("open of a missing device: %v", err)
	}
	if _, err := Open("/dev/null"); err == nil {
		t.Fatal("/dev/null opened as a serial port")
	} else if !errors.Is(err, ErrNotSerialPort) {
		t.Fatalf("/dev/null: %v, want ErrNotSerialPort", err)
	}
	if _, err := openGoSerial("/dev/null", 9600); err == nil || !isPortError(err) {
		t.Fatalf("/dev/null through go.bug.st/serial: %v, want a wrapped *serial.PortError", err)
	}
}

func isPortError(err error) bool {
	var pe *serial.PortError
	return errors.As(err, &pe)
}

// TestSerialLinkAcrossReplug is the end-to-end test through the serial
// code real boards use: the emulator on a pty, the daemon's side opened
// with Open, the link following moves and the clock, and the board
// vanishing and returning on a new device path.
func TestSerialLinkAcrossReplug(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	e := emu.New(emu.Setup{Serial: "07777"}, time.Now())
	var path atomic.Value
	p, stop := servedPTY(t, e)
	path.Store(p)
	l := link.New(func(ctx context.Context) (io.ReadWriteCloser, error) { return Open(path.Load().(string)) },
		link.Settings{BackoffMin: 50 * time.Millisecond, BackoffMax: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { l.Run(ctx) })
	defer func() {
		cancel()
		wg.Wait()
		stop()
	}()
	var fields [64]dgt.PieceCode
	connects, disconnects, dumps, clocks := 0, 0, 0, 0
	wait := func(what string, done func() bool) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for !done() {
			select {
			case ev := <-l.Events():
				switch ev := ev.(type) {
				case link.Connected:
					connects++
				case link.Disconnected:
					disconnects++
				case link.Message:
					switch m := ev.Msg.(type) {
					case dgt.BoardDump:
						fields, dumps = m.Fields, dumps+1
					case dgt.FieldUpdate:
						fields[m.Field] = m.Piece
					case dgt.ClockTimes:
						clocks++
					}
				}
			case <-deadline:
				t.Fatalf("no %s within 30 s", what)
			}
		}
	}
	placement := func() rules.Placement { d := dgt.BoardDump{Fields: fields}; return d.Placement(dgt.Normal) }
	wait("connect", func() bool { return dumps == 1 })

	pos := rules.Position(chess.StartPosition(chess.Standard))
	var moves []rules.Move
	for _, u := range []string{"d2d4", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4"} {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	s, err := emu.GameScript(chess.StartPosition(chess.Standard), moves, emu.GameOptions{
		Think:    func(int) time.Duration { return 150 * time.Millisecond },
		Handling: func(int) emu.Handling { return emu.Handling{Speed: 3} },
	})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule(time.Now(), s)
	if err := l.Clock(ctx, dgt.ClockText{Text: "dgtbr"}); err != nil {
		t.Fatalf("clock command through the serial port: %v", err)
	}
	time.Sleep(s.Duration() / 2)
	stop() // the board vanishes
	wait("disconnect", func() bool { return disconnects == 1 })
	p, stop = servedPTY(t, e)
	path.Store(p)
	wait("reconnect", func() bool { return dumps == 2 })
	want := pos.Placement()
	wait("final position", func() bool { return placement() == want })
	if connects != 2 || clocks == 0 {
		t.Fatalf("%d connects, %d clock messages", connects, clocks)
	}
}

// TestDiscover probes a DGT board, a silent pseudo-terminal and two paths
// that are no serial port: the board's identity, a silent device's error,
// and Unopened for the paths Open refuses.
func TestDiscover(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals, probes wait for their timeouts")
	}
	board, stop := servedPTY(t, emu.New(emu.Setup{Serial: "04242"}, time.Now()))
	defer stop()
	silentMaster, silent, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer silentMaster.Close()
	ports := []Port{{Path: board}, {Path: silent}, {Path: os.DevNull}, {Path: "/dev/ttyACM-not-there"}}
	got := Discover(context.Background(), ports)
	if len(got) != len(ports) {
		t.Fatalf("%d results for %d ports", len(got), len(ports))
	}
	for i, r := range got {
		if r.Path != ports[i].Path {
			t.Errorf("result %d is for %s, want %s", i, r.Path, ports[i].Path)
		}
	}
	if got[0].Err != nil || got[0].Board.Serial != "04242" {
		t.Errorf("board: %+v", got[0])
	}
	if got[1].Err == nil || got[1].Unopened {
		t.Errorf("silent pty: err %v, unopened %v; want a probe error", got[1].Err, got[1].Unopened)
	}
	if !errors.Is(got[2].Err, ErrNotSerialPort) || !got[2].Unopened {
		t.Errorf("/dev/null: err %v, unopened %v", got[2].Err, got[2].Unopened)
	}
	if !errors.Is(got[3].Err, os.ErrNotExist) || !got[3].Unopened {
		t.Errorf("missing path: err %v, unopened %v", got[3].Err, got[3].Unopened)
	}
}

// TestSerialOpener covers the opener the daemon hands to dgt/link: an
// explicit path (claimed, so a second board on the same path is refused
// until the first closes it) and "auto", which finds nothing among the
// listed ports here and keeps rescanning until cancelled.
func TestSerialOpener(t *testing.T) {
	p, stop := servedPTY(t, emu.New(emu.Setup{}, time.Now()))
	defer stop()
	var claims Claims
	open := Opener(p, &claims, 0, nil)
	rwc, err := open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := open(context.Background()); !errors.Is(err, ErrClaimed) {
		t.Fatalf("second open of %s: %v, want ErrClaimed", p, err)
	}
	rwc.Close()
	rwc, err = open(context.Background())
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	rwc.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	auto := Opener(Auto, &claims, 50*time.Millisecond, slog.New(slog.DiscardHandler))
	if _, err := auto(ctx); !errors.Is(err, context.DeadlineExceeded) {
		// a machine with a real DGT board plugged in would find it
		t.Logf("port auto: %v", err)
		if err == nil {
			t.Skip("a DGT board is attached to this machine")
		}
		t.Fatalf("port auto with no board: %v, want the context's deadline", err)
	}
}
