package config

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// SecretFileNotes returns a warning for each file holding a secret that
// other users of this machine can read: lichess.token_file, and the
// configuration file while nats.embedded.users holds a password written out
// (not a bcrypt hash). A file is too open when others may read it, or
// its group may and that group is not the daemon's own (a configuration
// root:dgtbridge 0640 read by the dgtbridge group is fine). The daemon
// logs them at every start (and "run --check" prints them); nothing is
// refused: the operator decides.
func (c *Config) SecretFileNotes() []string {
	var notes []string
	if f := c.Lichess.TokenFile; f != "" {
		if why := tooOpen(f); why != "" {
			notes = append(notes, fmt.Sprintf("lichess.token_file: %s %s: chmod 600 %s (owned by the daemon's user)", f, why, f))
		}
	}
	if c.File != "" {
		if keys := c.plainPasswords(); len(keys) > 0 {
			if why := tooOpen(c.File); why != "" {
				notes = append(notes, fmt.Sprintf("%s holds passwords written out (%s) and %s: chmod 640 %s with the daemon's group, "+
					"or put bcrypt hashes in the file (dgtbridge passwd)", c.File, strings.Join(keys, ", "), why, c.File))
			}
		}
	}
	return notes
}

// plainPasswords names the users of nats.embedded.users whose password
// is written out rather than a bcrypt hash
// ("nats.embedded.users[0].password").
func (c *Config) plainPasswords() []string {
	var keys []string
	for i, u := range c.NATS.Embedded.Users {
		if u.Password != "" && !IsPasswordHash(u.Password) {
			keys = append(keys, fmt.Sprintf("nats.embedded.users[%d].password", i))
		}
	}
	return keys
}

// IsPasswordHash reports whether a configured password is a bcrypt hash
// ("$2a$…", "$2b$…", "$2y$…"), as `dgtbridge passwd` prints and the
// embedded NATS server and the HTTP staff sign-in take.
func IsPasswordHash(p string) bool {
	return strings.HasPrefix(p, "$2a$") || strings.HasPrefix(p, "$2b$") || strings.HasPrefix(p, "$2y$")
}

// tooOpen says who besides the daemon can read file ("" when nobody, or
// when it cannot be read at all: loading reports that).
func tooOpen(file string) string {
	st, err := os.Stat(file)
	if err != nil {
		return ""
	}
	m := st.Mode().Perm()
	switch {
	case m&0o004 != 0:
		return fmt.Sprintf("can be read by every user of this machine (mode %04o)", m)
	case m&0o040 != 0 && !ownGroup(st):
		return fmt.Sprintf("can be read by its group, which is not the daemon's (mode %04o)", m)
	}
	return ""
}

// groupOf is the file's group id, false where the system does not say.
var groupOf = fileGroup

// ownGroup reports whether the file's group is the process's effective
// group.
func ownGroup(st fs.FileInfo) bool {
	gid, ok := groupOf(st)
	return ok && gid == os.Getegid()
}
