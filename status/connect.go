package status

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/nats-io/nats.go"
)

// Dial says how [Connect] reaches the daemon's NATS server to read the
// status bucket.
type Dial struct {
	URL      string // an outside server (nats.url); "" for the embedded one
	Creds    string // the credentials file for URL (nats.creds), may be ""
	Nkey     string // a file holding an nkey seed for URL (nats.nkey), may be ""
	Listen   string // the embedded server's listen address, when URL is ""
	TLSCert  string // the embedded server's certificate (nats.embedded.tls.cert): "" plain nats://
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
		if d.Nkey != "" {
			o, err := nats.NkeyOptionFromSeed(d.Nkey)
			if err != nil {
				return nil, "", fmt.Errorf("status: nats.nkey: %w", err)
			}
			opts = append(opts, o)
		}
	} else {
		url = "nats://" + dialable(d.Listen)
		if d.TLSCert != "" {
			tc, err := trustingCert(d.TLSCert)
			if err != nil {
				return nil, "", fmt.Errorf("status: nats.embedded.tls.cert: %w", err)
			}
			url = "tls://" + dialable(d.Listen)
			opts = append(opts, nats.Secure(tc))
		}
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

// trustingCert returns a TLS configuration that trusts the system's roots
// and the certificates of the PEM file (the embedded server's own: a
// self-signed certificate, or a chain whose root is in the system's pool).
func trustingCert(file string) (*tls.Config, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s holds no PEM certificate", file)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}
