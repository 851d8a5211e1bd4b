package status

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Heartbeat is how often the daemon rewrites its DaemonReport; a report
// older than StaleAfter means the daemon is not running (or cannot reach
// NATS).
const (
	Heartbeat  = 10 * time.Second
	StaleAfter = 3 * Heartbeat
)

// WriterOptions configure [Keeper.Run].
type WriterOptions struct {
	// Connect opens the NATS connection (called again after it closes).
	Connect func(ctx context.Context) (*nats.Conn, error)
	// Subjects give the bucket's name (<p>_status).
	Subjects broadcast.Subjects
	// Replicas is how many copies of the bucket a NATS cluster keeps
	// (nats.replicas, as for the streams and the games bucket; 0 or 1:
	// one).
	Replicas int
	// Config is the configuration file, for the DaemonReport.
	Config string
	// Name tells this daemon from the others writing into the same
	// bucket (several halls on one nats.prefix): its DaemonReport is the
	// key _daemon.<Name>, and at start it removes only the reports of
	// boards its own earlier report listed. "": the key _daemon. See
	// [DaemonName].
	Name string
	// Every is how often changed reports are written (default 1 s).
	Every time.Duration
	// Version and Commit are the daemon's, for the DaemonReport.
	Version, Commit string
	// Lichess, when set, gives the Lichess push of each round, written
	// with the DaemonReport.
	Lichess func() []broadcast.PushReport
	// Logger (nil: discarded).
	Logger *slog.Logger
}

// Run writes the reports to the status bucket until ctx is done: on each
// (re)connection every report (after taking the open alerts of the
// bucket's old reports, and removing reports of boards no longer
// configured), then the changed ones at most every opts.Every, and the
// DaemonReport every Heartbeat. On the way out it writes every board as
// not connected ("daemon stopped") and the DaemonReport's StoppedAt. A
// failing NATS never blocks the boards: the keeper only loses writes,
// which the next connection makes again.
func (k *Keeper) Run(ctx context.Context, o WriterOptions) error {
	if o.Every <= 0 {
		o.Every = time.Second
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	started := game.T(k.now())
	seeded := false
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		nc, err := o.Connect(ctx)
		var kv jetstream.KeyValue
		if err == nil {
			kv, err = createBucket(ctx, nc, o.Subjects, o.Replicas)
		}
		if err != nil {
			if nc != nil {
				nc.Close()
			}
			log.Warn("status bucket: not reachable", "err", err)
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 5*time.Second)
			continue
		}
		backoff = 100 * time.Millisecond
		if !seeded {
			k.seedFrom(ctx, kv, o.Name, log)
			seeded = true
		}
		k.serve(ctx, nc, kv, o, started, log)
		if ctx.Err() != nil {
			k.stop(kv, o, started, log)
		}
		nc.Close()
	}
	return nil
}

// serve writes reports on one connection until ctx is done or the
// connection closes.
func (k *Keeper) serve(ctx context.Context, nc *nats.Conn, kv jetstream.KeyValue, o WriterOptions, started game.Time, log *slog.Logger) {
	tick := time.NewTicker(o.Every)
	defer tick.Stop()
	beat := time.NewTicker(Heartbeat)
	defer beat.Stop()
	all := true
	var lastPush []broadcast.PushReport // the push state last written
	for {
		if nc.IsClosed() {
			return
		}
		reports := k.changed(all)
		if err := k.write(ctx, kv, reports); err != nil {
			log.Warn("status bucket: write failed", "err", err)
			if ctx.Err() != nil {
				return
			}
		}
		if all {
			if err := k.writeDaemon(ctx, kv, o, started, game.Time{}); err != nil {
				log.Warn("status bucket: write failed", "err", err)
			}
			all = false
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if o.Lichess != nil {
				if l := o.Lichess(); !reflect.DeepEqual(l, lastPush) {
					lastPush = l
					if err := k.writeDaemon(ctx, kv, o, started, game.Time{}); err != nil {
						log.Warn("status bucket: write failed", "err", err)
					}
				}
			}
		case <-beat.C:
			if err := k.writeDaemon(ctx, kv, o, started, game.Time{}); err != nil {
				log.Warn("status bucket: write failed", "err", err)
				all = true // write everything again once it works
			}
		}
	}
}

// write puts reports; those that fail are written again later.
func (k *Keeper) write(ctx context.Context, kv jetstream.KeyValue, reports []broadcast.BoardReport) error {
	var failed []string
	var first error
	for _, r := range reports {
		b, err := json.Marshal(r)
		if err == nil {
			_, err = kv.Put(ctx, r.BoardID, b)
		}
		if err != nil {
			failed = append(failed, r.BoardID)
			if first == nil {
				first = err
			}
		}
	}
	k.markDirty(failed)
	return first
}

