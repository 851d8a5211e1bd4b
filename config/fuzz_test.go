package config

import (
	"errors"
	"fmt"
	"testing"
)

// FuzzLoad: any configuration file is loaded or refused with errors that
// each match ErrFile, ErrUnknownKey or ErrInvalid (the key-naming kinds);
// nothing panics.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"",
		"data_dir: /tmp/x\nrecord: false\n",
		"nats: {url: nats://localhost:4222, prefix: dgt}\n",
		"boards:\n  - {port: auto, round: 1, board: 1, variant: chess960}\n",
		"boards:\n  - {port: /dev/ttyACM0, round: 1, board: 2, blind: {side: black, port: /dev/ttyACM1, lang: de}}\n",
		"boards: [1, 2]\nnats: 5\n",
		"event: {public_delay: 900}\n",
		"nats:\n  embedded:\n    users: [{user: a, password: b, role: arbiter}, [x]]\n",
		"1: x\n? [a]\n: b\n",
		"boards:\n  - {round: x, board: -1, variant: go, partner: 2}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		_, err := Load(LoadOptions{File: writeFile(t, "c.yaml", body)})
		if err == nil {
			return
		}
		// Every problem errors.Join collected must be of a known kind.
		var walk func(error)
		walk = func(e error) {
			if j, ok := e.(interface{ Unwrap() []error }); ok && fmt.Sprintf("%T", e) == "*errors.joinError" {
				for _, x := range j.Unwrap() {
					walk(x)
				}
				return
			}
			if !errors.Is(e, ErrFile) && !errors.Is(e, ErrUnknownKey) && !errors.Is(e, ErrInvalid) {
				t.Errorf("%q: error %v matches none of ErrFile, ErrUnknownKey, ErrInvalid", body, e)
			}
		}
		walk(err)
	})
}
