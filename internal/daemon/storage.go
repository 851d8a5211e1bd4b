package daemon

import (
	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
)

// withStorage sets the hall's storage options from the storage keys
// (docs/durability.md): a commit window of 0 is none (the hall's
// negative), compact_mib is MiB, and history_wait 0 reads nothing back
// (no History). pub reads back what was published of a damaged game.
func withStorage(o hall.Options, s config.Storage, pub *broadcast.Publisher) hall.Options {
	o.CommitWindow = s.CommitWindow
	if o.CommitWindow == 0 {
		o.CommitWindow = -1
	}
	o.CompactEvery = s.CompactEvery
	o.CompactBytes = int64(s.CompactMiB) << 20
	o.DrainTimeout = s.DrainTimeout
	o.History, o.HistoryWait = nil, s.HistoryWait
	if s.HistoryWait > 0 && pub != nil {
		o.History = pub.History
	}
	return o
}