func (k *Keeper) writeDaemon(ctx context.Context, kv jetstream.KeyValue, o WriterOptions, started, stopped game.Time) error {
	d := broadcast.DaemonReport{Boards: k.ids(), Config: o.Config, StartedAt: started, UpdatedAt: game.T(k.now()), StoppedAt: stopped,
		Version: o.Version, Commit: o.Commit}
	if o.Lichess != nil {
		d.Lichess = o.Lichess()
	}
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	_, err = kv.Put(ctx, daemonKey(o.Name), b)
	return err
}

// stop writes every board as not connected and the daemon as stopped,
// within a couple of seconds.
func (k *Keeper) stop(kv jetstream.KeyValue, o WriterOptions, started game.Time, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	reports := k.changed(true)
	for i := range reports {
		reports[i].Connected = false
		reports[i].Error = "the daemon stopped"
	}
	if err := k.write(ctx, kv, reports); err != nil {
		log.Warn("status bucket: final write failed", "err", err)
	}
	if err := k.writeDaemon(ctx, kv, o, started, game.T(k.now())); err != nil {
		log.Warn("status bucket: final write failed", "err", err)
	}
}

// seedFrom takes the open alerts of the bucket's reports and deletes the
// reports of boards this daemon had (its own earlier DaemonReport lists
// them) and has no longer. The reports of other daemons' boards stay.
func (k *Keeper) seedFrom(ctx context.Context, kv jetstream.KeyValue, name string, log *slog.Logger) {
	ids := k.ids()
	if e, err := kv.Get(ctx, daemonKey(name)); err == nil {
		var d broadcast.DaemonReport
		if json.Unmarshal(e.Value(), &d) == nil {
			for _, id := range d.Boards {
				if !slices.Contains(ids, id) {
					if err := kv.Delete(ctx, id); err != nil {
						log.Warn("status bucket: cannot remove an old report", "board", id, "err", err)
					}
				}
			}
		}
	}
	if name != "" {
		// The single report of a daemon of before names (_daemon): this
		// daemon's own, from before an upgrade, or rewritten within 10 s
		// by an older daemon still running.
		if _, err := kv.Get(ctx, broadcast.DaemonKey); err == nil {
			if err := kv.Delete(ctx, broadcast.DaemonKey); err != nil {
				log.Warn("status bucket: cannot remove the old daemon report", "err", err)
			}
		}
	}
	var old []broadcast.BoardReport
	for _, id := range ids {
		e, err := kv.Get(ctx, id)
		if err != nil {
			continue
		}
		var r broadcast.BoardReport
		if json.Unmarshal(e.Value(), &r) == nil {
			old = append(old, r)
		}
	}
	k.Seed(old)
}

// daemonKey is the key of the DaemonReport of the daemon called name.
func daemonKey(name string) string {
	if name == "" {
		return broadcast.DaemonKey
	}
	return broadcast.DaemonKey + "." + name
}

// isDaemonKey reports whether a key of the bucket holds a DaemonReport.
func isDaemonKey(key string) bool {
	return key == broadcast.DaemonKey || strings.HasPrefix(key, broadcast.DaemonKey+".")
}

// DaemonName is the Name of a daemon for [WriterOptions]: the host's
// name and a hash of the daemon's data directory, which tell apart the
// daemons of one prefix and stay the same when one restarts. It is a KV
// key token (letters, digits, - and _).
func DaemonName(host, dataDir string) string {
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	var b strings.Builder
	for _, r := range host {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	h := fnv.New32a()
	h.Write([]byte(dataDir))
	return fmt.Sprintf("%s-%08x", b.String(), h.Sum32())
}

// createBucket creates the status bucket, or updates it to replicas
// copies (at least one), as the daemon does on every connection.
func createBucket(ctx context.Context, nc *nats.Conn, s broadcast.Subjects, replicas int) (jetstream.KeyValue, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	return js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: s.StatusBucket(),
		Description: "dgtbridge: each configured board as the daemon sees it (dgtbridge status)", History: 1,
		Storage: jetstream.FileStorage, Replicas: max(replicas, 1)})
}

// openBucket returns the status bucket for reading; a missing bucket is an
// error that says what it means (the status command).
func openBucket(ctx context.Context, nc *nats.Conn, s broadcast.Subjects) (jetstream.KeyValue, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	kv, err := js.KeyValue(ctx, s.StatusBucket())
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("%w: no bucket %s on this NATS server: the daemon has not run here with nats.prefix %q", ErrNoDaemon, s.StatusBucket(), s.Prefix)
	}
	return kv, err
}

