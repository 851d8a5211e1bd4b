package broadcast

import (
	"crypto/tls"
	"fmt"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
)

// checkExposed refuses a listener (key names it) on a non-loopback host
// without users, or without TLS unless opts.Insecure.
func checkExposed(key string, opts ServerOptions, host string) error {
	if isLoopback(host) {
		return nil
	}
	if len(opts.Users) == 0 {
		return fmt.Errorf("%w: %s %q (configure nats.embedded.users, or listen on 127.0.0.1)", ErrInsecureListen, key, host)
	}
	if opts.TLS == nil && !opts.Insecure {
		return fmt.Errorf("%w: %s %q without TLS: passwords would cross the network in clear (set nats.embedded.tls, or insecure: true to accept that)", ErrInsecureListen, key, host)
	}
	return nil
}

// configureTLS loads opts.TLS for the client port and the websocket; a
// websocket without it is plain ws:// (allowed by checkExposed).
func configureTLS(so *server.Options, opts ServerOptions) error {
	if opts.TLS == nil {
		so.Websocket.NoTLS = true
		return nil
	}
	cert, err := tls.LoadX509KeyPair(opts.TLS.Cert, opts.TLS.Key)
	if err != nil {
		return fmt.Errorf("broadcast: nats.embedded.tls (cert %s, key %s): %w", opts.TLS.Cert, opts.TLS.Key, err)
	}
	conf := func() *tls.Config {
		return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if opts.Listen != "" {
		so.TLSConfig, so.TLS, so.TLSTimeout = conf(), true, 2
	}
	if opts.Websocket != "" {
		so.Websocket.TLSConfig = conf()
	}
	return nil
}

// exposedWithoutTLS names the listeners of opts that are reachable from
// other machines in clear ("" when none).
func exposedWithoutTLS(opts ServerOptions) string {
	if opts.TLS != nil {
		return ""
	}
	var out []string
	for _, l := range []struct{ key, addr string }{{"nats.embedded.listen", opts.Listen}, {"nats.embedded.websocket", opts.Websocket}} {
		if l.addr == "" {
			continue
		}
		if host, _, err := splitListen(l.key, l.addr); err == nil && !isLoopback(host) {
			out = append(out, l.key+" "+l.addr)
		}
	}
	return strings.Join(out, ", ")
}

// warnStart logs what a deployment should not run with: a listener
// reachable in clear (allowed by insecure: true) and plain-text passwords.
func warnStart(opts ServerOptions) {
	log := opts.Logger
	if log == nil {
		return
	}
	if l := exposedWithoutTLS(opts); l != "" {
		log.Warn("NATS listener reachable from the network without TLS (nats.embedded.insecure): passwords and live games cross it in clear; set nats.embedded.tls", "listeners", l)
	}
	var plain []string
	for _, u := range opts.Users {
		if !isBcrypt(u.Password) {
			plain = append(plain, u.Name)
		}
	}
	if len(plain) > 0 {
		log.Warn("NATS users with a plain-text password in the configuration: store a bcrypt hash instead (dgtbridge passwd)", "users", strings.Join(plain, ","))
	}
}

// isBcrypt reports whether a password is a bcrypt hash, which the server
// compares the password given at login against.
func isBcrypt(pw string) bool {
	return strings.HasPrefix(pw, "$2a$") || strings.HasPrefix(pw, "$2b$") || strings.HasPrefix(pw, "$2y$")
}

// wsNoTLSWarning is the server's warning about a websocket listener
// without TLS; on a loopback listener it is no risk, and logged at info.
const wsNoTLSWarning = "Websocket not configured with TLS"

// quietLoopback reports whether the server's warning w is about a
// loopback listener that opts keeps without TLS on purpose.
func quietLoopback(opts ServerOptions, w string) bool {
	if !strings.HasPrefix(w, wsNoTLSWarning) || opts.Websocket == "" {
		return false
	}
	host, _, err := splitListen("nats.embedded.websocket", opts.Websocket)
	return err == nil && isLoopback(host)
}
