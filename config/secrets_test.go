package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretFileNotes: the token file and a configuration holding a
// written-out password are named when others, or a group that is not the
// daemon's, can read them (whatever the umask made of them: the modes are
// set here); not when only the daemon (and its own group) can, and never
// for a configuration whose passwords are all bcrypt hashes.
func TestSecretFileNotes(t *testing.T) {
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte("lip_x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const hash = "$2a$10$0123456789012345678901uQ6G1b7m0a8W3YtQ9vJq1V5Yb8JQ6rG"
	write := func(name, password string) string {
		p := filepath.Join(dir, name)
		body := "lichess: {token_file: token, rounds: {1: AbCd1234}}\nnats:\n  embedded:\n    users:\n      - {user: a, password: '" + password + "', role: arbiter}\n"
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain, hashed := write("plain.yaml", "change me"), write("hashed.yaml", hash)
	otherGroup := func(fs.FileInfo) (int, bool) { return os.Getegid() + 1, true }
	ownGroup := func(fs.FileInfo) (int, bool) { return os.Getegid(), true }
	for _, tc := range []struct {
		name      string
		file      string
		tokenMode fs.FileMode
		fileMode  fs.FileMode
		group     func(fs.FileInfo) (int, bool)
		want      []string // substrings, one note each
	}{
		{"private", plain, 0o600, 0o600, otherGroup, nil},
		{"daemon's group", plain, 0o640, 0o640, ownGroup, nil},
		{"token for all", plain, 0o644, 0o600, ownGroup, []string{"lichess.token_file: " + token + " can be read by every user"}},
		{"token for another group", plain, 0o640, 0o600, otherGroup, []string{"lichess.token_file: " + token + " can be read by its group, which is not the daemon's"}},
		{"passwords for all", plain, 0o600, 0o644, ownGroup, []string{plain + " holds passwords written out (nats.embedded.users[0].password) and can be read by every user"}},
		{"passwords for another group", plain, 0o600, 0o640, otherGroup, []string{"can be read by its group"}},
		{"hashes for all", hashed, 0o600, 0o644, otherGroup, nil},
		{"both", plain, 0o604, 0o604, ownGroup, []string{"lichess.token_file", "holds passwords written out"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			groupOf = tc.group
			defer func() { groupOf = fileGroup }()
			if err := os.Chmod(token, tc.tokenMode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(tc.file, tc.fileMode); err != nil {
				t.Fatal(err)
			}
			c, err := Load(LoadOptions{File: tc.file})
			if err != nil {
				t.Fatal(err)
			}
			notes := c.SecretFileNotes()
			if len(notes) != len(tc.want) {
				t.Fatalf("notes %q, want %d", notes, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(notes[i], w) {
					t.Errorf("note %q lacks %q", notes[i], w)
				}
			}
		})
	}
}
