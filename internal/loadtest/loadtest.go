// Package loadtest measures a dgtbridge daemon under the load of a hall:
// emulated DGT boards on pseudo-terminals (on bus lines of 32, as halls
// cable them, or alone), each playing a game with a move every interval,
// read by a daemon started as its own process (recording on, data on the
// disk given), and a subscriber that checks every move and times it.
//
// The report gives the moves lost, wrong and duplicated, the alerts raised
// on these clean games, the daemon's own delay, how often each board was
// polled, and the daemon's memory and CPU.
//
// The daemon's own delay of a move is timed from the first board answer
// from which a host can read the move to the MoveEvent's arrival on NATS
// (Report.Own): the answer that completed the move, or, when that answer
// was also the first to hold the press, the first answer the board gave a
// full scan later (only then can a host tell that the piece the board
// reported last stayed where it was: the lever often beats the board's
// scan of the last square, and a sliding hand may carry a piece on); a
// MoveEvent that came before that later answer (a piece that could not
// have gone on) is timed from the completing answer.
//
// The delay is also timed from the answer that completed the move alone
// (Report.Delay), the waits for a later look included. A move is complete in
// the first answer (a bus board's MSG_BUS_UPDATE, or any message of a board
// alone on its port) that holds both its clock press and the scan that
// reported its last square change: the lever often beats the scan, and the
// daemon cannot read the move before. The scan's time comes from the
// emulator's scan model ([emu.Scan]); which answer holds what the board had
// seen at a moment, from the time its poll reached the board
// ([emu.Emulator.ChangesRead]). Three more figures are reported beside it:
// the delay from the press itself; from the first answer that held the
// press (one poll cycle more for the moves whose last square change the
// board had not scanned yet); and from the board's last answer before the
// MoveEvent, the newest the daemon had read of the board: for a move its
// completing answer could not settle (a piece a sliding hand may have
// carried on after the board's last scan), the daemon waits for a later
// look at the board, and this figure leaves that wait out.
package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
)

// Options configure a load test.
type Options struct {
	// Boards is how many boards play.
	Boards int
	// Bus is how many boards share a DGT bus line (32 in a hall); 0 or 1:
	// each board alone on its port.
	Bus int
	// Interval is the time between two plies of a board (default 2 s).
	Interval time.Duration
	// Plies is the length of every game (default 40).
	Plies int
	// Seed chooses the games (default 1).
	Seed uint64
	// Daemon is the dgtbridge binary to start (`run --config`).
	Daemon string
	// Dir holds the daemon's configuration, data and log (on the disk
	// to test: the daemon records and saves there).
	Dir string
	// PublicDelay is event.public_delay (default 15 min, the contract's
	// example: the delayed copies wait in the outbox meanwhile).
	PublicDelay time.Duration
	// Profile, when set, is a file for a CPU profile of the daemon taken
	// while the games are played (needs a daemon with pprof on: Pprof).
	Profile string
	// Pprof turns the daemon's http.pprof on (for Profile).
	Pprof bool
	// ExtraConfig is YAML appended to the daemon's configuration.
	ExtraConfig string
	// DaemonEnv is added to the daemon's environment (KEY=VALUE, e.g.
	// GOMEMLIMIT=350MiB), after this process's own.
	DaemonEnv []string
	// Log receives progress lines (nil: none).
	Log io.Writer
}

