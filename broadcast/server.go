package broadcast

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Names no configured user may take (the daemon's own logins are nkeys,
// one in the daemon's account, one in the public account).
const (
	internalUser       = "dgtbridge-daemon"
	internalPublicUser = "dgtbridge-public"
)

// ServerOptions configures the embedded nats-server.
type ServerOptions struct {
	// Prefix is nats.prefix, used to build role permissions.
	Prefix string
	// StoreDir holds the JetStream file store (e.g. <data_dir>/nats).
	StoreDir string
	// Listen is host:port for NATS clients; "" means no network listener
	// (in-process connections only, as in tests); port 0 picks a free port.
	Listen string
	// Websocket is host:port for browser clients; "" disables it.
	Websocket string
	// TLS, when set, is the certificate and key of the client port and of
	// the websocket listener (wss://).
	TLS *TLSFiles
	// Insecure allows a listener on a non-loopback address without TLS
	// (passwords then cross the network in clear); it is warned about at
	// every start. Without it such a listener is [ErrInsecureListen].
	Insecure bool
	// Users with roles. None: no authentication, and then Listen and Websocket
	// must be loopback addresses ([ErrInsecureListen] otherwise).
	Users []User
	// Domain is the JetStream domain of this server (e.g. "venue-a"): needed
	// when it is a leaf node of a hub that also runs JetStream, so the hub
	// can address this server's streams as $JS.<domain>.API.
	Domain string
	// LeafRemotes makes this server a leaf node of a central hub or cluster:
	// it keeps working (and recording) while the link is down and the hub
	// catches up through stream sources when it is back. See README "NATS".
	LeafRemotes []LeafRemote
	// ServerName defaults to "dgtbridge".
	ServerName string
	// Logger receives the server's log (nil: discarded).
	Logger *slog.Logger
	// ReadyTimeout bounds the wait for the server to accept clients
	// (default 10 s).
	ReadyTimeout time.Duration
}

// LeafRemote is one hub this server connects to as a leaf node.
type LeafRemote struct {
	// URL of the hub's leafnode listener, e.g. nats-leaf://hub.example.org:7422
	// (or ws:// / wss:// when only web ports are open).
	URL string
	// Credentials is the hub user's credentials file ("" for none).
	Credentials string
	// DenyExports are subjects never sent to the hub, e.g. "<p>.relay.>".
	DenyExports []string
}

// TLSFiles are the PEM files of a TLS listener.
type TLSFiles struct {
	Cert string
	Key  string
}

// Server is a running embedded nats-server with JetStream.
type Server struct {
	ns *server.Server
	// keys of the internal users (nkeys: no password in the server's user
	// list); nil without authentication (one account: the public copy is
	// read where the daemon publishes it).
	daemonKey, publicKey nkeys.KeyPair
	// proxy answers the staff accounts' consumer creations (with users).
	proxy *jsProxy
}

// StartServer starts an embedded nats-server with JetStream stored in
// opts.StoreDir, and waits until it accepts clients.
func StartServer(opts ServerOptions) (*Server, error) {
	if _, err := NewSubjects(opts.Prefix); err != nil {
		return nil, err
	}
	so := &server.Options{
		ServerName: opts.ServerName,
		JetStream:  true,
		StoreDir:   opts.StoreDir,
		NoSigs:     true,
		DontListen: opts.Listen == "",
	}
	if so.ServerName == "" {
		so.ServerName = "dgtbridge"
	}
	if err := configureListeners(so, opts); err != nil {
		return nil, err
	}
	if err := configureTLS(so, opts); err != nil {
		return nil, err
	}
	so.JetStreamDomain = opts.Domain
	if err := configureLeaves(so, opts); err != nil {
		return nil, err
	}
	s := &Server{}
	if len(opts.Users) > 0 {
		if err := s.addUsers(so, opts); err != nil {
			return nil, err
		}
	}
	ns, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("broadcast: embedded server: %w", err)
	}
	if opts.Logger != nil {
		ns.SetLoggerV2(slogAdapter{l: opts.Logger, quiet: func(w string) bool { return quietLoopback(opts, w) }}, false, false, false)
	}
	ns.Start()
	timeout := opts.ReadyTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	if !ns.ReadyForConnections(timeout) {
		ns.Shutdown()
		return nil, ErrNotReady
	}
	s.ns = ns
	warnStart(opts)
	if s.daemonKey != nil {
		nc, err := s.Connect()
		if err == nil {
			s.proxy, err = startJSProxy(nc, opts.Logger)
		}
		if err != nil {
			ns.Shutdown()
			return nil, fmt.Errorf("broadcast: embedded server: consumer proxy: %w", err)
		}
	}
	return s, nil
}

