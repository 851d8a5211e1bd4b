package link

import (
	"context"
	"io"
)

// Probe runs the identification sequence (see the package comment) once
// on rwc and closes it: it tells whether a DGT board answers there, and
// which (version, serial numbers, clock). It fails with ErrNoBoard when
// nothing answers within opts.IdentifyInterval × opts.IdentifyTries, or
// with the port's read or write error. The board is left in UPDATE_NICE
// mode, which is harmless. Used by `dgtbridge ports` and by automatic
// port detection.
func Probe(ctx context.Context, rwc io.ReadWriteCloser, opts Settings) (Connected, error) {
	l := New(nil, opts)
	s, end := l.start(ctx, rwc)
	defer end()
	return s.identify(false)
}
