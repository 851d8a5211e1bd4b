package cli

import (
	"errors"
	"fmt"
	"os"
)

// ErrOutputIsInput is returned by [CreateOutput] for an output file that
// is also one of the command's inputs (a shell pattern can expand into
// the output flag's place).
var ErrOutputIsInput = errors.New("is also one of the input files")

// ErrNotOurs is returned by [CreateOutput] for an existing file that does
// not hold what the command writes.
var ErrNotOurs = errors.New("exists and does not hold what this command writes")

// CreateOutput creates (or empties) the output file path of a command
// that reads inputs: never one of the inputs, and an existing file only
// when ours says its first bytes (up to 512) are what the command writes.
// Its refusals are usage errors wrapping ErrOutputIsInput or ErrNotOurs.
func CreateOutput(path string, inputs []string, ours func(head []byte) bool) (*os.File, error) {
	if st, err := os.Stat(path); err == nil {
		for _, in := range inputs {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				return nil, UsageError{Err: fmt.Errorf("%s %w", path, ErrOutputIsInput)}
			}
		}
		if !ours(head(path)) {
			return nil, UsageError{Err: fmt.Errorf("%s %w", path, ErrNotOurs)}
		}
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// head is the first 512 bytes of a file (nil when it cannot be read).
func head(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, _ := f.Read(buf)
	return buf[:n]
}
