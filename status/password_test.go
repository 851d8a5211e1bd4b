package status

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadPassword: each source alone gives its password without the line
// ending; none gives ok false; two are refused; an empty or missing one is
// an error naming it.
func TestReadPassword(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pw")
	os.WriteFile(file, []byte("from file\nsecond line\n"), 0o600)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	long := filepath.Join(dir, "long")
	os.WriteFile(long, []byte(strings.Repeat("x", maxPassword+10)), 0o600)
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == PasswordEnv {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name   string
		o      PasswordOptions
		want   string
		ok     bool
		errHas string
	}{
		{"none", PasswordOptions{Getenv: env("")}, "", false, ""},
		{"env", PasswordOptions{Getenv: env("from env")}, "from env", true, ""},
		{"file", PasswordOptions{File: file, Getenv: env("")}, "from file", true, ""},
		{"stdin", PasswordOptions{Stdin: true, In: strings.NewReader("from stdin\r\n"), Getenv: env("")}, "from stdin", true, ""},
		{"stdin without newline", PasswordOptions{Stdin: true, In: strings.NewReader("pw"), Getenv: env("")}, "pw", true, ""},
		{"file and env", PasswordOptions{File: file, Getenv: env("x")}, "", false, "one way"},
		{"stdin and file", PasswordOptions{File: file, Stdin: true, In: strings.NewReader("x"), Getenv: env("")}, "", false, "one way"},
		{"empty file", PasswordOptions{File: empty, Getenv: env("")}, "", false, "--password-file " + empty + ": the password is empty"},
		{"empty stdin", PasswordOptions{Stdin: true, In: strings.NewReader(""), Getenv: env("")}, "", false, "--password-stdin: the password is empty"},
		{"missing file", PasswordOptions{File: filepath.Join(dir, "nope"), Getenv: env("")}, "", false, "no such file"},
		{"huge file", PasswordOptions{File: long, Getenv: env("")}, "", false, "not a password"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pw, ok, err := ReadPassword(tc.o)
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("err %v, want one with %q", err, tc.errHas)
				}
				if tc.errHas == "one way" && !errors.Is(err, ErrPasswordSources) {
					t.Errorf("err %v is not ErrPasswordSources", err)
				}
				return
			}
			if err != nil || pw != tc.want || ok != tc.ok {
				t.Errorf("got %q %v %v, want %q %v", pw, ok, err, tc.want, tc.ok)
			}
		})
	}
}
