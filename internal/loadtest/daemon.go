package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// measurement is the daemon's and this process's use of the machine
// from the start of play.
type measurement struct {
	d          *daemon
	cpu0, self time.Duration
	stopRSS    func() (maxMB, endMB float64)
}

// measure starts measuring (rep.LoadAvg[0] now).
func measure(d *daemon, rep *Report) *measurement {
	m := &measurement{d: d, self: selfCPU()}
	m.cpu0, _ = d.cpu()
	rep.LoadAvg[0] = loadAvg()
	m.stopRSS = d.sampleRSS()
	return m
}

// end fills rep's CPU, load and memory figures over rep.Play.
func (m *measurement) end(rep *Report) {
	if cpu1, err := m.d.cpu(); err == nil { // not after a kill
		rep.CPUCores = (cpu1 - m.cpu0).Seconds() / rep.Play.Seconds()
	}
	rep.BoardsCPU = (selfCPU() - m.self).Seconds() / rep.Play.Seconds()
	rep.LoadAvg[1] = loadAvg()
	rep.RSSMaxMB, rep.RSSEndMB = m.stopRSS()
}

// launch writes the daemon's configuration for boards into o.Dir, starts
// the daemon and waits until every board is connected (rep.StartUp). The
// daemon it returns, also with an error, is to be stopped.
func launch(ctx context.Context, o Options, boards []*board, natsPort, httpPort int, rep *Report) (*daemon, error) {
	cfg := filepath.Join(o.Dir, "dgtbridge.yaml")
	if err := os.MkdirAll(o.Dir, 0o750); err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfg, []byte(config(o, boards, natsPort, httpPort, freePort())), 0o640); err != nil {
		return nil, err
	}
	d, err := startDaemon(o, cfg, "daemon.log")
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "daemon pid %d started: %d boards on %d lines\n", d.cmd.Process.Pid, rep.Boards, rep.Lines)
	t0 := time.Now()
	health := fmt.Sprintf("http://127.0.0.1:%d/healthz", httpPort)
	if err := waitHealthy(ctx, health, d, 5*time.Minute); err != nil {
		return d, err
	}
	rep.StartUp = time.Since(t0)
	fmt.Fprintf(o.Log, "every board connected after %v\n", rep.StartUp.Round(time.Millisecond))
	return d, nil
}

// metricsOf reads the daemon's /metrics: dgtbridge_messages_journalled_total
// by kind, and the input lag and move delay histograms (p50, p99 as
// bucket upper bounds).
func metricsOf(port int, r *Report) {
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/metrics", port))
	if err != nil {
		return
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	type bucket struct{ le, n float64 }
	hist := map[string][]bucket{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		for _, h := range []string{"dgtbridge_input_lag_seconds", "dgtbridge_move_delay_seconds"} {
			rest, ok := strings.CutPrefix(line, h+`_bucket{le="`)
			if !ok {
				continue
			}
			le, v, _ := strings.Cut(rest, `"} `)
			b := bucket{le: -1}
			if f, err := strconv.ParseFloat(le, 64); err == nil {
				b.le = f
			}
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				b.n = f
				hist[h] = append(hist[h], b)
			}
		}
		rest, ok := strings.CutPrefix(line, `dgtbridge_messages_journalled_total{kind="`)
		if !ok {
			continue
		}
		kind, v, _ := strings.Cut(rest, `"} `)
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			out[kind] = f
		}
	}
	r.Messages = out
	q := func(bs []bucket, p float64) time.Duration {
		if len(bs) == 0 || bs[len(bs)-1].n == 0 {
			return 0
		}
		for _, b := range bs { // cumulative counts
			if b.n >= p*bs[len(bs)-1].n {
				if b.le < 0 {
					return -1 // above the last bound
				}
				return time.Duration(b.le * float64(time.Second))
			}
		}
		return 0
	}
	for h, dst := range map[string]*[2]time.Duration{"dgtbridge_input_lag_seconds": &r.InputLag, "dgtbridge_move_delay_seconds": &r.MoveDelay} {
		*dst = [2]time.Duration{q(hist[h], 0.5), q(hist[h], 0.99)}
	}
}

func freePort() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// config is the daemon's configuration: every board on its port (and bus
// address), recording on, the embedded server on a loopback port, the
// admin HTTP listener on adminPort and the public one on publicPort.
func config(o Options, boards []*board, natsPort, adminPort, publicPort int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "data_dir: %q\nrecord: true\n", filepath.Join(o.Dir, "data"))
	fmt.Fprintf(&b, "nats:\n  prefix: dgt\n  embedded:\n    listen: 127.0.0.1:%d\n", natsPort)
	fmt.Fprintf(&b, "http:\n  listen: 127.0.0.1:%d\n  admin_listen: 127.0.0.1:%d\n", publicPort, adminPort)
	if o.Pprof {
		b.WriteString("  pprof: true\n")
	}
	fmt.Fprintf(&b, "event:\n  id: load\n  name: \"Load test\"\n  time_control: \"5400+30\"\n  public_delay: %s\n", o.PublicDelay)
	b.WriteString("boards:\n")
	for _, bd := range boards {
		fmt.Fprintf(&b, "  - {port: %q, bus_address: %d, round: 1, board: %d, white: \"White %d\", black: \"Black %d\"}\n",
			bd.path, bd.addr, bd.n, bd.n, bd.n)
	}
	b.WriteString(o.ExtraConfig)
	return b.String()
}

