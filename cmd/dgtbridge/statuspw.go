package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/status"
)

// statusPassword is the password "dgtbridge status" logs in with: the
// --password flag (with a warning: every user of the machine sees it in
// ps), else the one source of o (status.ReadPassword), else "" (the
// configuration's user and its written-out password).
func statusPassword(flag string, o status.PasswordOptions, stderr io.Writer) (string, error) {
	if flag != "" {
		if o.Stdin || o.File != "" {
			return "", cli.UsageError{Err: errors.New("status: --password beside --password-file or --password-stdin: give the password one way")}
		}
		fmt.Fprintf(stderr, "dgtbridge status: a password on the command line is visible to every user of this machine (ps); use %s, --password-file or --password-stdin\n", status.PasswordEnv)
		return flag, nil
	}
	pw, _, err := status.ReadPassword(o)
	if err != nil {
		return "", cli.UsageError{Err: err}
	}
	return pw, nil
}