// Report is what a load test measured.
type Report struct {
	Boards, Lines           int
	Expected, Received      int
	Lost, Wrong, Duplicated int
	Alerts                  map[string]int    // by kind
	AlertSamples            map[string]string // the first alert of each kind
	FalseAlerts             int               // alerts that clean games must not raise
	// Delay is the daemon's own delay: from the board's answer that
	// completed the move to the MoveEvent. FromAnswer is from the first
	// answer that held the press, FromPress from the press itself.
	Delay, FromAnswer, FromPress, Polls Dist
	// FromLast is from the board's last answer before the MoveEvent: the
	// newest the daemon had read of the board when it published (for a
	// move the completing answer could not settle, the piece of a hand
	// that might still slide on, the answer that settled it), i.e. the
	// daemon's own processing and ticking, without the wait for the
	// board's next look.
	FromLast Dist
	// Own is the daemon's own delay: from the first answer that let it
	// read the move to the MoveEvent. That answer is the completing one,
	// unless the completing answer was also the first to hold the press:
	// whether the piece the board reported last stayed there (the lever
	// often beats the scan of the last square; a sliding hand may carry
	// the piece on) shows only in an answer the board gave a full scan
	// later, and the first such answer is the reference, except for a
	// MoveEvent that came before it (a move whose piece could not have
	// gone on, read on the completing answer and timed from there).
	Own Dist
	// Later is how many moves were completed in a later answer than the
	// one that held their press (the lever before the last scan);
	// Unattributed how many MoveEvents came before the answer that, by the
	// emulator's scan model, completed their move (none when the model
	// holds: they are left out of Delay).
	Later, Unattributed int
	PlySpacing          time.Duration // the scripts' time between two plies of a board
	RSSMaxMB, RSSEndMB  float64
	CPUCores            float64 // the daemon's CPU time / wall time while playing
	Play                time.Duration
	// Messages is what the daemon journalled for NATS, by kind (public
	// copies included), from its /metrics (empty for a daemon without).
	Messages map[string]float64
	StartUp  time.Duration // daemon start to every board connected
	// Mismatches lists, per game with a move lost or wrong, the moves
	// played and the moves published (ply order; "-" for a ply never
	// published), one game a line, sorted by board.
	Mismatches []string
	// InputLag and MoveDelay are the daemon's own histograms (p50, p99,
	// as bucket bounds; -1: above the last): from the read of an input to
	// its handling, and from the read that completed a move to its
	// hand-off (record saved).
	InputLag, MoveDelay [2]time.Duration
	// BoardsCPU is this process's CPU (the emulated boards, the
	// subscriber) over the play time, in cores; LoadAvg the machine's
	// 1-minute load average when play began and ended.
	BoardsCPU float64
	LoadAvg   [2]float64
}

// Dist summarises durations.
type Dist struct {
	N             int
	P50, P99, Max time.Duration
}

func dist(d []time.Duration) Dist {
	if len(d) == 0 {
		return Dist{}
	}
	slices.Sort(d)
	return Dist{N: len(d), P50: d[len(d)/2], P99: d[(len(d)*99)/100], Max: d[len(d)-1]}
}

// String is the dist in milliseconds.
func (d Dist) String() string {
	ms := func(x time.Duration) string { return strconv.FormatFloat(float64(x.Microseconds())/1000, 'f', 1, 64) }
	return fmt.Sprintf("p50 %s ms, p99 %s ms, max %s ms (n=%d)", ms(d.P50), ms(d.P99), ms(d.Max), d.N)
}

// ruleAlerts are the alert kinds a random legal game may rightly raise.
var ruleAlerts = map[string]bool{"checkmate": true, "stalemate": true, "insufficient_material": true,
	"threefold_claimable": true, "fivefold": true, "fifty_claimable": true, "seventy_five": true, "dead_position": true}

