package hall

import (
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The writer is the one goroutine through which the boards' work reaches
// the disk and the publisher. A board never waits for it: after each input
// the board hands over a change (the record's new moves and header, and
// the payloads that input produced) and goes on reading its port. The
// writer applies the changes of every board to its own copies of the
// records, writes them to the game journal and makes them durable with one
// fsync for all of them (group commit: a batch collects whatever arrived
// while the previous fsync ran, or for Options.CommitWindow), and only
// then hands the payloads to the publisher, board by board in the order
// they were made. So nothing is published that a restart would contradict,
// and a slow or stalled disk delays publication, never the boards.
//
// A write that fails (a full disk, an I/O error, no file descriptors
// left) loses nothing: the changes stay in memory (each game's copy
// accumulates them), the commit is tried again with back-off (50 ms
// doubling to 5 s) and, once it succeeds, every payload goes out exactly
// once, in order. A payload the publisher refuses (its outbox cannot
// write) is held the same way, with those after it. Meanwhile Health says
// why (and /healthz answers 503), the log says it, and the arbiter of
// every game waiting gets a storage_failed alert (and an info alert when
// writes succeed again).

// Storage defaults (Options).
const (
	DefaultCommitWindow = 2 * time.Millisecond
	DefaultCompactBytes = 32 << 20
	DefaultCompactEvery = 5 * time.Minute
	DefaultDrainTimeout = 15 * time.Second
	minRetry            = 50 * time.Millisecond
	maxRetry            = 5 * time.Second
)

// change is what a board hands to storage after one input.
type change struct {
	br     *boardRun // the board (announcements, the observer, the log)
	game   game.ID
	delta  *delta // the record's change; nil when it did not change
	status *game.BoardStatus
	out    []game.Payload
	state  *game.GameState // after out, when the record changed
	read   time.Time       // when the input was read (its move's delay is measured from it)
	next   int             // items already handed to the sink
}

// delta is a record's change: its header and all its moves (rec.Moves,
// shared with the board's record: read only, see [Record.Moves]), the
// first from of which were handed before, and the team events from
// teamFrom on (rec.Team.Events; the first teamFrom were handed before).
type delta struct {
	from, teamFrom int
	rec            gamerecord.Record
}

// items is how many things a change publishes: the status, the payloads,
// the state.
func (c *change) items() int {
	n := len(c.out)
	if c.status != nil {
		n++
	}
	if c.state != nil {
		n++
	}
	return n
}

// gameCopy is the writer's copy of one game's record.
type gameCopy struct {
	rec *gamerecord.Record
	seq uint64 // the game's last journal entry
	// written/writtenRev: the moves and revision the journal holds;
	// writtenTeam, writtenInfo, writtenCorr: its team events, Info and
	// last correction (what a chained entry leaves out).
	written, writtenRev int
	writtenTeam         int
	writtenInfo         gamerecord.Info
	writtenCorr         *game.Correction
	dirty               bool // changed since its last entry
	full                bool // the next entry stands alone (after a failed write)
	compact             bool // changed since its record file was written
	// published: MoveEvents of this revision handed to the publisher;
	// safe: of those, how many a record file says were (after the
	// publisher's outbox was synced): a restart hands the rest again
	// (the streams drop repeats by message id).
	published, safe int
	// over: the game's board has gone on to another game. released: and
	// the copy's moves were let go (release), the record file holding
	// them all; a later change of the game (a command on an ended game)
	// brings them back, since a change carries all its record's moves.
	over, released bool
}

// writerOptions configure a writer.
type writerOptions struct {
	fs                          storage.FS
	gamesDir                    string
	sink                        Sink
	log                         *slog.Logger
	now                         func() time.Time
	observer                    func(Observation)
	window, compactEvery, drain time.Duration
	compactBytes                int64
}

// writer is the storage goroutine's state (see above).
type writer struct {
	o writerOptions
	j *gamestore.Journal

	mu       sync.Mutex
	queue    []*change
	wake     chan struct{}
	stopping bool
	health   storage.Health
	waiting  atomic.Int64 // changes not yet published (backlog)
	done     chan struct{}

	// owned by run
	games       map[game.ID]*gameCopy
	playing     map[*boardRun]game.ID // each board's latest game (release)
	next        uint64                // next journal sequence number
	uncommitted []*change             // applied to the copies, not yet durable
	unpublished []*change             // durable, payloads not all handed
	retry       time.Duration
	failing     bool
	failedAt    time.Time
	warned      map[game.ID]bool // storage_failed alert sent in this failure
	late        []game.Alert     // storage alerts the publisher refused
	lastLog     time.Time
	compacting  bool
	compactDone chan compaction
	lastCompact time.Time
}

// newWriter returns a writer over an open journal and the records it
// loaded (their copies; the boards own their own).
func newWriter(o writerOptions, j *gamestore.Journal, l *gamestore.Loaded) *writer {
	w := &writer{o: o, j: j, wake: make(chan struct{}, 1), done: make(chan struct{}),
		games: map[game.ID]*gameCopy{}, playing: map[*boardRun]game.ID{}, next: l.Next, warned: map[game.ID]bool{},
		compactDone: make(chan compaction, 1), lastCompact: o.now()}
	for g, r := range l.Records {
		w.adopt(g, r, l.Seqs[g])
	}
	return w
}

// adopt makes r (loaded, journal entry seq) the writer's copy of g.
func (w *writer) adopt(g game.ID, r *gamerecord.Record, seq uint64) {
	cp := *r
	cp.Moves = r.SharedMoves()
	cp.Team = r.Team.Clone() // the board's session adds to its own
	w.games[g] = &gameCopy{rec: &cp, seq: seq, written: len(cp.Moves), writtenRev: cp.Revision,
		writtenTeam: len(cp.TeamEvents()), writtenInfo: cp.Info, writtenCorr: cp.LastCorrection,
		published: cp.Published, safe: cp.Published}
}

// submit queues a change; it never blocks (the queue is memory).
func (w *writer) submit(c *change) {
	w.waiting.Add(1)
	w.mu.Lock()
	w.queue = append(w.queue, c)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// stop asks run to finish: everything queued is written and published
// (for at most the drain time-out), the records are compacted into their
// files, and run returns.
func (w *writer) stop() {
	w.mu.Lock()
	w.stopping = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	<-w.done
}

// Health is nil unless a write failed within the last minute; then it
// says which and how many changes wait.
func (w *writer) Health() error {
	err := w.health.Err(w.o.now())
	if err == nil {
		return nil
	}
	return fmt.Errorf("storage: %w (%d changes waiting)", err, w.waiting.Load())
}

// take returns the queued changes and whether stop was asked.
func (w *writer) take() ([]*change, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	q := w.queue
	w.queue = nil
	return q, w.stopping
}

// run is the writer goroutine.
func (w *writer) run() {
	defer close(w.done)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var deadline time.Time // set when stopping
	for {
		batch, stopping := w.take()
		if stopping && deadline.IsZero() {
			deadline = w.o.now().Add(w.o.drain)
		}
		if len(batch) > 0 && !w.failing && w.o.window > 0 && !stopping {
			// Group commit: let the other boards' changes of these few
			// milliseconds join this batch.
			time.Sleep(w.o.window)
			more, _ := w.take()
			batch = append(batch, more...)
		}
		for _, c := range batch {
			w.applyChange(c)
		}
		w.uncommitted = append(w.uncommitted, batch...)
		if !w.failing || !w.o.now().Before(w.failedAt.Add(w.retry)) {
			w.flush()
		}
		select {
		case r := <-w.compactDone:
			w.compacted(r)
		default:
		}
		if !w.failing {
			w.maybeCompact(false)
		}
		if stopping && (len(w.uncommitted)+len(w.unpublished) == 0 || !w.o.now().Before(deadline)) {
			w.finish(deadline)
			return
		}
		wait := time.Hour
		if w.failing {
			wait = max(w.failedAt.Add(w.retry).Sub(w.o.now()), time.Millisecond)
		} else if w.compacting {
			wait = 100 * time.Millisecond
		} else if w.o.compactEvery > 0 {
			wait = max(w.lastCompact.Add(w.o.compactEvery).Sub(w.o.now()), time.Millisecond)
		}
		if stopping {
			wait = min(wait, max(deadline.Sub(w.o.now()), time.Millisecond))
		}
		timer.Reset(wait)
		select {
		case <-w.wake:
		case <-timer.C:
		case r := <-w.compactDone:
			w.compacted(r)
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// applyChange plays a change's delta onto the writer's copy.
func (w *writer) applyChange(c *change) {
	d := c.delta
	if d == nil {
		return
	}
	gc := w.games[c.game]
	if gc == nil {
		gc = &gameCopy{writtenRev: -1}
		w.games[c.game] = gc
	}
	w.follow(c.br, c.game, gc)
	nr := d.rec // its Moves are the board's (shared, never written in place)
	if gc.released {
		gc.released = false // the change brings the moves back
	} else if d.from > 0 && (gc.rec == nil || d.from > len(gc.rec.Moves)) {
		// Cannot happen (a board's delta follows what it handed); the
		// journal gets the board's moves all the same.
		w.o.log.Error("storage: a record change does not follow the record", "game", c.game, "from", d.from)
		d.from = 0
	}
	if d.teamFrom > 0 && nr.Team != nil {
		// (nr.Team is the change's own copy.)
		if gc.rec == nil || d.teamFrom > len(gc.rec.TeamEvents()) {
			w.o.log.Error("storage: a team record change does not follow the record", "game", c.game, "from", d.teamFrom)
		} else {
			nr.Team.Events = append(slices.Clip(gc.rec.TeamEvents()[:d.teamFrom]), nr.Team.Events...)
		}
	}
	if gc.rec != nil && (nr.Revision != gc.rec.Revision || nr.Info.Game != gc.rec.Info.Game) {
		// A correction: moves after the cut are no longer this revision's.
		gc.published = min(gc.published, d.from)
		gc.safe = min(gc.safe, d.from)
	}
	gc.rec = &nr
	gc.dirty, gc.compact = true, true
}

// follow notes that board br now plays g (gc): the game it played before
// is over for it, and its copy's moves can go (release).
func (w *writer) follow(br *boardRun, g game.ID, gc *gameCopy) {
	gc.over = false
	if br == nil {
		return
	}
	prev, ok := w.playing[br]
	w.playing[br] = g
	if ok && prev != g {
		if pc := w.games[prev]; pc != nil {
			pc.over = true
			w.release(pc)
		}
	}
}

// release lets go of the moves of a game whose board has gone on to
// another one, once its record file holds them all and every MoveEvent
// of it was handed to the publisher and synced (safe): then nothing of
// the writer's needs them any more (a hall that runs round after round
// would otherwise keep every game it ever saw). The header stays, with
// what the journal's chained entries need (seq, written, published).
// Team-drop games keep theirs (their changes carry only new team events).
func (w *writer) release(gc *gameCopy) {
	r := gc.rec
	if !gc.over || gc.released || r == nil || r.Team != nil || gc.dirty || gc.compact ||
		gc.safe < len(r.Moves) || gc.published < len(r.Moves) {
		return
	}
	hdr := *r
	hdr.Moves = nil
	gc.rec, gc.released = &hdr, true
}

// flush commits the uncommitted changes and publishes what is durable;
// a failure starts (or continues) the back-off.
func (w *writer) flush() {
	if len(w.uncommitted) > 0 || w.anyDirty() {
		if err := w.commit(); err != nil {
			w.fail(err)
			return
		}
		w.unpublished = append(w.unpublished, w.uncommitted...)
		w.uncommitted = nil
	}
	if err := w.publish(); err != nil {
		w.fail(err)
		return
	}
	w.recovered()
}

func (w *writer) anyDirty() bool {
	for _, gc := range w.games {
		if gc.dirty {
			return true
		}
	}
	return false
}

// commit writes an entry for every changed game and fsyncs the journal
// once for all of them.
func (w *writer) commit() error {
	var buf []byte
	type pending struct {
		gc  *gameCopy
		seq uint64
	}
	var done []pending
	base := w.next
	for g, gc := range w.games {
		if !gc.dirty {
			continue
		}
		e := &gamestore.Entry{Seq: w.next, Game: g, Rec: *gc.rec}
		w.next++
		e.Rec.Published = gc.safe
		if !gc.full && gc.seq != 0 && gc.writtenRev == gc.rec.Revision && gc.written <= len(gc.rec.Moves) {
			e.From, e.Prev = gc.written, gc.seq
			e.Rec.Moves = gc.rec.Moves[gc.written:]
			if r := gc.rec; r.Info == gc.writtenInfo && sameCorrection(r.LastCorrection, gc.writtenCorr) &&
				gc.writtenTeam <= len(r.TeamEvents()) {
				// Only what changed: the moves, the header's small
				// fields, the new team events.
				e.Inherit, e.TeamFrom = true, gc.writtenTeam
				e.Rec.Info, e.Rec.LastCorrection = gamerecord.Info{}, nil
				if r.Team != nil {
					t := *r.Team
					t.Events = t.Events[gc.writtenTeam:]
					e.Rec.Team = &t
				}
			}
		}
		var err error
		if buf, err = gamestore.AppendEntry(buf, e); err != nil {
			return err
		}
		done = append(done, pending{gc, e.Seq})
	}
	if len(done) == 0 {
		return nil
	}
	err := w.j.Append(buf, base)
	if err == nil {
		err = w.j.Sync()
	}
	if err != nil {
		for _, p := range done {
			p.gc.full = true // what the failed segment holds may be lost
		}
		return err
	}
	for _, p := range done {
		r := p.gc.rec
		p.gc.seq, p.gc.written, p.gc.writtenRev = p.seq, len(r.Moves), r.Revision
		p.gc.writtenTeam, p.gc.writtenInfo, p.gc.writtenCorr = len(r.TeamEvents()), r.Info, r.LastCorrection
		p.gc.dirty, p.gc.full = false, false
	}
	return nil
}

// sameCorrection reports whether two last corrections are the same one.
func sameCorrection(a, b *game.Correction) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Revision == b.Revision && a.Ply == b.Ply && a.At.Equal(b.At.Time) && a.Reason == b.Reason &&
		a.FEN == b.FEN && slices.Equal(a.Moves, b.Moves)
}

// publish hands the payloads of the durable changes to the sink, in
// order; it stops at the first the sink refuses (kept for the retry).
func (w *writer) publish() error {
	if err := w.sendLate(); err != nil {
		return err
	}
	for len(w.unpublished) > 0 {
		c := w.unpublished[0]
		for c.next < c.items() {
			if err := w.hand(c, c.next); err != nil {
				return err
			}
			c.next++
		}
		w.unpublished[0] = nil
		w.unpublished = w.unpublished[1:]
		w.waiting.Add(-1)
	}
	return nil
}

// hand publishes item i of c.
func (w *writer) hand(c *change, i int) error {
	sink := w.o.sink
	if c.status != nil {
		if i == 0 {
			return sink.PublishBoardStatus(*c.status)
		}
		i--
	}
	if i == len(c.out) {
		return sink.PublishState(*c.state)
	}
	out := c.out[i]
	var err error
	switch p := out.(type) {
	case game.MoveEvent:
		if err = sink.PublishMove(p); err == nil {
			if c.br != nil && !c.read.IsZero() {
				c.br.h.pace.moves.Observe(time.Since(c.read))
			}
			if gc := w.games[c.game]; gc != nil && p.Revision == gc.rec.Revision && p.Ply > gc.published {
				gc.published = p.Ply
			}
		}
	case game.Correction:
		err = sink.PublishCorrection(p)
	case game.ClockEvent:
		err = sink.PublishClock(p)
	case game.Result:
		err = sink.PublishResult(p)
	case game.Alert:
		err = sink.PublishAlert(p)
	case game.Announcement:
		if c.br != nil {
			err = c.br.announce(p)
		}
	}
	if err == nil && w.o.observer != nil {
		board := ""
		if c.br != nil {
			board = c.br.b.ID
		}
		w.o.observer(Observation{Board: board, Game: c.game, Payload: out})
	}
	return err
}

// fail notes a failed write: health, log (at most every 30 s), back-off,
// and a storage_failed alert for each game that now waits.
func (w *writer) fail(err error) {
	now := w.o.now()
	w.health.Fail(now, err)
	if !w.failing {
		w.failing, w.retry = true, minRetry
	} else {
		w.retry = min(2*w.retry, maxRetry)
	}
	w.failedAt = now
	if now.Sub(w.lastLog) >= 30*time.Second {
		w.lastLog = now
		w.o.log.Error("storage: write failed; changes kept in memory, retrying", "err", err,
			"waiting", w.waiting.Load(), "retry", w.retry)
	}
	for _, c := range append(slices.Clip(w.uncommitted), w.unpublished...) {
		if w.warned[c.game] {
			continue
		}
		w.warned[c.game] = true
		w.storageAlert(c.game, now, game.Warn, fmt.Sprintf("The daemon cannot write this game's record or messages to disk (%v). "+
			"Nothing is lost while it runs: the moves are kept in memory and published once the disk answers; a power loss now would lose them.", err))
	}
}

// recovered ends a failure: health and log say so, and each game warned
// gets an info alert.
func (w *writer) recovered() {
	if !w.failing {
		return
	}
	w.failing, w.retry = false, 0
	w.health.OK()
	now := w.o.now()
	w.o.log.Info("storage: writes succeed again; everything waiting is written and published", "games", len(w.warned))
	for g := range w.warned {
		w.storageAlert(g, now, game.Info, "Writes succeed again: this game's record and messages are on disk and published.")
	}
	clear(w.warned)
}

// storageAlert publishes a storage alert directly: it does not wait for
// the journal. When the publisher cannot write either, it is kept and
// sent once it can (before anything else).
func (w *writer) storageAlert(g game.ID, at time.Time, sev, msg string) {
	a := game.Alert{ID: fmt.Sprintf("%s.%s.%s.%d", g, game.KindStorageFailed, sev, at.UnixMilli()), Game: g,
		Kind: game.KindStorageFailed, Severity: sev, At: game.T(at), Message: msg}
	w.late = append(w.late, a)
	w.sendLate()
}

// sendLate publishes the storage alerts kept (in order) until the
// publisher refuses one.
func (w *writer) sendLate() error {
	for len(w.late) > 0 {
		a := w.late[0]
		if err := w.o.sink.PublishAlert(a); err != nil {
			return err
		}
		if w.o.observer != nil {
			w.o.observer(Observation{Game: a.Game, Payload: a})
		}
		w.late = w.late[1:]
	}
	return nil
}
