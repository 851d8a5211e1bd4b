package broadcast

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// rejectedFile, in the outbox directory, keeps every message set aside: one
// JSON object a line ([rejection]), appended and fsynced before the record
// leaves the outbox, for the operator.
const rejectedFile = "rejected.jsonl"

// rejection is one line of rejectedFile.
type rejection struct {
	At     time.Time   `json:"at"`
	Reason string      `json:"reason"`
	Record OutboxEntry `json:"record"`
}

// permanent reports whether err means the server will never take the
// message, however often it is sent: it is then set aside instead of
// holding back every message behind it. Anything else (a timeout, no
// stream yet, a lost connection, a permission the operator may still fix)
// is retried.
func permanent(err error) bool {
	if errors.Is(err, nats.ErrMaxPayload) || errors.Is(err, nats.ErrBadSubject) {
		return true
	}
	var api *jetstream.APIError
	if errors.As(err, &api) {
		// 400: the server judged the message itself (its size, its
		// headers), not the moment.
		return api.Code == 400 || api.ErrorCode == jetstream.JSErrCodeStreamMessageExceedsMaximum
	}
	return false
}

// setAside keeps r in rejectedFile (fsynced), logs it, raises one alert per
// game and kind for the arbiter, and counts it; the caller then acks r. An
// error means r could not be kept: it stays in the outbox and is retried.
func (p *Publisher) setAside(r OutboxEntry, cause error) error {
	line, err := json.Marshal(rejection{At: p.o.Now().UTC(), Reason: cause.Error(), Record: r})
	if err != nil {
		return fmt.Errorf("broadcast: set aside %s: %w", r.MsgID, err)
	}
	path := filepath.Join(p.o.Dir, rejectedFile)
	f, err := storage.OS.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, storage.FileMode)
	if err != nil {
		return fmt.Errorf("broadcast: set aside %s: %w", r.MsgID, err)
	}
	_, err = f.Write(append(line, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("broadcast: set aside %s: %w", r.MsgID, err)
	}
	p.rejected.Add(1)
	p.log.Error("message refused by NATS for good: set aside, the others go on",
		"subject", r.Subject, "msg_id", r.MsgID, "bytes", len(r.Data), "err", cause, "kept_in", path)
	if r.Public || r.Game == (game.ID{}) {
		return nil // the live record's alert says it; a board status has no game
	}
	// One alert per game and kind of message, its id shaped like every
	// other alert's (<game>.<kind>...): its Nats-Msg-Id makes the stream
	// keep the first; later refusals are kept, logged and counted.
	a := game.Alert{ID: fmt.Sprintf("%s.%s.%s", r.Game, game.KindMessageRejected, r.Kind), Game: r.Game, Kind: game.KindMessageRejected,
		Severity: game.Warn, At: game.T(p.o.Now()),
		Message: fmt.Sprintf("A %s message of this game (%d bytes) was refused by NATS and not published: %v. "+
			"It is kept in %s; the other messages go on. Later refusals of this game's %s messages are kept there too "+
			"and counted (/metrics), without another alert.", r.Kind, len(r.Data), cause, path, r.Kind)}
	if err := p.PublishAlert(a); err != nil {
		p.log.Error("alert for a message set aside not journalled", "err", err)
	}
	return nil
}

// Rejected is how many messages NATS refused for good and were set aside.
func (p *Publisher) Rejected() int64 { return p.rejected.Load() }
