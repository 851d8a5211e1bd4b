package broadcast

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// defaultDuplicateWindow is the default dedup window of the three streams.
// It must cover the longest outage after which a message may be re-sent (a
// crash between a store and its ack, then a restart). Each remembered message
// id costs the server roughly 100 bytes of memory, so 6 h at 100 msg/s is
// about 200 MB; lower it for very large halls with frequent clock events.
const defaultDuplicateWindow = 6 * time.Hour

// StreamOptions shapes the streams and the KV bucket the daemon creates or
// updates. The zero value is valid.
type StreamOptions struct {
	// Replicas per stream (default 1; 3 on a cluster).
	Replicas int
	// DuplicateWindow defaults to 6 hours (defaultDuplicateWindow).
	DuplicateWindow time.Duration
	// MaxAge bounds how long messages are kept (0: forever). When set, the
	// duplicate window is clamped to it (a server rule).
	MaxAge time.Duration
	// Memory selects memory storage instead of files (tests, benchmarks).
	Memory bool
}

// ensureStreams creates or updates <P>_GAMES, <P>_PUBLIC, <P>_ALERTS and the
// KV bucket <p>_games (docs/contract.md §3.1). It is idempotent.
func ensureStreams(ctx context.Context, js jetstream.JetStream, s Subjects, o StreamOptions) (jetstream.KeyValue, error) {
	rep := o.Replicas
	if rep <= 0 {
		rep = 1
	}
	dup := o.DuplicateWindow
	if dup <= 0 {
		dup = defaultDuplicateWindow
	}
	if o.MaxAge > 0 && dup > o.MaxAge {
		dup = o.MaxAge
	}
	storage := jetstream.FileStorage
	if o.Memory {
		storage = jetstream.MemoryStorage
	}
	for _, sc := range []struct{ name, subj, desc string }{
		{s.gamesStream(), s.gameFeed(), "dgtbridge live games (organisers)"},
		{s.publicStream(), s.publicFeed(), "dgtbridge delayed public copy"},
		{s.alertsStream(), s.alertFeed(), "dgtbridge arbiter alerts"},
	} {
		_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name:        sc.name,
			Description: sc.desc,
			Subjects:    []string{sc.subj},
			Storage:     storage,
			Replicas:    rep,
			Duplicates:  dup,
			MaxAge:      o.MaxAge,
			AllowDirect: true,
		})
		if err != nil {
			return nil, fmt.Errorf("broadcast: stream %s: %w", sc.name, err)
		}
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      s.bucket(),
		Description: "dgtbridge latest GameState per game",
		History:     1,
		Storage:     storage,
		Replicas:    rep,
	})
	if err != nil {
		return nil, fmt.Errorf("broadcast: kv %s: %w", s.bucket(), err)
	}
	return kv, nil
}
