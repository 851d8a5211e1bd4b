// Package status keeps, for every configured board, what the running
// daemon knows of it (connected or not, its game, ply, last move, clock,
// the alerts the arbiter has not acted on), writes it to the status
// bucket <p>_status for "dgtbridge status", serves it to /healthz's
// detail, and reads and prints it (Read, Print).
//
// The [Keeper] is fed the hall's observations (every payload a board
// produces) and asks the hall for each changed game's record; it never
// blocks a board. [Keeper.Run] writes the changed reports to NATS at most
// once a second, on a connection of its own.
package status

import (
	"slices"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// MaxOpenAlerts bounds the open alerts kept per board: past it the oldest
// are dropped (the ALERTS stream keeps them all).
const MaxOpenAlerts = 50

// Board is a configured board: its id (as in <p>.board.<id>.status), port
// and configured game. BlindOf is set for a blind player's own board.
type Board struct {
	ID, Port   string
	BusAddress int
	Game       game.ID
	BlindOf    string
}

// Records gives the record of a board's current game (the hall's
// BoardRecord), by board id.
type Records func(boardID string) (gamerecord.Record, bool)

// Keeper holds the board reports. Observe is safe from the board
// goroutines; everything else from any goroutine.
type Keeper struct {
	records Records
	now     func() time.Time

	mu      sync.Mutex
	order   []string
	boards  map[string]*broadcast.BoardReport
	blinds  map[string][]string // sighted board id → its blind player's board ids
	dirty   map[string]bool
	version uint64 // counts changes, for Run
}

// NewKeeper returns a keeper of boards, in order; records gives the
// boards' current records (nil: none, the reports then show the
// configured game and no moves).
func NewKeeper(boards []Board, records Records, now func() time.Time) *Keeper {
	if now == nil {
		now = time.Now
	}
	k := &Keeper{records: records, now: now, boards: map[string]*broadcast.BoardReport{}, blinds: map[string][]string{}, dirty: map[string]bool{}}
	for _, b := range boards {
		if b.BlindOf != "" {
			k.blinds[b.BlindOf] = append(k.blinds[b.BlindOf], b.ID)
		}
		k.order = append(k.order, b.ID)
		k.boards[b.ID] = &broadcast.BoardReport{BoardID: b.ID, Port: b.Port, BusAddress: b.BusAddress, Game: b.Game,
			BlindOf: b.BlindOf, Result: "*", Error: "not connected yet", Alerts: []broadcast.ReportAlert{}}
		k.dirty[b.ID] = true
	}
	return k
}

// Seed takes the open alerts of earlier reports (read from the status
// bucket when the daemon starts), so that a restart does not forget what
// the arbiter has still to act on. Reports of boards not configured now
// are ignored.
func (k *Keeper) Seed(old []broadcast.BoardReport) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, o := range old {
		r, ok := k.boards[o.BoardID]
		if !ok || len(o.Alerts) == 0 {
			continue
		}
		var seeded []broadcast.ReportAlert
		for _, a := range o.Alerts {
			if !slices.ContainsFunc(r.Alerts, func(x broadcast.ReportAlert) bool { return x.ID == a.ID }) {
				seeded = append(seeded, a)
			}
		}
		r.Alerts = append(seeded, r.Alerts...)
		if n := len(r.Alerts) - MaxOpenAlerts; n > 0 {
			r.Alerts = slices.Delete(r.Alerts, 0, n)
		}
		k.touch(o.BoardID)
	}
}

func (k *Keeper) touch(id string) {
	k.dirty[id] = true
	// A blind player's board shows its sighted board's game: its report
	// changes with it (it stayed at the game and ply it had when its own
	// status last changed).
	for _, b := range k.blinds[id] {
		k.dirty[b] = true
	}
	k.version++
}

// Status takes a board's connection status (the hall hands it to its
// Sink: see [Keeper.Sink]).
func (k *Keeper) Status(p game.BoardStatus) {
	k.mu.Lock()
	defer k.mu.Unlock()
	r, ok := k.boards[p.BoardID]
	if !ok {
		return
	}
	r.Connected, r.Error, r.Serial, r.ClockModel = p.Connected, p.Error, p.Serial, p.Clock
	r.LastSeen = p.LastSeen
	if p.Port != "" {
		r.Port = p.Port
	}
	k.touch(p.BoardID)
}

// Observe takes one payload a board produced (the hall's Observer).
func (k *Keeper) Observe(o hall.Observation) {
	k.mu.Lock()
	defer k.mu.Unlock()
	r, ok := k.boards[o.Board]
	if !ok {
		return
	}
	switch p := o.Payload.(type) {
	case game.MoveEvent:
		if p.Clock != nil {
			run := "black"
			if p.Ply%2 == 0 {
				run = "white"
			}
			r.Clock = &broadcast.ReportClock{WhiteMS: p.Clock.WhiteMS, BlackMS: p.Clock.BlackMS, Running: run, At: p.At}
		}
	case game.ClockEvent:
		r.Clock = &broadcast.ReportClock{WhiteMS: p.WhiteMS, BlackMS: p.BlackMS, Running: p.Running, At: p.At}
	case game.Alert:
		k.alert(r, p)
	case game.Correction, game.Result, game.Announcement:
		// The record (ply, last move, result) is read from the hall.
	}
	if o.Game != (game.ID{}) {
		r.Game = o.Game
	}
	k.touch(o.Board)
}

