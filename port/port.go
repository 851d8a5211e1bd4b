// Package port holds the one definition of a board's port as every link
// sees it (dgt/link, dgt/bus, obp/link): something that opens an
// io.ReadWriteCloser, again after every failure. The command opens serial
// ports behind it; tests and emulators open pipes and pseudo-terminals.
package port

import (
	"context"
	"io"
)

// Opener opens a board's port (or a bus line's). A link calls it again for
// every reconnect, retries an error after its back-off, and closes what it
// returns.
type Opener func(ctx context.Context) (io.ReadWriteCloser, error)