// configureListeners sets the client and websocket listeners of so from
// opts (none when empty), each checked against exposure (checkExposed).
func configureListeners(so *server.Options, opts ServerOptions) error {
	if opts.Listen != "" {
		host, port, err := splitListen("nats.embedded.listen", opts.Listen)
		if err != nil {
			return err
		}
		if err := checkExposed("nats.embedded.listen", opts, host); err != nil {
			return err
		}
		so.Host, so.Port = host, port
	}
	if opts.Websocket != "" {
		host, port, err := splitListen("nats.embedded.websocket", opts.Websocket)
		if err != nil {
			return err
		}
		if err := checkExposed("nats.embedded.websocket", opts, host); err != nil {
			return err
		}
		so.Websocket.Host, so.Websocket.Port = host, port
	}
	return nil
}

// configureLeaves adds opts.LeafRemotes to so: the streams' account (with
// users) is the one the leaf connections carry.
func configureLeaves(so *server.Options, opts ServerOptions) error {
	for _, r := range opts.LeafRemotes {
		u, err := url.Parse(r.URL)
		if err != nil || u.Host == "" {
			return fmt.Errorf("broadcast: leaf remote %q: not a URL", r.URL)
		}
		ro := &server.RemoteLeafOpts{URLs: []*url.URL{u}, Credentials: r.Credentials, DenyExports: r.DenyExports}
		if len(opts.Users) > 0 {
			ro.LocalAccount = daemonAccount // the streams' account
		}
		so.LeafNode.Remotes = append(so.LeafNode.Remotes, ro)
	}
	return nil
}

func splitListen(key, addr string) (string, int, error) {
	host, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("broadcast: %s %q: %w", key, addr, err)
	}
	port, err := strconv.Atoi(ps)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("broadcast: %s %q: bad port", key, addr)
	}
	if port == 0 {
		port = server.RANDOM_PORT // nats-server reads 0 as its default port
	}
	return host, port, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// addUsers puts the daemon's internal users and the configured ones in
// their accounts (see [daemonAccount]) with their role's permissions.
func (s *Server) addUsers(so *server.Options, opts ServerOptions) error {
	subj, err := NewSubjects(opts.Prefix)
	if err != nil {
		return err
	}
	perms := make([]*server.Permissions, len(opts.Users))
	for i, u := range opts.Users {
		if u.Name == "" || u.Name == internalUser || u.Name == internalPublicUser {
			return fmt.Errorf("broadcast: nats.embedded.users: bad user name %q", u.Name)
		}
		if perms[i], err = rolePermissions(subj, u); err != nil {
			return fmt.Errorf("broadcast: nats.embedded.users %q: %w", u.Name, err)
		}
	}
	// The accounts are declared in the server's own configuration
	// language, which is the one way to give an account JetStream and
	// shared service imports.
	conf, err := accountsConfig(subj, opts.Users)
	if err != nil {
		return err
	}
	if err := so.ProcessConfigString(conf); err != nil {
		return fmt.Errorf("broadcast: embedded server accounts: %w", err)
	}
	acc := map[string]*server.Account{}
	for _, a := range so.Accounts {
		acc[a.Name] = a
	}
	if acc[daemonAccount] == nil || acc[publicAccount] == nil {
		return errors.New("broadcast: embedded server accounts not declared")
	}
	if err := adoptStreams(so.StoreDir, daemonAccount); err != nil {
		return err
	}
	if s.daemonKey, err = nkeys.CreateUser(); err != nil {
		return fmt.Errorf("broadcast: embedded server: daemon key: %w", err)
	}
	if s.publicKey, err = nkeys.CreateUser(); err != nil {
		return fmt.Errorf("broadcast: embedded server: daemon key: %w", err)
	}
	for _, k := range []struct {
		kp  nkeys.KeyPair
		acc string
	}{{s.daemonKey, daemonAccount}, {s.publicKey, publicAccount}} {
		pub, err := k.kp.PublicKey()
		if err != nil {
			return fmt.Errorf("broadcast: embedded server: daemon key: %w", err)
		}
		so.Nkeys = append(so.Nkeys, &server.NkeyUser{Nkey: pub, Account: acc[k.acc]})
	}
	for i, u := range opts.Users {
		a := acc[accountOf(u, i)]
		if a == nil {
			return fmt.Errorf("broadcast: nats.embedded.users %q: no account %s", u.Name, accountOf(u, i))
		}
		so.Users = append(so.Users, &server.User{Username: u.Name, Password: u.Password, Permissions: perms[i], Account: a})
	}
	return nil
}

