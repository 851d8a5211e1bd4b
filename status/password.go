package status

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// PasswordEnv is the environment variable "dgtbridge status" reads its NATS
// password from (a password on the command line is visible to every user
// of the machine in ps).
const PasswordEnv = "DGTBRIDGE_STATUS_PASSWORD"

// maxPassword bounds a password read from a file or stdin.
const maxPassword = 4 << 10

// PasswordOptions says where "dgtbridge status" may read the password of
// its NATS user.
type PasswordOptions struct {
	// File is --password-file: the password is its first line.
	File string
	// Stdin is --password-stdin: the password is the first line of In.
	Stdin bool
	In    io.Reader
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
}

// ErrPasswordSources: more than one source was given.
var ErrPasswordSources = errors.New("status: give the password one way: " + PasswordEnv + ", --password-file or --password-stdin")

// ReadPassword returns the password of the one source given: stdin,
// the file, or [PasswordEnv]; ok is false when none is. A trailing line
// ending is not part of the password; an empty one is an error naming
// its source.
func ReadPassword(o PasswordOptions) (pw string, ok bool, err error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	env := getenv(PasswordEnv)
	n := 0
	for _, given := range []bool{o.Stdin, o.File != "", env != ""} {
		if given {
			n++
		}
	}
	var from string
	switch {
	case n > 1:
		return "", false, ErrPasswordSources
	case o.Stdin:
		from = "--password-stdin"
		pw, err = firstLine(o.In)
	case o.File != "":
		from = "--password-file " + o.File
		var f *os.File
		if f, err = os.Open(o.File); err == nil {
			pw, err = firstLine(f)
			f.Close()
		}
	case env != "":
		return env, true, nil
	default:
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("status: %s: %w", from, err)
	}
	if pw == "" {
		return "", false, fmt.Errorf("status: %s: the password is empty", from)
	}
	return pw, true, nil
}

// firstLine reads the first line of r (at most maxPassword bytes),
// without its line ending.
func firstLine(r io.Reader) (string, error) {
	if r == nil {
		return "", errors.New("nothing to read")
	}
	line, err := bufio.NewReaderSize(io.LimitReader(r, maxPassword+1), 512).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if len(line) > maxPassword {
		return "", fmt.Errorf("longer than %d bytes: not a password", maxPassword)
	}
	return strings.TrimRight(line, "\r\n"), nil
}
