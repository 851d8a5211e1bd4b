package broadcast

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
	"golang.org/x/crypto/bcrypt"
)

// selfSigned writes a certificate for 127.0.0.1 and its key to dir and
// returns their paths and a pool trusting it.
func selfSigned(t *testing.T, dir string) (TLSFiles, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "hall"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	f := TLSFiles{Cert: filepath.Join(dir, "cert.pem"), Key: filepath.Join(dir, "key.pem")}
	if err := os.WriteFile(f.Cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.Key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return f, pool
}

// logBuffer is a slog logger into a buffer, safe for the server's
// goroutines.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServerTLS: with nats.embedded.tls the client port takes TLS only
// (a plain client is turned away) and the websocket is wss://; both let a
// user in that trusts the certificate.
func TestServerTLS(t *testing.T) {
	files, pool := selfSigned(t, t.TempDir())
	ws := freeAddr(t)
	srv, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Websocket: ws, TLS: &files, Users: testUsers})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	tlsConf := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	nc, err := nats.Connect(srv.ClientURL(), nats.UserInfo("hall", "hall-pw"), nats.Secure(tlsConf))
	if err != nil {
		t.Fatalf("TLS client: %v", err)
	}
	if !nc.TLSRequired() {
		t.Error("the server does not ask for TLS")
	}
	nc.Close()
	if nc, err := nats.Connect(strings.Replace(srv.ClientURL(), "tls://", "nats://", 1), nats.UserInfo("hall", "hall-pw"), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Error("a client without TLS was let in")
	}
	wc, err := nats.Connect("wss://"+ws, nats.UserInfo("viewer", "viewer-pw"), nats.Secure(tlsConf), nats.CustomInboxPrefix(PublicInboxPrefix))
	if err != nil {
		t.Fatalf("wss client: %v", err)
	}
	wc.Close()
	if wc, err := nats.Connect("ws://"+ws, nats.UserInfo("viewer", "viewer-pw"), nats.Timeout(2*time.Second)); err == nil {
		wc.Close()
		t.Error("a ws:// client was let in on the wss:// listener")
	}
	bad := TLSFiles{Cert: files.Cert, Key: filepath.Join(t.TempDir(), "missing.pem")}
	if _, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: t.TempDir(), Listen: "127.0.0.1:0", TLS: &bad, Users: testUsers}); err == nil || !strings.Contains(err.Error(), "nats.embedded.tls") {
		t.Errorf("missing key file: %v", err)
	}
}

// TestServerExposedListeners: a non-loopback listener needs users and TLS,
// or insecure, which is warned about at start; plain passwords are warned
// about, bcrypt hashes are not; and the server's own warnings about plain
// passwords and a loopback websocket without TLS do not appear (the
// daemon's logins are nkeys).
func TestServerExposedListeners(t *testing.T) {
	for _, o := range []ServerOptions{
		{Listen: "0.0.0.0:0", Users: testUsers},
		{Listen: "127.0.0.1:0", Websocket: "0.0.0.0:0", Users: testUsers},
	} {
		o.Prefix, o.StoreDir = testPrefix, t.TempDir()
		if _, err := StartServer(o); !errors.Is(err, ErrInsecureListen) || !strings.Contains(err.Error(), "without TLS") {
			t.Errorf("%s / %s without TLS: %v, want ErrInsecureListen", o.Listen, o.Websocket, err)
		}
	}
	var log logBuffer
	srv, err := StartServer(ServerOptions{Prefix: testPrefix, StoreDir: t.TempDir(), Listen: "0.0.0.0:0", Insecure: true, Users: testUsers,
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv.Shutdown()
	for _, want := range []string{"without TLS (nats.embedded.insecure)", "nats.embedded.listen 0.0.0.0:0", "plain-text password", "users=hall,arb,viewer"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the start log does not say %q:\n%s", want, log.String())
		}
	}

	hash, _ := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	var quiet logBuffer
	srv, err = StartServer(ServerOptions{Prefix: testPrefix, StoreDir: t.TempDir(), Listen: "127.0.0.1:0", Websocket: freeAddr(t),
		Users:  []User{{Name: "hall", Password: string(hash), Role: RoleOrganiser}},
		Logger: slog.New(slog.NewTextHandler(&quiet, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(srv.ClientURL(), nats.UserInfo("hall", "s3cret"))
	if err != nil {
		t.Errorf("bcrypt password: %v", err)
	} else {
		nc.Close()
	}
	srv.Shutdown()
	for _, never := range []string{"level=WARN", "Plaintext passwords detected", "DO NOT USE IN PRODUCTION"} {
		if strings.Contains(quiet.String(), never) {
			t.Errorf("a start on loopback with bcrypt hashes logs %q:\n%s", never, quiet.String())
		}
	}
	if !strings.Contains(quiet.String(), "Listening for websocket clients") {
		t.Errorf("the websocket listener did not start:\n%s", quiet.String())
	}
}

// TestExternalNkey: nats.nkey signs in to an external server that knows
// the user by its public key; a seed file that is not one is an error
// naming the file.
func TestExternalNkey(t *testing.T) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	file := filepath.Join(t.TempDir(), "daemon.nk")
	if err := os.WriteFile(file, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoSigs: true, Nkeys: []*server.NkeyUser{{Nkey: pub}}})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	defer ns.Shutdown()
	if !ns.ReadyForConnections(5 * time.Second) {
		t.Fatal("server not ready")
	}
	nc, err := ExternalDialer(ExternalOptions{URL: ns.ClientURL(), Nkey: file})(context.Background())
	if err != nil {
		t.Fatalf("nkey sign-in: %v", err)
	}
	nc.Close()
	notSeed := filepath.Join(t.TempDir(), "x.nk")
	os.WriteFile(notSeed, []byte("hello"), 0o600)
	if _, err := ExternalDialer(ExternalOptions{URL: ns.ClientURL(), Nkey: notSeed})(context.Background()); err == nil || !strings.Contains(err.Error(), notSeed) {
		t.Errorf("a file without a seed: %v", err)
	}
}
