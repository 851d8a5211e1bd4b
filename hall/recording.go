package hall

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/port"
)

// recordingOpener wraps open so that every connection's traffic is logged
// to <dataDir>/record/<boardID>/<start>.hexlog (one file per connection).
// A recording that cannot be created is logged and the board is served
// without it: the game matters more than its recording.
func recordingOpener(open port.Opener, dataDir, boardID string, now func() time.Time, log *slog.Logger) port.Opener {
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		rw, err := open(ctx)
		if err != nil {
			return nil, err
		}
		f, err := recording.Create(dataDir, boardID, now())
		if err != nil {
			log.Error("recording not created; serving the board without it", "err", err)
			return rw, nil
		}
		return &recordedPort{Tap: recording.NewTap(rw, recording.NewLogWriter(f), now), f: f}, nil
	}
}

// recordedPort is a tapped port that closes its recording file too.
type recordedPort struct {
	*recording.Tap
	f *os.File
}

// Close closes the port and then the recording file, joining both errors.
func (p *recordedPort) Close() error {
	err := p.Tap.Close()
	return errors.Join(err, p.f.Close())
}
