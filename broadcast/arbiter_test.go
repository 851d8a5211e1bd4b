package broadcast

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/arbiter"
)

func TestPublishArbiter(t *testing.T) {
	srv := startServer(t, t.TempDir())
	defer srv.Shutdown()
	p := newPublisher(t, t.TempDir(), srv.Dialer(), 0)
	runPublisher(t, p)
	at := time.Date(2026, 2, 8, 8, 1, 2, 345678901, time.UTC)
	nc, _ := srv.Connect()
	defer nc.Close()
	sub, _ := nc.SubscribeSync("dgt.>")
	nc.Flush()
	for _, o := range []arbiter.Output{
		&arbiter.Alert{ID: "a1", Game: "open2026.1.1", Kind: arbiter.KindFlagFall, Severity: arbiter.Crit, Article: "6.9", Ply: 40, At: at},
		&arbiter.Correction{Game: "open2026.1.1", Ply: 2, Moves: []string{"e2e4", "e7e5"}, Reason: "takeback", At: at, Revision: 1},
		&arbiter.Result{Game: "open2026.1.1", Result: "1-0", Termination: "time forfeit", Article: "6.9", Provisional: true, At: at},
	} {
		if err := p.PublishArbiter(o); err != nil {
			t.Fatalf("%T: %v", o, err)
		}
	}
	if err := p.PublishArbiter(&arbiter.ClockCommand{Game: "open2026.1.1"}); !errors.Is(err, ErrNotPublishable) {
		t.Errorf("clock command: %v", err)
	}
	if err := p.PublishArbiter(&arbiter.Alert{ID: "x", Game: "bad"}); !errors.Is(err, ErrBadGameID) {
		t.Errorf("bad game: %v", err)
	}
	want := map[string]bool{
		"dgt.arbiter.open2026.1.1.alert": true, "dgt.game.open2026.1.1.correction": true, "dgt.game.open2026.1.1.end": true,
		"dgt.public.open2026.1.1.correction": true, "dgt.public.open2026.1.1.end": true,
	}
	for range len(want) {
		m, err := sub.NextMsg(5 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if !want[m.Subject] {
			t.Errorf("unexpected %s", m.Subject)
		}
		delete(want, m.Subject)
		var f map[string]any
		if err := json.Unmarshal(m.Data, &f); err != nil {
			t.Fatal(err)
		}
		if f["game"] != "open2026.1.1" || f["at"] != "2026-02-08T08:01:02.345Z" {
			t.Errorf("%s: %s", m.Subject, m.Data)
		}
	}
}
