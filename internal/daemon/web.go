package daemon

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// webOptions are the web pages' options (docs/contract.md §5, GET / and
// GET /arbiter) for this configuration: every configured board, the public
// store of pub for what went public before a restart, the daemon's own NATS
// connection for the public copy, and the embedded server's websocket
// listener for the arbiters' page.
func webOptions(cfg *config.Config, subj broadcast.Subjects, pub *broadcast.Publisher, dial func(context.Context) (*nats.Conn, error)) broadcast.WebOptions {
	o := broadcast.WebOptions{Subjects: subj, EventID: cfg.Event.ID, EventName: cfg.Event.Name, Site: cfg.Event.Site,
		Public: pub.Public(), Connect: dial}
	switch {
	case cfg.NATS.WebsocketURL != "":
		o.Websocket = cfg.NATS.WebsocketURL
	case cfg.NATS.URL == "":
		o.Websocket = cfg.NATS.Embedded.WebSocket
		o.WebsocketTLS = cfg.NATS.Embedded.TLS.Cert != ""
	}
	for _, b := range cfg.EffectiveBoards() {
		o.Boards = append(o.Boards, broadcast.WebBoard{
			Game:    game.ID{Event: cfg.Event.ID, Round: b.Round, Board: b.Board},
			BoardID: boardID(b), White: b.White, Black: b.Black,
			WhiteFideID: b.WhiteFideID, BlackFideID: b.BlackFideID,
			Variant: b.Variant, StartFEN: b.FEN, Partner: b.Partner,
		})
	}
	return o
}

// newWeb makes the pages' server when http.listen is set (nil without).
func newWeb(cfg *config.Config, subj broadcast.Subjects, pub *broadcast.Publisher, dial func(context.Context) (*nats.Conn, error), log *slog.Logger) (*broadcast.Web, error) {
	if cfg.HTTP.Listen == "" {
		return nil, nil
	}
	wo := webOptions(cfg, subj, pub, dial)
	wo.Logger = log.With("part", "web")
	web, err := broadcast.NewWeb(wo)
	if err != nil {
		return nil, fmt.Errorf("web pages: %w", err)
	}
	return web, nil
}
