package daemon

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/nats-io/nats.go"
)

// TestWithStorage: the storage keys reach the hall: the defaults as they
// are, a commit window of 0 as none, MiB as bytes, history_wait 0 as no
// reading back.
func TestWithStorage(t *testing.T) {
	pub, err := broadcast.NewPublisher(broadcast.Options{Prefix: "dgt", Dir: t.TempDir(),
		Connect: func(context.Context) (*nats.Conn, error) { return nil, errors.New("test: no NATS") }})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	d := config.Defaults().Storage
	o := withStorage(hall.Options{}, d, pub)
	if o.CommitWindow != 2*time.Millisecond || o.CompactEvery != 5*time.Minute || o.CompactBytes != 32<<20 ||
		o.DrainTimeout != 15*time.Second || o.HistoryWait != 15*time.Second || o.History == nil {
		t.Errorf("defaults: %+v", o)
	}
	s := config.Storage{CommitWindow: 0, CompactEvery: time.Minute, CompactMiB: 1, DrainTimeout: time.Second, HistoryWait: 0}
	if o := withStorage(hall.Options{}, s, pub); o.CommitWindow >= 0 || o.CompactBytes != 1<<20 || o.History != nil {
		t.Errorf("commit window 0, 1 MiB, no history: %+v", o)
	}
}