// daemon is the dgtbridge process under test.
type daemon struct {
	cmd  *exec.Cmd
	done chan error
	log  *os.File
}

func startDaemon(o Options, cfg, logName string) (*daemon, error) {
	logf, err := os.Create(filepath.Join(o.Dir, logName))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.Daemon, "run", "--config", cfg)
	cmd.Stdout, cmd.Stderr = logf, logf
	if len(o.DaemonEnv) > 0 {
		cmd.Env = append(os.Environ(), o.DaemonEnv...)
	}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("loadtest: start %s: %w", o.Daemon, err)
	}
	d := &daemon{cmd: cmd, done: make(chan error, 1), log: logf}
	go func() { d.done <- cmd.Wait() }()
	return d, nil
}

// stop ends the daemon (SIGTERM, SIGKILL after 30 s); nil: nothing.
func (d *daemon) stop() {
	if d == nil {
		return
	}
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(30 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
	}
	d.log.Close()
}

// liveDaemon is the daemon under test: the one started first, then,
// after a kill (Options.Kill), the one started again.
type liveDaemon struct {
	mu sync.Mutex
	d  *daemon
}

func (l *liveDaemon) set(d *daemon) {
	l.mu.Lock()
	l.d = d
	l.mu.Unlock()
}

func (l *liveDaemon) current() *daemon {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.d
}

// killAndRestart kills the live daemon o.Kill after start (SIGKILL: no
// drain, nothing saved on the way out), starts it again o.Down later on
// the same configuration and data, and waits until every board is
// connected again.
func killAndRestart(ctx context.Context, o Options, live *liveDaemon, start time.Time, httpPort int) *Outage {
	out := &Outage{}
	select {
	case <-ctx.Done():
		out.err = ctx.Err()
		return out
	case <-time.After(time.Until(start.Add(o.Kill))):
	}
	d := live.current()
	live.set(nil)
	out.killedAt = time.Now()
	_ = d.cmd.Process.Kill()
	<-d.done
	d.log.Close()
	out.Killed = out.killedAt.Sub(start)
	fmt.Fprintf(o.Log, "daemon killed (SIGKILL) %v after the games began; started again in %v\n", out.Killed.Round(time.Millisecond), o.Down)
	select {
	case <-ctx.Done():
		out.err = ctx.Err()
		return out
	case <-time.After(o.Down):
	}
	nd, err := startDaemon(o, filepath.Join(o.Dir, "dgtbridge.yaml"), "daemon-restarted.log")
	if err != nil {
		out.err = err
		return out
	}
	out.restartAt = time.Now()
	out.Down = out.restartAt.Sub(out.killedAt)
	live.set(nd)
	if err := waitHealthy(ctx, fmt.Sprintf("http://127.0.0.1:%d/healthz", httpPort), nd, 5*time.Minute); err != nil {
		out.err = fmt.Errorf("loadtest: the daemon started again after the kill: %w", err)
		return out
	}
	out.backAt = time.Now()
	out.Back = out.backAt.Sub(out.killedAt)
	fmt.Fprintf(o.Log, "every board connected again %v after the kill\n", out.Back.Round(time.Millisecond))
	return out
}

// cpu is the daemon's user+system CPU time so far (/proc/<pid>/stat).
func (d *daemon) cpu() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", d.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0, errors.New("loadtest: short /proc stat")
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100, nil // USER_HZ is 100 on Linux
}

// selfCPU is this process's user+system CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loadAvg is the machine's 1-minute load average (/proc/loadavg; 0 when
// unknown).
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b) + " 0")[0], 64)
	return f
}

// rss is the daemon's resident set in MB (/proc/<pid>/status VmRSS).
func (d *daemon) rss() float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", d.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// sampleRSS samples the RSS every half second until the returned function
// is called; it returns the largest and the last sample.
func (d *daemon) sampleRSS() func() (maxMB, lastMB float64) {
	stop := make(chan struct{})
	res := make(chan [2]float64, 1)
	go func() {
		var hi, last float64
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			last = d.rss()
			hi = max(hi, last)
			select {
			case <-stop:
				res <- [2]float64{hi, last}
				return
			case <-t.C:
			}
		}
	}()
	return func() (float64, float64) {
		close(stop)
		r := <-res
		return r[0], r[1]
	}
}

func waitHealthy(ctx context.Context, url string, d *daemon, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last string
	for time.Now().Before(deadline) {
		select {
		case err := <-d.done:
			return fmt.Errorf("loadtest: the daemon exited: %v (see daemon.log)", err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
		resp, err := http.Get(url)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		last = string(b)
	}
	return fmt.Errorf("loadtest: not every board connected after %v: %.500s", timeout, last)
}

func fetchProfile(ctx context.Context, port int, d time.Duration, file string) error {
	return fetch(ctx, fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/profile?seconds=%d", port, int(d.Seconds())), file)
}

// fetch writes what url returns to file.
func fetch(ctx context.Context, url, file string) error {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, resp.Body)
	return errors.Join(err, f.Close())
}
