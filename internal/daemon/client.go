package daemon

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/status"
	"github.com/nats-io/nats.go"
)

// ErrNoClientUser is returned by [ClientUser] when the configuration
// has no organiser or arbiter user a command can sign in as.
var ErrNoClientUser = errors.New("no organiser or arbiter user with a plain password in nats.embedded.users")

// Connect connects a command of this program (status, and the like) to
// the running daemon's NATS server as the configuration allows: nats.url
// with nats.creds, or the embedded server's listener as a user of the
// configuration (user; "": the one [ClientUser] picks). It returns the
// connection and a description of where it went.
func Connect(cfg *config.Config, user, password string, timeout time.Duration) (*nats.Conn, string, error) {
	if cfg.NATS.URL == "" && user == "" && len(cfg.NATS.Embedded.Users) > 0 {
		u, err := ClientUser(cfg.NATS.Embedded.Users, password != "")
		if err != nil {
			return nil, "", err
		}
		user = u.User
		if password == "" {
			password = u.Password
		}
	}
	u := findUser(cfg, user)
	return status.Connect(status.Dial{URL: cfg.NATS.URL, Creds: cfg.NATS.Creds, Nkey: cfg.NATS.Nkey,
		Listen: cfg.NATS.Embedded.Listen, TLSCert: cfg.NATS.Embedded.TLS.Cert, User: user, Password: password,
		Arbiter: user != "" && u != nil && u.Role == config.RoleArbiter, Timeout: timeout})
}

// ClientUser picks the first organiser, else arbiter, user: with a
// password given (havePassword), whatever the configuration holds for it;
// without, one whose password is written out (a bcrypt hash cannot sign
// in). None: an error wrapping [ErrNoClientUser] that says what to give.
func ClientUser(users []config.User, havePassword bool) (config.User, error) {
	for _, role := range []config.Role{config.RoleOrganiser, config.RoleArbiter} {
		for _, u := range users {
			if u.Role == role && (havePassword || !strings.HasPrefix(u.Password, "$2")) {
				return u, nil
			}
		}
	}
	return config.User{}, fmt.Errorf("%w: give the password in %s, with --password-file FILE or --password-stdin (and --user for another user)",
		ErrNoClientUser, status.PasswordEnv)
}

func findUser(cfg *config.Config, name string) *config.User {
	for i, u := range cfg.NATS.Embedded.Users {
		if u.User == name {
			return &cfg.NATS.Embedded.Users[i]
		}
	}
	return nil
}
