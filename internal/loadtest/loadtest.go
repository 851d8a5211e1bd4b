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
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	// Kill, when positive, is how long after the games start the daemon
	// is killed (SIGKILL: no drain, no last save); it is started again
	// Down later (default 15 s) on the same data while the boards play
	// on. The report then has an Outage.
	Kill, Down time.Duration
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
	// Outage is the kill and restart of a run with Options.Kill (nil
	// without); FromPress and the other delays then leave out the moves
	// it held up (Outage.Held).
	Outage *Outage
}

// Outage is what a kill and restart did to the moves. A move is held up
// by it when its MoveEvent had not arrived when the daemon was killed
// and its press came before the restarted daemon had every board
// connected again: those moves wait for the restart by nature (the
// daemon rebuilds them from the board's log). Every other move of the
// run is timed as usual.
type Outage struct {
	Killed  time.Duration // after the games began
	Down    time.Duration // from the kill to the new daemon's start
	Back    time.Duration // from the kill to every board connected again
	Held    int           // moves held up by the outage
	Caught  Dist          // their MoveEvents, from the new daemon's start
	Missing int           // of those, never published

	killedAt, restartAt, backAt time.Time
	err                         error // the restart failed
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
	// The kill's goroutine writes progress lines too.
	o.Log = &lockedWriter{w: o.Log}
	if o.Kill > 0 && o.Down <= 0 {
		o.Down = 15 * time.Second
	}
	return nil
}

// Run plays the games and returns the report.
func Run(ctx context.Context, o Options) (Report, error) {
	if err := o.defaults(); err != nil {
		return Report{}, err
	}
	var rep Report
	games, err := randomGames(o)
	if err != nil {
		return rep, err
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
	natsPort, httpPort := freePort(), freePort()
	var live liveDaemon
	d, err := launch(ctx, o, boards, natsPort, httpPort, &rep)
	if d != nil {
		defer func() { live.current().stop() }()
	}
	live.set(d)
	if err != nil {
		return rep, err
	}

	col := newCollector(boards)
	col.polls = polls
	nc, err := subscribe(natsPort, col)
	if err != nil {
		return rep, err
	}
	defer nc.Close()

	// The games start spread over one interval, so the moves come evenly.
	polls.start()
	start, end := schedule(boards, col, o.Interval)
	m := measure(d, &rep)
	if o.Kill > 0 && start.Add(o.Kill).After(end) {
		return rep, fmt.Errorf("loadtest: the kill %v after the games began would come after their last move (%v)", o.Kill, end.Sub(start).Round(time.Second))
	}
	outage := startOutage(ctx, o, &live, start, httpPort, col, nc)
	prof := startProfile(ctx, o, httpPort, end)
	want := 0
	for _, b := range boards {
		want += len(b.game.ucis)
	}
	rep.Expected = want
	fmt.Fprintf(o.Log, "playing %d plies, last one due in %v\n", want, time.Until(end).Round(time.Second))
	if err := awaitMoves(ctx, col, end, want, o.Log); err != nil {
		return rep, err
	}
	rep.Play = time.Since(start)
	if outage != nil {
		if rep.Outage = <-outage; rep.Outage.err != nil {
			return rep, rep.Outage.err
		}
		col.outage(rep.Outage)
	}
	m.end(&rep)
	// A little more, so that duplicates arriving late show.
	time.Sleep(2 * time.Second)
	col.report(&rep)
	rep.Polls = dist(polls.take())
	writeFiles(o, col, &rep, start)
	metricsOf(httpPort, &rep)
	prof.finish(ctx)
	return rep, nil
}

// startOutage kills and restarts the daemon in the background when
// o.Kill is set (nil channel otherwise), then reads from the streams what
// the subscriber missed meanwhile.
func startOutage(ctx context.Context, o Options, live *liveDaemon, start time.Time, httpPort int, col *collector, nc *nats.Conn) chan *Outage {
	if o.Kill <= 0 {
		return nil
	}
	outage := make(chan *Outage, 1)
	go func() {
		out := killAndRestart(ctx, o, live, start, httpPort)
		if out.err == nil {
			out.err = col.catchUp(ctx, nc)
		}
		outage <- out
	}()
	return outage
}

// profiler takes the daemon's CPU profile during play (Options.Profile).
type profiler struct {
	o        Options
	httpPort int
	done     chan error // the CPU profile's outcome (nil: no profile)
}

// startProfile starts a CPU profile of up to 30 s of play (until end).
func startProfile(ctx context.Context, o Options, httpPort int, end time.Time) *profiler {
	p := &profiler{o: o, httpPort: httpPort}
	if o.Profile == "" {
		return p
	}
	p.done = make(chan error, 1)
	win := min(30*time.Second, max(time.Until(end)-time.Second, time.Second))
	go func() { p.done <- fetchProfile(ctx, httpPort, win, o.Profile) }()
	return p
}

// finish takes the heap at the end of play, beside the CPU profile, and
// says on the log what could not be written.
func (p *profiler) finish(ctx context.Context) {
	if p.done == nil {
		return
	}
	if err := fetch(ctx, fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/heap", p.httpPort), p.o.Profile+".heap"); err != nil {
		fmt.Fprintf(p.o.Log, "heap profile: %v\n", err)
	}
	if err := <-p.done; err != nil {
		fmt.Fprintf(p.o.Log, "profile: %v\n", err)
	}
}

// schedule starts every board's game, spread over one interval so that
// the moves come evenly; end is when the last move is due.
func schedule(boards []*board, col *collector, interval time.Duration) (start, end time.Time) {
	start = time.Now().Add(500 * time.Millisecond)
	for i, b := range boards {
		col.setStart(b, start.Add(time.Duration(i)*interval/time.Duration(len(boards))))
		b.e.Schedule(b.start, b.game.script)
		if e := b.start.Add(b.game.script.Duration()); e.After(end) {
			end = e
		}
	}
	return start, end
}

// randomGames are the boards' games, one each, from o.Seed.
func randomGames(o Options) ([]game, error) {
	games := make([]game, o.Boards)
	for i := range games {
		g, err := randomGame(o.Seed*100003+uint64(i), o.Plies, o.Interval)
		if err != nil {
			return nil, err
		}
		games[i] = g
	}
	return games, nil
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
	if o := r.Outage; o != nil {
		fmt.Fprintf(w, "kill: SIGKILL %v after the games began, started again %v later, every board connected %v after the kill\n",
			o.Killed.Round(time.Millisecond), o.Down.Round(time.Millisecond), o.Back.Round(time.Millisecond))
		fmt.Fprintf(w, "  moves held up by the outage (left out of the delays above): %d, %d never published; the new daemon's start -> their MoveEvents: %v\n",
			o.Held, o.Missing, o.Caught)
	}
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

// lockedWriter is a writer several goroutines may write to, one line at
// a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
