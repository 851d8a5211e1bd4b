package broadcast

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
)

// ExternalOptions describes an external NATS server or cluster (nats.url,
// nats.creds).
type ExternalOptions struct {
	// URL is one or more comma-separated server URLs (a cluster's seeds).
	URL string
	// Creds is a credentials file (JWT + nkey seed); "" for none.
	Creds string
	// Nkey is a file holding an nkey seed, for a server that knows the
	// user by its public key; "" for none (not with Creds).
	Nkey string
	// Name is the connection name shown by the server (default "dgtbridge").
	Name string
	// Logger gets disconnect/reconnect notices (nil: none).
	Logger *slog.Logger
}

// ExternalDialer returns an [Options.Connect] function for an external
// server: the connection reconnects forever by itself (buffering while
// disconnected), retries the first connect too, and the publisher re-sends
// anything whose ack did not arrive, so an outage loses nothing. The daemon
// creates or updates the streams and the KV bucket on every (re)connect, so
// its user needs the JetStream API on them.
func ExternalDialer(o ExternalOptions) func(ctx context.Context) (*nats.Conn, error) {
	name := o.Name
	if name == "" {
		name = "dgtbridge"
	}
	return func(ctx context.Context) (*nats.Conn, error) {
		opts := []nats.Option{
			nats.Name(name),
			nats.MaxReconnects(-1),
			nats.ReconnectWait(time.Second),
			nats.Timeout(5 * time.Second),
		}
		if o.Creds != "" {
			opts = append(opts, nats.UserCredentials(o.Creds))
		}
		if o.Nkey != "" {
			nk, err := nats.NkeyOptionFromSeed(o.Nkey)
			if err != nil {
				return nil, fmt.Errorf("nats nkey seed %s: %w", o.Nkey, err)
			}
			opts = append(opts, nk)
		}
		if l := o.Logger; l != nil {
			opts = append(opts,
				nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { l.Warn("nats disconnected", "err", err) }),
				nats.ReconnectHandler(func(nc *nats.Conn) { l.Info("nats reconnected", "url", nc.ConnectedUrlRedacted()) }),
			)
		}
		nc, err := nats.Connect(o.URL, opts...)
		if err != nil {
			return nil, fmt.Errorf("nats %s: %w", o.URL, err)
		}
		return nc, nil
	}
}
