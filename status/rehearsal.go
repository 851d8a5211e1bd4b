package status

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rehearse"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// RehearsalKey is the status bucket's key of a rehearsal's checklist
// (dgtbridge rehearse writes it; board ids never begin with an
// underscore).
const RehearsalKey = "_rehearsal"

// ReadRehearsal returns the rehearsal's checklist from the status bucket;
// ok is false when no rehearsal wrote one.
func ReadRehearsal(ctx context.Context, nc *nats.Conn, s broadcast.Subjects) (r rehearse.Report, ok bool, err error) {
	kv, err := openBucket(ctx, nc, s)
	if err != nil {
		return r, false, err
	}
	e, err := kv.Get(ctx, RehearsalKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return r, false, nil
	}
	if err != nil {
		return r, false, err
	}
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return r, false, fmt.Errorf("status bucket: the rehearsal's checklist: %w", err)
	}
	return r, true, nil
}

// WriteJSON writes what "dgtbridge status --json" prints: the boards, the
// Lichess rounds and the build as a broadcast.StatusReport, with the
// rehearsal's checklist under "rehearsal" when rh is not nil.
func WriteJSON(w io.Writer, d broadcast.DaemonReport, boards []broadcast.BoardReport, rh *rehearse.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		broadcast.StatusReport
		Rehearsal *rehearse.Report `json:"rehearsal,omitempty"`
	}{StatusReport: broadcast.StatusReport{Boards: boards, Lichess: d.Lichess, Version: d.Version, Commit: d.Commit}, Rehearsal: rh})
}

// PrintWith is [Print], then the rehearsal's checklist when rh is not nil.
func PrintWith(w io.Writer, d broadcast.DaemonReport, boards []broadcast.BoardReport, rh *rehearse.Report, now time.Time) error {
	if err := Print(w, d, boards, now); err != nil || rh == nil {
		return err
	}
	fmt.Fprintln(w)
	return rehearse.Print(w, *rh)
}
