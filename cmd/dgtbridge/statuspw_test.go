package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/status"
)

// TestStatusPassword: a password given by the environment (or a file, or
// stdin) logs in as the first organiser even when the configuration holds
// only bcrypt hashes; without one such a configuration names the three
// ways; --password still works but warns that ps shows it, and is refused
// beside another source.
func TestStatusPassword(t *testing.T) {
	users := []config.User{
		{User: "viewer", Password: "v", Role: config.RolePublic},
		{User: "arb", Password: "$2a$10$abcdefghijklmnopqrstuv", Role: config.RoleArbiter},
		{User: "hall", Password: "$2a$10$abcdefghijklmnopqrstuw", Role: config.RoleOrganiser},
	}
	if u, err := daemon.ClientUser(users, true); err != nil || u.User != "hall" {
		t.Errorf("with a password: %+v %v, want hall", u, err)
	}
	if _, err := daemon.ClientUser(users, false); err == nil || !strings.Contains(err.Error(), status.PasswordEnv) || !strings.Contains(err.Error(), "--password-stdin") {
		t.Errorf("hashes only, no password: %v", err)
	}
	t.Setenv(status.PasswordEnv, "from env")
	var errb bytes.Buffer
	if pw, err := statusPassword("", status.PasswordOptions{}, &errb); err != nil || pw != "from env" || errb.Len() != 0 {
		t.Errorf("environment: %q %v %q", pw, err, errb.String())
	}
	if pw, err := statusPassword("flag pw", status.PasswordOptions{}, &errb); err != nil || pw != "flag pw" || !strings.Contains(errb.String(), "visible to every user") {
		t.Errorf("--password: %q %v, warned %q", pw, err, errb.String())
	}
	if _, err := statusPassword("flag pw", status.PasswordOptions{File: "/x"}, &errb); err == nil || cli.ExitCode(err) != 2 {
		t.Errorf("--password with --password-file: %v", err)
	}
	if _, err := statusPassword("", status.PasswordOptions{File: "/x"}, &errb); err == nil || cli.ExitCode(err) != 2 {
		t.Errorf("environment and --password-file: %v", err)
	}
}