func (o *Options) defaults() error {
	if o.Boards < 1 {
		return errors.New("loadtest: at least one board")
	}
	if o.Interval <= 0 {
		o.Interval = 2 * time.Second
	}
	if o.Plies <= 0 {
		o.Plies = 40
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.PublicDelay == 0 {
		o.PublicDelay = 15 * time.Minute
	}
	if o.Daemon == "" || o.Dir == "" {
		return errors.New("loadtest: Daemon and Dir are required")
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	return nil
}

// Run plays the games and returns the report.
func Run(ctx context.Context, o Options) (Report, error) {
	if err := o.defaults(); err != nil {
		return Report{}, err
	}
	var rep Report
	games := make([]game, o.Boards)
	for i := range games {
		g, err := randomGame(o.Seed*100003+uint64(i), o.Plies, o.Interval)
		if err != nil {
			return rep, err
		}
		games[i] = g
	}
	rep.PlySpacing = games[0].script.Duration() / time.Duration(len(games[0].ucis))

	var wg sync.WaitGroup
	defer wg.Wait() // after cancel (deferred calls run last first)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	polls := newPollLog()
	boards, err := serveLines(ctx, &wg, games, o.Bus, polls)
	if err != nil {
		return rep, err
	}
	rep.Boards = len(boards)
	rep.Lines = (len(boards) + max(o.Bus, 1) - 1) / max(o.Bus, 1)

	// httpPort is the admin listener's (health with its reasons, metrics,
	// profiles); the public listener runs on its own port, as in a hall.
	natsPort, httpPort, publicPort, err := freePort(), freePort(), freePort(), error(nil)
	cfg := filepath.Join(o.Dir, "dgtbridge.yaml")
	if err := os.MkdirAll(o.Dir, 0o750); err != nil {
		return rep, err
	}
	if err := os.WriteFile(cfg, []byte(config(o, boards, natsPort, httpPort, publicPort)), 0o640); err != nil {
		return rep, err
	}
	d, err := startDaemon(o, cfg)
	if err != nil {
		return rep, err
	}
	defer d.stop()
	fmt.Fprintf(o.Log, "daemon pid %d started: %d boards on %d lines\n", d.cmd.Process.Pid, rep.Boards, rep.Lines)

	t0 := time.Now()
	health := fmt.Sprintf("http://127.0.0.1:%d/healthz", httpPort)
	if err := waitHealthy(ctx, health, d, 5*time.Minute); err != nil {
		return rep, err
	}
	rep.StartUp = time.Since(t0)
	fmt.Fprintf(o.Log, "every board connected after %v\n", rep.StartUp.Round(time.Millisecond))

	nc, err := nats.Connect(fmt.Sprintf("nats://127.0.0.1:%d", natsPort))
	if err != nil {
		return rep, fmt.Errorf("loadtest: subscribe: %w", err)
	}
	defer nc.Close()
	col := newCollector(boards)
	col.polls = polls
	if _, err := nc.Subscribe("dgt.game.*.*.*.move", func(m *nats.Msg) { col.move(time.Now(), m.Data) }); err != nil {
		return rep, err
	}
	if _, err := nc.Subscribe("dgt.arbiter.*.*.*.alert", col.alert); err != nil {
		return rep, err
	}
	if err := nc.Flush(); err != nil {
		return rep, err
	}

	// The games start spread over one interval, so the moves come evenly.
	polls.start()
	start := time.Now().Add(500 * time.Millisecond)
	var end time.Time
	for i, b := range boards {
		col.setStart(b, start.Add(time.Duration(i)*o.Interval/time.Duration(len(boards))))
		b.e.Schedule(b.start, b.game.script)
		if e := b.start.Add(b.game.script.Duration()); e.After(end) {
			end = e
		}
	}
	cpu0, _ := d.cpu()
	self0 := selfCPU()
	rep.LoadAvg[0] = loadAvg()
	stopSampling := d.sampleRSS()
	var prof error
	if o.Profile != "" {
		profWin := min(30*time.Second, max(time.Until(end)-time.Second, time.Second))
		go func() { prof = fetchProfile(ctx, httpPort, profWin, o.Profile) }()
	}
	want := 0
	for _, b := range boards {
		want += len(b.game.ucis)
	}
	rep.Expected = want
	fmt.Fprintf(o.Log, "playing %d plies, last one due in %v\n", want, time.Until(end).Round(time.Second))
	deadline := time.NewTimer(time.Until(end) + 60*time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
wait:
	for {
		select {
		case <-col.done:
			break wait
		case <-deadline.C:
			break wait
		case <-ctx.Done():
			return rep, ctx.Err()
		case <-tick.C:
			fmt.Fprintf(o.Log, "%d of %d moves\n", col.count(), want)
		}
	}
	rep.Play = time.Since(start)
	if o.Profile != "" {
		// The heap at the end of play, beside the CPU profile.
		if err := fetch(ctx, fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/heap", httpPort), o.Profile+".heap"); err != nil {
			fmt.Fprintf(o.Log, "heap profile: %v\n", err)
		}
	}
	cpu1, _ := d.cpu()
	rep.CPUCores = (cpu1 - cpu0).Seconds() / rep.Play.Seconds()
	rep.BoardsCPU = (selfCPU() - self0).Seconds() / rep.Play.Seconds()
	rep.LoadAvg[1] = loadAvg()
	rep.RSSMaxMB, rep.RSSEndMB = stopSampling()
	// A little more, so that duplicates arriving late show.
	time.Sleep(2 * time.Second)
	col.report(&rep)
	rep.Polls = dist(polls.take())
	if err := col.writeAlerts(filepath.Join(o.Dir, "alerts.jsonl")); err != nil {
		fmt.Fprintf(o.Log, "alerts: %v\n", err)
	}
	if err := col.writeTimings(filepath.Join(o.Dir, "moves.csv"), start); err != nil {
		fmt.Fprintf(o.Log, "moves: %v\n", err)
	}
	if len(rep.Mismatches) > 0 {
		f := filepath.Join(o.Dir, "mismatches.txt")
		if err := os.WriteFile(f, []byte(strings.Join(rep.Mismatches, "\n")+"\n"), 0o640); err != nil {
			fmt.Fprintf(o.Log, "mismatches: %v\n", err)
		} else {
			fmt.Fprintf(o.Log, "games with moves lost or wrong: %s\n", f)
		}
	}
	metricsOf(httpPort, &rep)
	if prof != nil {
		fmt.Fprintf(o.Log, "profile: %v\n", prof)
	}
	return rep, nil
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

func startDaemon(o Options, cfg string) (*daemon, error) {
	logf, err := os.Create(filepath.Join(o.Dir, "daemon.log"))
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

func (d *daemon) stop() {
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(30 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
	}
	d.log.Close()
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

// collector checks the MoveEvents and alerts as they arrive.
type collector struct {
	mu         sync.Mutex
	games      map[string]*board
	seen       map[string]int // game.ply.revision -> deliveries
	got        map[string]map[int]string
	delay      []time.Duration // from the answer that completed the move
	fromAnswer []time.Duration // from the first answer that held the press
	fromLast   []time.Duration // from the board's last answer before the MoveEvent
	own        []time.Duration // from the answer that let the daemon read the move
	press      []time.Duration // from the press
	later      int
	unattrib   int
	timings    []timing
	polls      *pollLog // clock reads (nil: not noted)
	alerts     map[string]int
	sample     map[string]string
	all        [][]byte // every alert as received
	n          int
	want       int
	done       chan struct{}
}

func newCollector(boards []*board) *collector {
	c := &collector{games: map[string]*board{}, seen: map[string]int{},
		got: map[string]map[int]string{}, alerts: map[string]int{}, sample: map[string]string{}, done: make(chan struct{})}
	for _, b := range boards {
		g := fmt.Sprintf("load.1.%d", b.n)
		c.games[g] = b
		c.got[g] = map[int]string{}
		c.want += len(b.game.ucis)
	}
	return c
}

// setStart sets when b's script starts.
func (c *collector) setStart(b *board, t time.Time) {
	c.mu.Lock()
	b.start = t
	c.mu.Unlock()
}

func (c *collector) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

type moveEvent struct {
	Game     string    `json:"game"`
	Ply      int       `json:"ply"`
	UCI      string    `json:"uci"`
	At       time.Time `json:"at"`
	Revision int       `json:"revision"`
}

// timing is when one move was pressed, held in an answer, completed and
// published (zero: not known).
type timing struct {
	board, ply                             int
	press, first, whole, lastScan, arrived time.Time
	clockRead                              time.Time // the board's first clock read after whole
	firstChange                            time.Time // the answer holding the ply's first square change
	last                                   time.Time // the board's last answer before the MoveEvent
	readable                               time.Time // the answer that let the daemon read the move
}

// move takes a MoveEvent that arrived at now: it counts it and times it
// from the press, from the first answer that held the press, and from the
// answer that completed the move (see the package doc).
func (c *collector) move(now time.Time, data []byte) {
	var ev moveEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := fmt.Sprintf("%s.%d.%d", ev.Game, ev.Ply, ev.Revision)
	c.seen[key]++
	if c.seen[key] > 1 {
		return
	}
	b := c.games[ev.Game]
	if b == nil {
		return
	}
	c.got[ev.Game][ev.Ply] = ev.UCI
	if ev.Ply >= 1 && ev.Ply <= len(b.game.press) {
		pressed := b.pressed(ev.Ply)
		c.press = append(c.press, now.Sub(pressed))
		began, scanned := b.scans(ev.Ply)
		firstChange, _ := b.answerHolding(began)
		first, ok1 := b.answerHolding(pressed)
		whole, ok2 := b.answerHolding(later(pressed, scanned))
		var clk time.Time
		if c.polls != nil && b.addr != 0 && ok2 {
			clk = c.polls.clockReadAfter(b.addr, whole)
		}
		last, ok3 := b.lastAnswer(now)
		var readAt time.Time
		if w, r, ok, has := b.readable(pressed, scanned); ok && !w.sent.After(now) {
			readAt = r.sent
			if !has || now.Before(r.sent) { // read on its completing answer
				readAt = w.sent
			}
			c.own = append(c.own, now.Sub(readAt))
		}
		c.timings = append(c.timings, timing{board: b.n, ply: ev.Ply, press: pressed, first: first, whole: whole, lastScan: scanned, arrived: now, clockRead: clk, firstChange: firstChange, last: last, readable: readAt})
		if ok2 && ok3 && !whole.After(now) {
			c.fromLast = append(c.fromLast, now.Sub(last))
		}
		if ok1 && !first.After(now) {
			c.fromAnswer = append(c.fromAnswer, now.Sub(first))
		}
		if ok2 && !whole.After(now) {
			c.delay = append(c.delay, now.Sub(whole))
			if ok1 && whole.After(first) {
				c.later++
			}
		} else {
			c.unattrib++
		}
	}
	c.n++
	if c.n == c.want {
		close(c.done)
	}
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func (c *collector) alert(m *nats.Msg) {
	var a struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(m.Data, &a) != nil {
		return
	}
	c.mu.Lock()
	c.all = append(c.all, m.Data)
	c.alerts[a.Kind]++
	if _, ok := c.sample[a.Kind]; !ok {
		c.sample[a.Kind] = string(m.Data)
	}
	c.mu.Unlock()
}

func (c *collector) report(r *Report) {
	c.mu.Lock()
	defer c.mu.Unlock()
	type mm struct {
		n    int
		line string
	}
	var bad []mm
	for g, b := range c.games {
		got := c.got[g]
		ok0 := true
		for i, u := range b.game.ucis {
			switch v, ok := got[i+1]; {
			case !ok:
				r.Lost++
				ok0 = false
			case v != u:
				r.Wrong++
				ok0 = false
			default:
				r.Received++
			}
		}
		for p := range got {
			if p < 1 || p > len(b.game.ucis) {
				r.Wrong++
				ok0 = false
			}
		}
		if !ok0 {
			var pub []string
			for p := 1; p <= max(len(b.game.ucis), slices.Max(append(slices.Collect(maps.Keys(got)), 0))); p++ {
				v, ok := got[p]
				if !ok {
					v = "-"
				}
				pub = append(pub, v)
			}
			bad = append(bad, mm{b.n, fmt.Sprintf("%s played %s\n%s published %s", g, strings.Join(b.game.ucis, " "), g, strings.Join(pub, " "))})
		}
	}
	slices.SortFunc(bad, func(a, b mm) int { return a.n - b.n })
	for _, x := range bad {
		r.Mismatches = append(r.Mismatches, x.line)
	}
	for _, n := range c.seen {
		r.Duplicated += n - 1
	}
	r.Alerts, r.AlertSamples = c.alerts, c.sample
	for k, n := range c.alerts {
		if !ruleAlerts[k] {
			r.FalseAlerts += n
		}
	}
	r.Delay = dist(c.delay)
	r.FromAnswer = dist(c.fromAnswer)
	r.FromLast = dist(c.fromLast)
	r.Own = dist(c.own)
	r.FromPress = dist(c.press)
	r.Later, r.Unattributed = c.later, c.unattrib
}

// writeTimings writes every move's times, one a line (CSV, milliseconds
// from t0): board, ply, press, last square change scanned, first answer
// holding the press, answer that completed the move, MoveEvent, the
// board's first clock read (BUS_SEND_CLK) after that answer, the answer
// holding the ply's first square change, the board's last answer before
// the MoveEvent, the answer that let the daemon read the move (Own).
func (c *collector) writeTimings(file string, t0 time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ms := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return strconv.FormatFloat(float64(t.Sub(t0).Microseconds())/1000, 'f', 1, 64)
	}
	b := []byte("board,ply,press,last_scan,first_answer,completing_answer,move_event,clock_read,first_change_answer,last_answer,readable_answer\n")
	for _, x := range c.timings {
		b = fmt.Appendf(b, "%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", x.board, x.ply, ms(x.press), ms(x.lastScan), ms(x.first), ms(x.whole), ms(x.arrived), ms(x.clockRead), ms(x.firstChange), ms(x.last), ms(x.readable))
	}
	return os.WriteFile(file, b, 0o640)
}

// writeAlerts writes every alert received, one JSON object a line.
func (c *collector) writeAlerts(file string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b []byte
	for _, a := range c.all {
		b = append(append(b, a...), '\n')
	}
	return os.WriteFile(file, b, 0o640)
}

// Print writes the report, one figure a line.
func (r Report) Print(w io.Writer) {
	fmt.Fprintf(w, "boards %d on %d lines, start-up %v, play %v (a ply every %v per board)\n",
		r.Boards, r.Lines, r.StartUp.Round(time.Millisecond), r.Play.Round(time.Second), r.PlySpacing.Round(10*time.Millisecond))
	fmt.Fprintf(w, "moves: %d expected, %d right, %d lost, %d wrong, %d duplicated\n", r.Expected, r.Received, r.Lost, r.Wrong, r.Duplicated)
	kinds := make([]string, 0, len(r.Alerts))
	for k := range r.Alerts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, r.Alerts[k]))
	}
	fmt.Fprintf(w, "alerts: %d false (%s)\n", r.FalseAlerts, strings.Join(parts, ", "))
	for _, k := range kinds {
		if !ruleAlerts[k] {
			fmt.Fprintf(w, "  first %s: %.400s\n", k, r.AlertSamples[k])
		}
	}
	fmt.Fprintf(w, "daemon's own delay (the first answer that let it read the move -> MoveEvent): %v\n", r.Own)
	fmt.Fprintf(w, "daemon's delay from the board's answer that completed the move (-> MoveEvent): %v\n", r.Delay)
	fmt.Fprintf(w, "  moves completed in a later answer than their press's (lever before the last scan): %d of %d", r.Later, r.Delay.N)
	if r.Unattributed > 0 {
		fmt.Fprintf(w, "; MoveEvents before the answer that completed their move (left out): %d", r.Unattributed)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "the board's last answer before the MoveEvent -> MoveEvent (processing, without waits for the board's next look): %v\n", r.FromLast)
	fmt.Fprintf(w, "first answer holding the press -> MoveEvent: %v\n", r.FromAnswer)
	fmt.Fprintf(w, "press -> MoveEvent: %v\n", r.FromPress)
	fmt.Fprintf(w, "poll interval per board: %v\n", r.Polls)
	bound := func(d time.Duration) string {
		if d < 0 {
			return "> 30s"
		}
		return "≤ " + d.String()
	}
	fmt.Fprintf(w, "daemon's metrics (bucket bounds): input lag p50 %s, p99 %s; read → move handed off p50 %s, p99 %s\n",
		bound(r.InputLag[0]), bound(r.InputLag[1]), bound(r.MoveDelay[0]), bound(r.MoveDelay[1]))
	fmt.Fprintf(w, "daemon RSS: max %.0f MB, end %.0f MB; CPU %.2f cores (the emulated boards' process: %.2f cores); load average %.1f at the start of play, %.1f at its end\n",
		r.RSSMaxMB, r.RSSEndMB, r.CPUCores, r.BoardsCPU, r.LoadAvg[0], r.LoadAvg[1])
	if len(r.Messages) > 0 && r.Received > 0 {
		var total float64
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(r.Messages)) {
			total += r.Messages[k]
			parts = append(parts, fmt.Sprintf("%s %.2f", k, r.Messages[k]/float64(r.Received)))
		}
		fmt.Fprintf(w, "messages journalled per move: %.2f (%s)\n", total/float64(r.Received), strings.Join(parts, ", "))
	}
}
