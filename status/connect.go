package status

import (
	"fmt"
	"net"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/nats-io/nats.go"
)

// Dial says how [Connect] reaches the daemon's NATS server to read the
// status bucket.
type Dial struct {
	URL      string // an outside server (nats.url); "" for the embedded one
	Creds    string // the credentials file for URL (nats.creds), may be ""
	Listen   string // the embedded server's listen address, when URL is ""
	User     string // "" for none
	Password string
	Arbiter  bool // User is an arbiter: replies come on the arbiters' inbox prefix
	Timeout  time.Duration
}

// Connect connects as d says and returns the connection and the URL it
// reached. An unspecified listen host (0.0.0.0, ::, "") is dialled as
// 127.0.0.1.
func Connect(d Dial) (*nats.Conn, string, error) {
	opts := []nats.Option{nats.Name("dgtbridge status"), nats.Timeout(d.Timeout)}
	url := d.URL
	if url != "" {
		if d.Creds != "" {
			opts = append(opts, nats.UserCredentials(d.Creds))
		}
	} else {
		url = "nats://" + dialable(d.Listen)
	}
	if d.User != "" {
		opts = append(opts, nats.UserInfo(d.User, d.Password))
		if d.Arbiter {
			opts = append(opts, nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
		}
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, "", fmt.Errorf("status: cannot reach NATS at %s: %w (is the daemon running?)", url, err)
	}
	return nc, url, nil
}

// dialable turns a listen address into one to connect to: an unspecified
// host (0.0.0.0, ::, "") becomes 127.0.0.1.
func dialable(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