// alert opens or closes alerts: a crit or warn alert is open until an
// arbiter command names it (its arbiter_action record carries the id) or,
// for a lost board or clock or displaced pieces, until the info alert
// that it is back (or the position restored).
func (k *Keeper) alert(r *broadcast.BoardReport, a game.Alert) {
	switch {
	case a.Kind == game.KindCommand:
		if id, _ := a.Proposal["alert"].(string); id != "" {
			r.Alerts = slices.DeleteFunc(r.Alerts, func(x broadcast.ReportAlert) bool { return x.ID == id })
		}
	case a.Severity == game.Info:
		if a.Kind == game.KindBoardDisconnected || a.Kind == game.KindClockDisconnected || a.Kind == game.KindDisplaced {
			r.Alerts = slices.DeleteFunc(r.Alerts, func(x broadcast.ReportAlert) bool { return x.Kind == a.Kind && x.Game == a.Game })
		}
	default:
		if slices.ContainsFunc(r.Alerts, func(x broadcast.ReportAlert) bool { return x.ID == a.ID }) {
			return
		}
		r.Alerts = append(r.Alerts, broadcast.ReportAlert{ID: a.ID, Game: a.Game, Kind: a.Kind, Severity: a.Severity, Ply: a.Ply, At: a.At})
		if n := len(r.Alerts) - MaxOpenAlerts; n > 0 {
			r.Alerts = slices.Delete(r.Alerts, 0, n)
		}
	}
}

// Reports returns every board's report, in the configuration's order,
// with the game's record (ply, last move, result) as the hall has it now.
func (k *Keeper) Reports() broadcast.StatusReport {
	k.mu.Lock()
	ids := slices.Clone(k.order)
	k.mu.Unlock()
	out := broadcast.StatusReport{Boards: make([]broadcast.BoardReport, 0, len(ids))}
	now := game.T(k.now())
	for _, id := range ids {
		r := k.report(id)
		r.UpdatedAt = now
		out.Boards = append(out.Boards, r)
	}
	return out
}

// report returns one board's report with its record's data.
func (k *Keeper) report(id string) broadcast.BoardReport {
	k.mu.Lock()
	r := *k.boards[id]
	r.Alerts = slices.Clone(r.Alerts)
	if r.Clock != nil {
		c := *r.Clock
		r.Clock = &c
	}
	k.mu.Unlock()
	if k.records == nil {
		return r
	}
	id = r.BoardID
	if r.BlindOf != "" {
		id = r.BlindOf // the blind player's board shows the sighted board's game
	}
	if rec, ok := k.records(id); ok {
		r.Game = rec.Info.Game
		r.Ply = len(rec.Moves)
		r.LastMove = nil
		if n := len(rec.Moves); n > 0 {
			r.LastMove = &broadcast.ReportMove{SAN: rec.Moves[n-1].SAN, UCI: rec.Moves[n-1].UCI}
		}
		r.Result = rec.Result
		if r.Result == "" {
			r.Result = "*"
		}
		if r.Clock == nil && rec.Clock != nil {
			r.Clock = &broadcast.ReportClock{WhiteMS: rec.Clock.WhiteMS, BlackMS: rec.Clock.BlackMS}
		}
	}
	return r
}

// changed returns the reports changed since the last call (all of them
// when all is set), stamped at now.
func (k *Keeper) changed(all bool) []broadcast.BoardReport {
	k.mu.Lock()
	var ids []string
	for _, id := range k.order {
		if all || k.dirty[id] {
			ids = append(ids, id)
			delete(k.dirty, id)
		}
	}
	k.mu.Unlock()
	now := game.T(k.now())
	out := make([]broadcast.BoardReport, 0, len(ids))
	for _, id := range ids {
		r := k.report(id)
		r.UpdatedAt = now
		out = append(out, r)
	}
	return out
}

// Refresh marks every report to be written again: after a reload, whose
// new games produce no payload until their first move.
func (k *Keeper) Refresh() {
	k.mu.Lock()
	for _, id := range k.order {
		k.touch(id)
	}
	k.mu.Unlock()
}

// markDirty marks reports to be written again (after a failed write).
func (k *Keeper) markDirty(ids []string) {
	k.mu.Lock()
	for _, id := range ids {
		k.dirty[id] = true
	}
	k.mu.Unlock()
}

// ids returns the board ids, in order.
func (k *Keeper) ids() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.order)
}

// Sink returns inner with the board statuses also handed to the keeper
// (the hall publishes them through its Sink, not its Observer). What
// inner offers beyond hall.Sink (PublishAnnouncement, for the blind
// players' relays) stays offered.
func (k *Keeper) Sink(inner hall.Sink) hall.Sink { return statusSink{inner, k} }

// PublishAnnouncement hands an announcement to the inner sink when it
// publishes them (*broadcast.Publisher does).
func (s statusSink) PublishAnnouncement(a game.Announcement) error {
	if p, ok := s.Sink.(interface {
		PublishAnnouncement(game.Announcement) error
	}); ok {
		return p.PublishAnnouncement(a)
	}
	return nil
}

type statusSink struct {
	hall.Sink
	k *Keeper
}

func (s statusSink) PublishBoardStatus(b game.BoardStatus) error {
	s.k.Status(b)
	return s.Sink.PublishBoardStatus(b)
}
