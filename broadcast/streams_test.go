package broadcast

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

func TestEnsureStreams(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	nc, _ := srv.Connect()
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := Subjects{Prefix: "open-hall_1"}
	for range 2 { // idempotent
		if _, err := ensureStreams(ctx, js, s, StreamOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, subject string }{
		{"OPEN-HALL_1_GAMES", "open-hall_1.game.>"},
		{"OPEN-HALL_1_PUBLIC", "open-hall_1.public.>"},
		{"OPEN-HALL_1_ALERTS", "open-hall_1.arbiter.*.*.*.alert"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := js.Stream(ctx, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			c := st.CachedInfo().Config
			if len(c.Subjects) != 1 || c.Subjects[0] != tc.subject || c.Storage != jetstream.FileStorage || c.Duplicates != defaultDuplicateWindow {
				t.Errorf("config %v %v %v", c.Subjects, c.Storage, c.Duplicates)
			}
		})
	}
	if _, err := js.KeyValue(ctx, "open-hall_1_games"); err != nil {
		t.Errorf("kv bucket: %v", err)
	}
	// MaxAge clamps the duplicate window (a server rule)
	if _, err := ensureStreams(ctx, js, s, StreamOptions{MaxAge: time.Hour}); err != nil {
		t.Fatal(err)
	}
	st, _ := js.Stream(ctx, "OPEN-HALL_1_GAMES")
	if c := st.CachedInfo().Config; c.Duplicates != time.Hour || c.MaxAge != time.Hour {
		t.Errorf("with MaxAge 1h: duplicates %v, max age %v", c.Duplicates, c.MaxAge)
	}
}
