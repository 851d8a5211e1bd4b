package status

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"time"

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
	// Every is how often changed reports are written (default 1 s).
	Every time.Duration
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
			k.seedFrom(ctx, kv, log)
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
	d := broadcast.DaemonReport{Boards: k.ids(), Config: o.Config, StartedAt: started, UpdatedAt: game.T(k.now()), StoppedAt: stopped}
	if o.Lichess != nil {
		d.Lichess = o.Lichess()
	}
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	_, err = kv.Put(ctx, broadcast.DaemonKey, b)
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
// reports of boards no longer configured.
func (k *Keeper) seedFrom(ctx context.Context, kv jetstream.KeyValue, log *slog.Logger) {
	keys, err := kv.Keys(ctx)
	if err != nil {
		if !errors.Is(err, jetstream.ErrNoKeysFound) {
			log.Warn("status bucket: cannot list the old reports", "err", err)
		}
		return
	}
	ids := k.ids()
	var old []broadcast.BoardReport
	for _, key := range keys {
		if key == broadcast.DaemonKey {
			continue
		}
		if !slices.Contains(ids, key) {
			if err := kv.Delete(ctx, key); err != nil {
				log.Warn("status bucket: cannot remove an old report", "board", key, "err", err)
			}
			continue
		}
		e, err := kv.Get(ctx, key)
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

// ErrNoDaemon: NATS holds no report of a running daemon.
var ErrNoDaemon = errors.New("no daemon status")

// Read returns the daemon's report and its boards' reports from the
// status bucket, in the daemon's order. A board the daemon lists without
// a report yet is returned with its id alone.
func Read(ctx context.Context, nc *nats.Conn, s broadcast.Subjects) (broadcast.DaemonReport, []broadcast.BoardReport, error) {
	var d broadcast.DaemonReport
	kv, err := openBucket(ctx, nc, s)
	if err != nil {
		return d, nil, err
	}
	e, err := kv.Get(ctx, broadcast.DaemonKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return d, nil, fmt.Errorf("%w: bucket %s has no daemon report yet", ErrNoDaemon, s.StatusBucket())
	}
	if err != nil {
		return d, nil, err
	}
	if err := json.Unmarshal(e.Value(), &d); err != nil {
		return d, nil, fmt.Errorf("status bucket: daemon report: %w", err)
	}
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
