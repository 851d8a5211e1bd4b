package serialport

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/bus"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// cpuTime returns the process's user and system CPU time so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSerialRead reads a bus reply (6 bytes, an empty SEND_CHANGES
// answer) per iteration from a pseudo-terminal, one reply per read as on
// a 9600-baud line where the host is faster than the bytes: through
// openTTY (the runtime's poller) and through go.bug.st/serial (a select
// system call before every read). It reports the process's CPU time per
// read (the writing side is the same in both).
func BenchmarkSerialRead(b *testing.B) {
	for _, tc := range []struct {
		name string
		open func(string, int) (io.ReadWriteCloser, error)
	}{
		{"poller", openTTY},
		{"go-serial", openGoSerial},
	} {
		b.Run(tc.name, func(b *testing.B) {
			master, path, err := pty.Open()
			if err != nil {
				b.Fatal(err)
			}
			defer master.Close()
			port, err := tc.open(path, 9600)
			if err != nil {
				b.Fatal(err)
			}
			defer port.Close()
			reply := []byte{0x85, 0x00, 0x06, 0x08, 0x01, 0x14}
			buf := make([]byte, 1024)
			next := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range next {
					if _, err := master.Write(reply); err != nil {
						return
					}
				}
			}()
			cpu0 := cpuTime(b)
			for b.Loop() {
				next <- struct{}{}
				for got := 0; got < len(reply); {
					n, err := port.Read(buf)
					if err != nil {
						b.Fatal(err)
					}
					got += n
				}
			}
			close(next)
			<-done
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/read")
		})
	}
}

// benchBinary is dgtbridge built once for the benchmarks that run
// `dgtbridge emulate` in a process of its own.
var benchBinary struct {
	once sync.Once
	path string
	err  error
}

func emulatorBinary(b *testing.B) string {
	benchBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "dgtbridge-bench")
		if err != nil {
			benchBinary.err = err
			return
		}
		benchBinary.path = filepath.Join(dir, "dgtbridge")
		if out, err := exec.Command("go", "build", "-o", benchBinary.path, "../cmd/dgtbridge").CombinedOutput(); err != nil {
			benchBinary.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if benchBinary.err != nil {
		b.Fatal(benchBinary.err)
	}
	return benchBinary.path
}

// startEmulator runs `dgtbridge emulate --boards n --bus 32` and returns
// each line's device path with its boards' bus addresses.
func startEmulator(b *testing.B, n int) (map[string][]uint16, func()) {
	cmd := exec.Command(emulatorBinary(b), "emulate", "--boards", fmt.Sprint(n), "--bus", "32", "--move-every", "1s-3s")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	stop := func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }
	lines := map[string][]uint16{}
	sc := bufio.NewScanner(out)
	for got := 0; got < n && sc.Scan(); {
		var port string
		var addr uint16
		var round, board int
		if _, err := fmt.Sscanf(strings.TrimSpace(sc.Text()), "- {port: %s bus_address: %d, round: %d, board: %d}", &port, &addr, &round, &board); err == nil {
			port = strings.TrimSuffix(port, ",")
			lines[port] = append(lines[port], addr)
			got++
		}
	}
	go io.Copy(io.Discard, out)
	return lines, stop
}

// BenchmarkBusLines polls emulated 32-board bus lines, served by
// `dgtbridge emulate --boards N --bus 32` in another process on
// pseudo-terminals (the wire modelled at 9600 baud both ways, boards moving
// every 1-3 s), through openTTY and through go.bug.st/serial. After 15 s
// for finding and reading the boards it measures 20 s and reports, per
// line: the daemon side's CPU time per second, the bytes per second both
// ways, the longest steady polling round (every board polled once), the
// longest steady interval between two polls of one board, and the events
// per second. Run it alone with -benchtime 1x
// (it takes 35 s per case; under -short, CI's smoke run, 5 s and no
// meaningful figure).
func BenchmarkBusLines(b *testing.B) {
	for _, lines := range []int{1, 4} {
		for _, tc := range []struct {
			name string
			open func(string, int) (io.ReadWriteCloser, error)
		}{
			{"poller", openTTY},
			{"go-serial", openGoSerial},
		} {
			b.Run(fmt.Sprintf("%s/lines=%d", tc.name, lines), func(b *testing.B) {
				for b.Loop() {
					benchLines(b, lines, tc.open)
				}
			})
		}
	}
}

func benchLines(b *testing.B, lines int, open func(string, int) (io.ReadWriteCloser, error)) {
	paths, stop := startEmulator(b, 32*lines)
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var buses []*bus.Bus
	var events atomic.Int64
	for path, addrs := range paths {
		bs := bus.New(func(context.Context) (io.ReadWriteCloser, error) { return open(path, 9600) },
			bus.Settings{Addresses: addrs, NoBroadcast: true, Rediscover: time.Hour})
		buses = append(buses, bs)
		wg.Go(func() { bs.Run(ctx) })
		wg.Go(func() {
			for range bs.Events() {
				events.Add(1)
			}
		})
	}
	warm, measure := 15*time.Second, 20*time.Second
	if testing.Short() {
		warm, measure = 3*time.Second, 2*time.Second // CI's run-once smoke (-short), not the figure
	}
	time.Sleep(warm)
	stats := func() (s bus.Stats) {
		for _, bs := range buses {
			st := bs.Stats()
			s.BytesIn += st.BytesIn
			s.BytesOut += st.BytesOut
			s.Cycles += st.Cycles
			s.MaxCycle = max(s.MaxCycle, st.MaxCycle)
			s.MaxInterval = max(s.MaxInterval, st.MaxInterval)
		}
		return s
	}
	s0, cpu0, ev0, t0 := stats(), cpuTime(b), events.Load(), time.Now()
	time.Sleep(measure)
	s1, cpu1, ev1, wall := stats(), cpuTime(b), events.Load(), time.Since(t0)
	cancel()
	wg.Wait()
	per := float64(lines) * wall.Seconds()
	b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/per, "cpu-ms/s/line")
	b.ReportMetric(float64(s1.BytesIn-s0.BytesIn)/per, "bytes-in/s/line")
	b.ReportMetric(float64(s1.BytesOut-s0.BytesOut)/per, "bytes-out/s/line")
	b.ReportMetric(float64(s1.MaxCycle)/float64(time.Millisecond), "max-cycle-ms")
	b.ReportMetric(float64(s1.MaxInterval)/float64(time.Millisecond), "max-interval-ms")
	b.ReportMetric(float64(s1.Cycles-s0.Cycles)/per, "cycles/s/line")
	b.ReportMetric(float64(ev1-ev0)/per, "events/s/line")
}
