package daemon

import (
	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
)

// embeddedTLS is nats.embedded.tls for the embedded server; nil when it is
// not set (no TLS).
func embeddedTLS(cfg config.Config) *broadcast.TLSFiles {
	t := cfg.NATS.Embedded.TLS
	if t.Cert == "" && t.Key == "" {
		return nil
	}
	return &broadcast.TLSFiles{Cert: t.Cert, Key: t.Key}
}