// bucketKeys lists the keys of the status bucket with an ordered pull
// consumer (kv.Keys makes a push consumer, which the embedded server
// refuses to staff users: a push consumer in the daemon's account could
// deliver anywhere there).
func bucketKeys(ctx context.Context, nc *nats.Conn, s broadcast.Subjects) ([]string, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	prefix := "$KV." + s.StatusBucket() + "."
	cons, err := js.OrderedConsumer(ctx, "KV_"+s.StatusBucket(), jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{prefix + ">"}, DeliverPolicy: jetstream.DeliverLastPerSubjectPolicy, HeadersOnly: true})
	if err != nil {
		return nil, fmt.Errorf("status bucket keys: %w", err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("status bucket keys: %w", err)
	}
	var keys []string
	for left := int(info.NumPending); left > 0; {
		b, err := cons.Fetch(min(left, 256), jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			return nil, fmt.Errorf("status bucket keys: %w", err)
		}
		n := 0
		for m := range b.Messages() {
			n++
			if op := m.Headers().Get("KV-Operation"); op == "DEL" || op == "PURGE" {
				continue
			}
			keys = append(keys, strings.TrimPrefix(m.Subject(), prefix))
		}
		if err := b.Error(); err != nil {
			return nil, fmt.Errorf("status bucket keys: %w", err)
		}
		if n == 0 {
			break // the bucket shrank meanwhile
		}
		left -= n
	}
	return keys, nil
}

// ErrNoDaemon: NATS holds no report of a running daemon.
var ErrNoDaemon = errors.New("no daemon status")

// Read returns the daemons' report and their boards' reports from the
// status bucket, each daemon's boards in its order. Several daemons on
// one prefix (each its own DaemonReport) are read as one: their boards
// one after the other (by daemon name), started at the earliest start,
// updated at the oldest update of those running (so that one silent
// daemon shows), stopped only when all are. A board a daemon lists
// without a report yet is returned with its id alone.
func Read(ctx context.Context, nc *nats.Conn, s broadcast.Subjects) (broadcast.DaemonReport, []broadcast.BoardReport, error) {
	var d broadcast.DaemonReport
	kv, err := openBucket(ctx, nc, s)
	if err != nil {
		return d, nil, err
	}
	keys, err := bucketKeys(ctx, nc, s)
	if err != nil {
		return d, nil, err
	}
	var reports []broadcast.DaemonReport
	slices.Sort(keys)
	for _, key := range keys {
		if !isDaemonKey(key) {
			continue
		}
		e, err := kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // deleted meanwhile
		}
		if err != nil {
			return d, nil, err
		}
		var r broadcast.DaemonReport
		if err := json.Unmarshal(e.Value(), &r); err != nil {
			return d, nil, fmt.Errorf("status bucket: daemon report %s: %w", key, err)
		}
		reports = append(reports, r)
	}
	if len(reports) == 0 {
		return d, nil, fmt.Errorf("%w: bucket %s has no daemon report yet", ErrNoDaemon, s.StatusBucket())
	}
	d = mergeDaemons(reports)
	out := make([]broadcast.BoardReport, 0, len(d.Boards))
	for _, id := range d.Boards {
		r := broadcast.BoardReport{BoardID: id, Error: "no report yet", Alerts: []broadcast.ReportAlert{}}
		if e, err := kv.Get(ctx, id); err == nil {
			if err := json.Unmarshal(e.Value(), &r); err != nil {
				return d, nil, fmt.Errorf("status bucket: board %s: %w", id, err)
			}
		} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return d, nil, err
		}
		if r.Alerts == nil {
			r.Alerts = []broadcast.ReportAlert{}
		}
		out = append(out, r)
	}
	return d, out, nil
}

// mergeDaemons reads the reports of several daemons as one (see Read);
// one report is returned as it is.
func mergeDaemons(rs []broadcast.DaemonReport) broadcast.DaemonReport {
	if len(rs) == 1 {
		return rs[0]
	}
	var d broadcast.DaemonReport
	var configs []string
	running := false
	for _, r := range rs {
		for _, id := range r.Boards {
			if !slices.Contains(d.Boards, id) {
				d.Boards = append(d.Boards, id)
			}
		}
		if r.Config != "" && !slices.Contains(configs, r.Config) {
			configs = append(configs, r.Config)
		}
		if d.StartedAt.IsZero() || r.StartedAt.Before(d.StartedAt.Time) {
			d.StartedAt = r.StartedAt
		}
		d.Lichess = append(d.Lichess, r.Lichess...)
		if r.StoppedAt.IsZero() {
			if !running || r.UpdatedAt.Before(d.UpdatedAt.Time) {
				d.UpdatedAt = r.UpdatedAt
			}
			running = true
		}
	}
	d.Config = strings.Join(configs, ", ")
	if !running {
		for _, r := range rs {
			if r.StoppedAt.After(d.StoppedAt.Time) {
				d.StoppedAt, d.UpdatedAt = r.StoppedAt, r.UpdatedAt
			}
		}
	}
	return d
}
