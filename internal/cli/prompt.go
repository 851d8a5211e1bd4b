package cli

import (
	"errors"
	"fmt"
	"io"

	"golang.org/x/term"
)

// ErrDiffer is returned by [PromptTwice] when the two answers differ.
var ErrDiffer = errors.New("the two answers differ")

// PromptTwice asks on the terminal fd for a secret twice, not shown,
// prompting on w, and returns it when both answers are the same.
func PromptTwice(fd int, w io.Writer, first, again string) (string, error) {
	ask := func(prompt string) (string, error) {
		fmt.Fprint(w, prompt)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(w)
		return string(b), err
	}
	a, err := ask(first)
	if err != nil {
		return "", err
	}
	b, err := ask(again)
	if err != nil {
		return "", err
	}
	if a != b {
		return "", ErrDiffer
	}
	return a, nil
}
