package daemon

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/lichess"
	"github.com/dgtbridge/dgtbridge/livechess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// runLiveChess serves the LiveChess-compatible local API (livechess.listen)
// until ctx ends, and returns nil at once when it is off. It reads the
// daemon's feed through a connection of its own from dial (the daemon's
// user, which reads all an organiser reads), closed when it returns.
func runLiveChess(ctx context.Context, cfg *config.Config, dial func(context.Context) (*nats.Conn, error), log *slog.Logger) error {
	addr := cfg.LiveChess.Addr()
	if addr == "" {
		return nil
	}
	nc, err := dial(ctx)
	if err != nil {
		return fmt.Errorf("livechess: NATS: %w", err)
	}
	defer nc.Close()
	s, err := livechess.New(livechess.Options{Listen: addr, Conn: nc, Prefix: cfg.NATS.Prefix,
		FirstBoard: cfg.LiveChess.FirstBoard, Origins: cfg.LiveChess.Origins, AllowRemote: cfg.LiveChess.AllowRemote,
		Logger: log})
	if err != nil {
		return err
	}
	log.Info("LiveChess API on", "url", "ws://"+addr+livechess.Path)
	return s.Run(ctx)
}

// lichessGameErrors is the pusher's OnGameErrors: each game Lichess
// refused is logged for the organiser, once per change.
func lichessGameErrors(log *slog.Logger) func(round int, errs []lichess.GameError) {
	return func(round int, errs []lichess.GameError) {
		for _, e := range errs {
			log.Error("Lichess refused a game: it is not on the broadcast", "round", round, "game", e.String())
		}
	}
}

// pushReport is a round's push state as the status report gives it.
func pushReport(s lichess.RoundStats) broadcast.PushReport {
	r := broadcast.PushReport{Round: s.Round, ID: s.ID, Pushes: s.Pushes, LastPush: game.T(s.LastPush), Error: s.Error,
		Placeholders: s.Placeholders, Unclocked: s.Unclocked}
	for _, e := range s.GameErrors {
		r.GameErrors = append(r.GameErrors, broadcast.PushGameError{Round: e.Round, White: e.White, Black: e.Black, Error: e.Error})
	}
	return r
}
