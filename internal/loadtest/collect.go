package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// subscribe connects to the daemon's NATS server as a client and feeds
// col the moves and the alerts.
func subscribe(natsPort int, col *collector) (*nats.Conn, error) {
	nc, err := nats.Connect(fmt.Sprintf("nats://127.0.0.1:%d", natsPort))
	if err != nil {
		return nil, fmt.Errorf("loadtest: subscribe: %w", err)
	}
	_, err = nc.Subscribe("dgt.game.*.*.*.move", func(m *nats.Msg) { col.move(time.Now(), m.Data) })
	if err == nil {
		_, err = nc.Subscribe("dgt.arbiter.*.*.*.alert", col.alert)
	}
	if err == nil {
		err = nc.Flush()
	}
	if err != nil {
		nc.Close()
		return nil, err
	}
	return nc, nil
}

// awaitMoves returns once col has every move, or a minute after the last
// is due (end); it says how many came every 10 s.
func awaitMoves(ctx context.Context, col *collector, end time.Time, want int, log io.Writer) error {
	deadline := time.NewTimer(time.Until(end) + 60*time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-col.done:
			return nil
		case <-deadline.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			fmt.Fprintf(log, "%d of %d moves\n", col.count(), want)
		}
	}
}

// writeFiles writes the alerts, the moves' timings and the mismatches
// into o.Dir; a file that cannot be written is said on o.Log.
func writeFiles(o Options, col *collector, rep *Report, start time.Time) {
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
}

// collector checks the MoveEvents and alerts as they arrive.
type collector struct {
	mu         sync.Mutex
	games      map[string]*board
	seen       map[string]int // game.ply.revision -> deliveries
	got        map[string]map[int]string
	delay      []sample        // from the answer that completed the move
	fromAnswer []sample        // from the first answer that held the press
	fromLast   []sample        // from the board's last answer before the MoveEvent
	own        []sample        // from the answer that let the daemon read the move
	press      []sample        // from the press
	held       map[[2]int]bool // board, ply: moves held up by an outage, left out of the delays
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
		c.press = append(c.press, sample{now.Sub(pressed), [2]int{b.n, ev.Ply}})
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
			c.own = append(c.own, sample{now.Sub(readAt), [2]int{b.n, ev.Ply}})
		}
		c.timings = append(c.timings, timing{board: b.n, ply: ev.Ply, press: pressed, first: first, whole: whole, lastScan: scanned, arrived: now, clockRead: clk, firstChange: firstChange, last: last, readable: readAt})
		if ok2 && ok3 && !whole.After(now) {
			c.fromLast = append(c.fromLast, sample{now.Sub(last), [2]int{b.n, ev.Ply}})
		}
		if ok1 && !first.After(now) {
			c.fromAnswer = append(c.fromAnswer, sample{now.Sub(first), [2]int{b.n, ev.Ply}})
		}
		if ok2 && !whole.After(now) {
			c.delay = append(c.delay, sample{now.Sub(whole), [2]int{b.n, ev.Ply}})
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

// sample is one move's delay: board and ply say which move.
type sample struct {
	d    time.Duration
	move [2]int
}

// dist summarises samples, without the moves an outage held up.
func (c *collector) dist(ss []sample) Dist {
	var d []time.Duration
	for _, s := range ss {
		if !c.held[s.move] {
			d = append(d, s.d)
		}
	}
	return dist(d)
}

// outage finds the moves o held up (Outage's doc): o.Held, o.Missing
// and o.Caught; they are left out of the delays.
func (c *collector) outage(o *Outage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	arrived := map[[2]int]time.Time{}
	for _, t := range c.timings {
		arrived[[2]int{t.board, t.ply}] = t.arrived
	}
	c.held = map[[2]int]bool{}
	var caught []time.Duration
	for _, b := range c.games {
		for ply := 1; ply <= len(b.game.ucis); ply++ {
			at, ok := arrived[[2]int{b.n, ply}]
			if !b.pressed(ply).Before(o.backAt) || ok && !at.After(o.killedAt) {
				continue
			}
			c.held[[2]int{b.n, ply}] = true
			o.Held++
			if !ok {
				o.Missing++
				continue
			}
			caught = append(caught, max(at.Sub(o.restartAt), 0))
		}
	}
	o.Caught = dist(caught)
}

// catchUp reads, once nc is connected again after a restart of the
// daemon, the MoveEvents and alerts that the daemon published while nc
// was not (a plain subscription misses them; they are in the streams, as
// every client that reads the streams gets them), each as arrived when
// the stream stored it.
func (c *collector) catchUp(ctx context.Context, nc *nats.Conn) error {
	for nc.Status() != nats.CONNECTED {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	if err := readStream(ctx, js, "DGT_GAMES", "dgt.game.*.*.*.move", func(at time.Time, data []byte) {
		if !c.delivered(data) {
			c.move(at, data)
		}
	}); err != nil {
		return fmt.Errorf("loadtest: reading the moves after the restart: %w", err)
	}
	c.mu.Lock()
	had := map[string]bool{}
	for _, a := range c.all {
		had[string(a)] = true
	}
	c.mu.Unlock()
	return readStream(ctx, js, "DGT_ALERTS", "dgt.arbiter.*.*.*.alert", func(_ time.Time, data []byte) {
		if !had[string(data)] {
			c.alert(&nats.Msg{Data: data})
		}
	})
}

// delivered reports whether the MoveEvent data came already.
func (c *collector) delivered(data []byte) bool {
	var ev moveEvent
	if json.Unmarshal(data, &ev) != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen[fmt.Sprintf("%s.%d.%d", ev.Game, ev.Ply, ev.Revision)] > 0
}

// readStream hands every message of a stream's subject to f, with the
// time the stream stored it.
func readStream(ctx context.Context, js jetstream.JetStream, stream, subject string, f func(time.Time, []byte)) error {
	cons, err := js.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subject}})
	if err != nil {
		return err
	}
	for {
		batch, err := cons.FetchNoWait(256)
		if err != nil {
			return err
		}
		n := 0
		for m := range batch.Messages() {
			n++
			md, err := m.Metadata()
			if err != nil {
				return err
			}
			f(md.Timestamp, m.Data())
		}
		if err := batch.Error(); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
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
	r.Delay = c.dist(c.delay)
	r.FromAnswer = c.dist(c.fromAnswer)
	r.FromLast = c.dist(c.fromLast)
	r.Own = c.dist(c.own)
	r.FromPress = c.dist(c.press)
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