// adoptStreams moves the JetStream store of a server that ran without
// users (the global account) to account, once, before the server starts:
// a hall that adds users keeps its streams and their duplicate windows.
func adoptStreams(storeDir, account string) error {
	js := filepath.Join(storeDir, "jetstream")
	from, to := filepath.Join(js, server.DEFAULT_GLOBAL_ACCOUNT), filepath.Join(js, account)
	if _, err := os.Stat(to); err == nil {
		return nil
	}
	if _, err := os.Stat(from); err != nil {
		return nil
	}
	if err := os.Rename(from, to); err != nil {
		return fmt.Errorf("broadcast: moving the JetStream store to account %s: %w", account, err)
	}
	return nil
}

// Connect opens an in-process connection as the daemon's internal user
// (allowed everything in the daemon's account, where the streams are),
// with the inbox prefix [DaemonInboxPrefix]. It never reconnects: when this server shuts down the connection closes.
func (s *Server) Connect(opts ...nats.Option) (*nats.Conn, error) {
	return s.connect(s.daemonKey, opts)
}

func (s *Server) connect(kp nkeys.KeyPair, opts []nats.Option) (*nats.Conn, error) {
	o := []nats.Option{nats.InProcessServer(s.ns), nats.Name("dgtbridge"), nats.MaxReconnects(0), nats.CustomInboxPrefix(DaemonInboxPrefix)}
	if kp != nil {
		pub, err := kp.PublicKey()
		if err != nil {
			return nil, err
		}
		o = append(o, nats.Nkey(pub, kp.Sign))
	}
	return nats.Connect("", append(o, opts...)...)
}

// Dialer returns a function suitable for [Options.Connect].
func (s *Server) Dialer() func(context.Context) (*nats.Conn, error) {
	return func(context.Context) (*nats.Conn, error) { return s.Connect() }
}

// PublicDialer returns a function suitable for [Options.ConnectPublic]: a
// connection as the daemon's user in the public account. It is nil when the
// server has no users (one account: public clients read the staff
// connection's subjects).
func (s *Server) PublicDialer() func(context.Context) (*nats.Conn, error) {
	if s.publicKey == nil {
		return nil
	}
	return func(context.Context) (*nats.Conn, error) { return s.connect(s.publicKey, nil) }
}

// ClientURL is the nats:// URL of the TCP listener ("" without one).
func (s *Server) ClientURL() string {
	if s.ns.Addr() == nil {
		return ""
	}
	return s.ns.ClientURL()
}

// NATS returns the underlying server (for in-process clients of tests).
func (s *Server) NATS() *server.Server { return s.ns }

// Shutdown stops the server and waits for it to finish.
func (s *Server) Shutdown() {
	if s.proxy != nil {
		s.proxy.close()
	}
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// slogAdapter is the nats-server's logger (server.Logger) writing to a
// *slog.Logger: notices at info, debug and trace at debug, fatal at error
// (the server itself decides what a fatal error stops).
// A warning quiet reports (a loopback websocket without TLS) is logged at
// info.
type slogAdapter struct {
	l     *slog.Logger
	quiet func(string) bool
}

func (a slogAdapter) Noticef(f string, v ...any) {
	a.l.Info(fmt.Sprintf(f, v...), "component", "nats-server")
}
func (a slogAdapter) Warnf(f string, v ...any) {
	msg := fmt.Sprintf(f, v...)
	if a.quiet != nil && a.quiet(msg) {
		a.l.Info("websocket listener on loopback without TLS (reachable from this machine only)", "component", "nats-server")
		return
	}
	a.l.Warn(msg, "component", "nats-server")
}
func (a slogAdapter) Fatalf(f string, v ...any) {
	a.l.Error(fmt.Sprintf(f, v...), "component", "nats-server")
}
func (a slogAdapter) Errorf(f string, v ...any) {
	a.l.Error(fmt.Sprintf(f, v...), "component", "nats-server")
}
func (a slogAdapter) Debugf(f string, v ...any) {
	a.l.Debug(fmt.Sprintf(f, v...), "component", "nats-server")
}
func (a slogAdapter) Tracef(f string, v ...any) {
	a.l.Debug(fmt.Sprintf(f, v...), "component", "nats-server")
}
