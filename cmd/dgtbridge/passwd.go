package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/dgtbridge/dgtbridge/broadcast/httpauth"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/status"
	"golang.org/x/term"
)

// passwdShort is the length under which passwd warns: a hall's staff
// password guarded by bcrypt still falls to a short dictionary.
const passwdShort = 10

// runPasswd implements "dgtbridge passwd": it prints the bcrypt hash of a
// password for nats.embedded.users[].password. The password is typed
// (twice, not shown) when standard input is a terminal, else it is the
// first line of standard input; never an argument (ps shows those).
func runPasswd(_ context.Context, args []string, stdout, stderr io.Writer) error {
	return passwd(args, os.Stdin, stdout, stderr)
}

func passwd(args []string, in *os.File, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("passwd", "",
		"Print a bcrypt hash of a password, for nats.embedded.users[].password: the embedded NATS server and the HTTP\n"+
			"staff sign-in take it, and the configuration file then holds no password. The password is typed twice\n"+
			"(not shown) on a terminal, or is the first line of standard input (echo … | dgtbridge passwd).", stderr)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: errors.New("passwd: the password is never an argument (every user of this machine sees those in ps): type it, or give it on standard input")}
	}
	var pw string
	if fd := int(in.Fd()); term.IsTerminal(fd) {
		a, err := cli.PromptTwice(fd, stderr, "password: ", "the same again: ")
		if errors.Is(err, cli.ErrDiffer) {
			return errors.New("passwd: the two passwords differ; nothing printed")
		} else if err != nil {
			return fmt.Errorf("passwd: reading the terminal: %w", err)
		}
		pw = a
	} else {
		p, ok, err := status.ReadPassword(status.PasswordOptions{Stdin: true, In: in, Getenv: func(string) string { return "" }})
		if err != nil || !ok {
			return fmt.Errorf("passwd: standard input: %w", orEmpty(err))
		}
		pw = p
	}
	if pw == "" {
		return errors.New("passwd: the password is empty")
	}
	if n := utf8.RuneCountInString(pw); n < passwdShort {
		fmt.Fprintf(stderr, "dgtbridge passwd: %d characters is short for a password anyone on the hall's network can try: %d or more is better\n", n, passwdShort)
	}
	h, err := httpauth.Hash(pw)
	if err != nil {
		return fmt.Errorf("passwd: %w", err)
	}
	_, err = fmt.Fprintln(stdout, h)
	return err
}

func orEmpty(err error) error {
	if err == nil {
		return errors.New("the password is empty")
	}
	return err
}
