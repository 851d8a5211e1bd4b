package demorun

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/dgtbridge/dgtbridge/config"
	"golang.org/x/crypto/bcrypt"
)

// demoUsers are the demo's NATS users when none are configured: one per
// role, each with a fresh random password (the banner prints them), so the
// arbiters' page and the permissions can be tried as they are at an event.
func demoUsers() []config.User {
	pw := func() string {
		var b [6]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		return hex.EncodeToString(b[:])
	}
	return []config.User{
		{User: "hall", Password: pw(), Role: config.RoleOrganiser},
		{User: "arbiter", Password: pw(), Role: config.RoleArbiter},
		{User: "viewer", Password: pw(), Role: config.RolePublic},
	}
}

// demoHashed is cfg with its users' passwords replaced by bcrypt hashes,
// for the daemon: the demo keeps no password the server would hold in
// clear (the banner prints the passwords of cfg).
func demoHashed(cfg config.Config) (config.Config, error) {
	users := make([]config.User, len(cfg.NATS.Embedded.Users))
	for i, u := range cfg.NATS.Embedded.Users {
		if !strings.HasPrefix(u.Password, "$2") {
			h, err := bcrypt.GenerateFromPassword([]byte(u.Password), bcrypt.DefaultCost)
			if err != nil {
				return cfg, fmt.Errorf("demo user %s: %w", u.User, err)
			}
			u.Password = string(h)
		}
		users[i] = u
	}
	cfg.NATS.Embedded.Users = users
	return cfg, nil
}

// demoUser returns the first user of a role.
func demoUser(cfg config.Config, role config.Role) (config.User, bool) {
	for _, u := range cfg.NATS.Embedded.Users {
		if u.Role == role {
			return u, true
		}
	}
	return config.User{}, false
}

// printDemoNATS prints the NATS address, the users and a command that
// follows everything as the organiser.
func printDemoNATS(w io.Writer, cfg config.Config, natsURL string) {
	fmt.Fprintf(w, "  NATS    %s   (nats --server %s%s sub '%s.>')\n", natsURL, natsURL, demoCredsFlags(cfg), cfg.NATS.Prefix)
	if len(cfg.NATS.Embedded.Users) == 0 {
		return
	}
	fmt.Fprint(w, "  users  ")
	for _, u := range cfg.NATS.Embedded.Users {
		fmt.Fprintf(w, " %s/%s (%s)", u.User, u.Password, u.Role)
	}
	fmt.Fprintln(w)
	if cfg.NATS.Embedded.WebSocket != "" {
		fmt.Fprintf(w, "  NATS ws ws://%s   (browsers: the arbiters' page)\n", cfg.NATS.Embedded.WebSocket)
	}
}

// printDemoPages prints the web pages' addresses and the arbiter sign-in.
func printDemoPages(w io.Writer, cfg config.Config, base string) {
	fmt.Fprintf(w, "  web     %s/   (spectators: every board, the public copy)\n", base)
	arb, ok := demoUser(cfg, config.RoleArbiter)
	if !ok || cfg.NATS.Embedded.WebSocket == "" {
		fmt.Fprintf(w, "          %s/arbiter   (arbiters: needs nats.embedded.websocket and an arbiter user)\n", base)
		return
	}
	q := url.Values{"user": {arb.User}, "password": {arb.Password}}
	// The credentials go in the fragment: a browser never sends it to the server.
	fmt.Fprintf(w, "          %s/arbiter#%s   (arbiters: live copy, alerts, commands; user %s, password %s)\n", base, q.Encode(), arb.User, arb.Password)
}

// demoCredsFlags are the nats CLI flags of the organiser user (" --user …
// --password …"), "" when the embedded server has no users.
func demoCredsFlags(cfg config.Config) string {
	org, ok := demoUser(cfg, config.RoleOrganiser)
	if !ok {
		return ""
	}
	return fmt.Sprintf(" --user %s --password %s", org.User, org.Password)
}
