package daemon

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/lichess"
	"github.com/nats-io/nats.go"
)

// TestRunLiveChessOffAndFailures: off, it returns at once without
// dialling; on, a NATS it cannot reach or an address it cannot listen on
// is an error naming what failed.
func TestRunLiveChessOffAndFailures(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dialled := false
	dial := func(context.Context) (*nats.Conn, error) { dialled = true; return nil, errors.New("no NATS here") }
	log := slog.New(slog.DiscardHandler)
	cfg := config.Defaults()
	if err := runLiveChess(ctx, &cfg, dial, log); err != nil || dialled {
		t.Fatalf("off: %v (dialled %v)", err, dialled)
	}
	cfg.LiveChess.Listen = "on"
	if err := runLiveChess(ctx, &cfg, dial, log); err == nil || !strings.Contains(err.Error(), "no NATS here") {
		t.Errorf("NATS unreachable: %v", err)
	}
}

// TestLichessGameErrorsLogged: every refused game is logged with its
// board and Lichess's reason.
func TestLichessGameErrorsLogged(t *testing.T) {
	var b bytes.Buffer
	f := lichessGameErrors(slog.New(slog.NewTextHandler(&b, nil)))
	f(3, []lichess.GameError{{Round: "3.7", White: "A, B", Black: "C, D", Error: "Illegal move 12. Qxh7"}})
	if s := b.String(); !strings.Contains(s, "board 3.7 (A, B – C, D): Illegal move 12. Qxh7") || !strings.Contains(s, "round=3") {
		t.Errorf("log %q", s)
	}
}

// TestPushReport: the status report carries a round's refused games, its
// placeholders and its moves without a clock.
func TestPushReport(t *testing.T) {
	at := time.Date(2026, 3, 7, 10, 0, 0, 0, time.UTC)
	r := pushReport(lichess.RoundStats{Round: 3, ID: "AbCd1234", Pushes: 2, LastPush: at, Error: "games 101–130 of 130 not pushed",
		GameErrors: []lichess.GameError{{Round: "3.7", White: "A", Black: "B", Error: "bad"}}, Placeholders: 1, Unclocked: 4})
	if r.Round != 3 || r.ID != "AbCd1234" || r.Pushes != 2 || !r.LastPush.Equal(at) || r.Error == "" || r.Placeholders != 1 || r.Unclocked != 4 ||
		len(r.GameErrors) != 1 || r.GameErrors[0].Round != "3.7" || r.GameErrors[0].Error != "bad" {
		t.Errorf("%+v", r)
	}
}
