package hall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// ErrNoBoards: Options.Boards is empty.
var ErrNoBoards = errors.New("hall: no boards configured")

// ErrOptions: an option is missing or invalid (wrapped with details).
var ErrOptions = errors.New("hall: bad options")

// Hall runs every board of the hall. Create it with New, call Run once.
type Hall struct {
	o      Options
	log    *slog.Logger
	boards []*boardRun
	byGame map[game.ID]*boardRun

	changed chan struct{}
	lines   []*busLine // bus lines (bus.go)
	w       *writer    // the storage goroutine (writer.go)
	pace    *pace      // how far behind the boards' goroutines are (pace.go)
	fs      storage.FS
	// lost: the publisher's outbox lost unsent messages (damage set aside
	// at start): every board hands its game's messages again.
	lost string

	mu     sync.Mutex
	runCtx context.Context // Run's, for the request handlers; nil before
	// spares by id, and the board reading each (spare.go; under mu).
	spares  map[string]*Spare
	spareOf map[string]*boardRun
}

// New checks the options, opens the game journal in DataDir and loads
// every game's record (its file and the journal's later changes). Damaged
// data does not stop it: a record file that does not parse, or a damaged
// journal segment, is set aside (renamed, kept as evidence), named in the
// log, and the game starts from what could be recovered, with an alert
// for its arbiter; the other boards start normally.
func New(o Options) (*Hall, error) {
	if len(o.Boards) == 0 {
		return nil, ErrNoBoards
	}
	if o.Sink == nil {
		return nil, fmt.Errorf("%w: no Sink", ErrOptions)
	}
	if o.DataDir == "" {
		return nil, fmt.Errorf("%w: no DataDir", ErrOptions)
	}
	if o.Tick <= 0 {
		o.Tick = 50 * time.Millisecond
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	o.CommitWindow = defaultDur(o.CommitWindow, DefaultCommitWindow)
	o.CompactEvery = defaultDur(o.CompactEvery, DefaultCompactEvery)
	o.DrainTimeout = defaultDur(o.DrainTimeout, DefaultDrainTimeout)
	o.HistoryWait = defaultDur(o.HistoryWait, DefaultHistoryWait)
	if o.CompactBytes <= 0 {
		o.CompactBytes = DefaultCompactBytes
	}
	h := &Hall{o: o, log: log, byGame: map[game.ID]*boardRun{}, changed: make(chan struct{}, 1), fs: storage.Or(o.FS), pace: newPace()}
	j, l, err := gamestore.Open(h.fs, filepath.Join(h.gamesDir(), "journal"), h.gamesDir())
	if err != nil {
		return nil, err
	}
	h.w = newWriter(writerOptions{fs: h.fs, gamesDir: h.gamesDir(), sink: o.Sink, log: log, now: o.Now,
		observer: o.Observer, window: max(o.CommitWindow, 0), compactEvery: o.CompactEvery, drain: o.DrainTimeout,
		compactBytes: o.CompactBytes}, j, l)
	notes := repair(h.w, l, o.Now())
	if lr, ok := o.Sink.(interface{ LostMessages() (int, string) }); ok {
		if n, why := lr.LostMessages(); n > 0 {
			h.lost = fmt.Sprintf("%d unsent messages were lost with it (%s)", n, why)
			log.Error("the outbox lost unsent messages; every game's messages are handed again", "lost", n, "where", why)
		}
	}
	ids := map[string]bool{}
	for i, b := range o.Boards {
		if !broadcast.ValidToken(b.ID) {
			return nil, fmt.Errorf("%w: board %d: id %q is not a subject token ([a-z0-9_-]+)", ErrOptions, i+1, b.ID)
		}
		if ids[b.ID] {
			return nil, fmt.Errorf("%w: board id %q used twice", ErrOptions, b.ID)
		}
		ids[b.ID] = true
		if err := checkProtocol(b); err != nil {
			return nil, err
		}
		switch b.Protocol {
		case ProtocolManual:
			b.Session.NoBoard = true
		case ProtocolOBP:
			// An OBP board sends a line at each lift and put, at once:
			// no scan lags its reports behind a lever press.
			b.Session.Tracker.Immediate = true
		}
		g := b.Session.Info.Game
		if err := g.Validate(); err != nil {
			return nil, fmt.Errorf("%w: board %s: %v", ErrOptions, b.ID, err)
		}
		if err := b.Session.Info.CheckText(); err != nil {
			return nil, fmt.Errorf("%w: board %s: %v", ErrOptions, b.ID, err)
		}
		if _, dup := h.byGame[g]; dup {
			return nil, fmt.Errorf("%w: game %s on two boards", ErrOptions, g)
		}
		rec, err := h.load(g, l, notes)
		if err != nil {
			j.Close()
			return nil, err
		}
		br := &boardRun{h: h, b: b, rec: rec, notes: notes[g], cmds: make(chan command), log: log.With("board", b.ID, "game", g.String())}
		h.boards = append(h.boards, br)
		h.byGame[g] = br
	}
	if err := h.prepareSpares(); err != nil {
		j.Close()
		return nil, err
	}
	h.prepareBlind()
	if err := h.pairTeams(); err != nil {
		return nil, err
	}
	h.groupLines()
	h.handleRequests()
	return h, nil
}

func (h *Hall) gamesDir() string { return filepath.Join(h.o.DataDir, "games") }

func defaultDur(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// load returns game g's record (nil: a new game): the journal's, else its
// file's (which the writer then adopts). A file that does not parse is
// set aside and noted; an error means the disk could not be read at all.
func (h *Hall) load(g game.ID, l *gamestore.Loaded, notes map[game.ID][]string) (*gamerecord.Record, error) {
	if r, ok := l.Records[g]; ok {
		return cloneRecord(r), nil
	}
	if _, bad := l.BadFiles[g]; bad {
		return nil, nil // set aside by repair
	}
	r, seq, ok, err := gamestore.LoadRecordFile(h.fs, h.gamesDir(), g)
	if errors.Is(err, gamestore.ErrCorruptRecord) {
		path := gamestore.RecordPath(h.gamesDir(), g)
		aside, serr := gamestore.SetAside(h.fs, path, h.o.Now())
		if serr != nil {
			return nil, fmt.Errorf("hall: %w (and it could not be set aside: %v)", err, serr)
		}
		h.log.Error("damaged game record set aside", "game", g, "file", path, "aside", aside, "err", err)
		notes[g] = append(notes[g], fmt.Sprintf("its record file %s was damaged (%v) and is set aside as %s", path, err, aside))
		return nil, nil
	}
	if err != nil || !ok {
		return nil, err
	}
	h.w.adopt(g, r, seq)
	return r, nil
}

func cloneRecord(r *gamerecord.Record) *gamerecord.Record {
	cp := *r
	cp.Moves = slices.Clone(r.Moves)
	cp.Team = r.Team.Clone()
	return &cp
}

// keepUnreplayable writes a record that does not replay beside its file
// (<g>.json.unreplayable-<time>) for the arbiter and returns the path.
func (h *Hall) keepUnreplayable(r *gamerecord.Record, now time.Time) string {
	path := gamestore.RecordPath(h.gamesDir(), r.Info.Game) + ".unreplayable-" + now.UTC().Format("20060102T150405.000")
	b, err := json.Marshal(r)
	if err == nil {
		var f storage.File
		if f, err = h.fs.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, storage.FileMode); err == nil {
			_, err = f.Write(b)
			if serr := f.Sync(); err == nil {
				err = serr
			}
			f.Close()
		}
	}
	if err != nil {
		h.log.Error("the record that does not replay could not be kept", "path", path, "err", err)
		return "(not kept: " + err.Error() + ")"
	}
	return path
}

// Run runs every board (one goroutine each) until ctx is done, then lets
// each board finish the input it holds (persisted and handed to the sink)
// and returns nil; requests (arbiter commands, time requests) are answered
// while it runs. An error is returned only when a board cannot start (its
// record does not replay).
func (h *Hall) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	h.mu.Lock()
	h.runCtx = ctx
	h.mu.Unlock()
	var wg sync.WaitGroup
	errs := make(chan error, len(h.boards))
	// The writer outlives the boards: their last changes on the way out
	// are written and published too.
	go h.w.run()
	defer h.w.stop()
	h.fetchHistories(ctx) // damaged games: what was published of them
	for _, br := range h.boards {
		if br.b.BusAddress > 0 || (br.team != nil && br.team.follower) {
			continue // served by its line below, or by its partner board's goroutine
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := br.run(ctx); err != nil {
				errs <- err
				cancel()
			}
		}()
	}
	for _, l := range h.lines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.run(ctx); err != nil {
				errs <- err
				cancel()
			}
		}()
	}
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return errors.Join(all...)
}

// Summary counts the boards (a blind player's own board counts as one)
// and those not connected now.
func (h *Hall) Summary() (boards, disconnected int) {
	for _, br := range h.boards {
		if !br.connected.Load() {
			disconnected++
		}
		if bl := br.blind; bl != nil {
			boards++
			if !bl.connected.Load() {
				disconnected++
			}
		}
	}
	return len(h.boards) + boards, disconnected
}

// Changed receives a value (coalesced) whenever a board connects or
// disconnects: the daemon then updates its systemd STATUS line.
func (h *Hall) Changed() <-chan struct{} { return h.changed }

func (h *Hall) notify() {
	select {
	case h.changed <- struct{}{}:
	default:
	}
}

// Health returns nil when every board is connected and every write of the
// last minute succeeded, otherwise one line per board that is not
// ("board r1-b3 (/dev/ttyACM2): disconnected: EOF") and one for storage
// ("storage: writes failing since …").
func (h *Hall) Health() error {
	var lines []string
	if err := h.w.Health(); err != nil {
		lines = append(lines, err.Error())
	}
	for _, br := range h.boards {
		if !br.connected.Load() {
			why := "not connected yet"
			if e, _ := br.lastErr.Load().(string); e != "" {
				why = "disconnected: " + e
			}
			lines = append(lines, fmt.Sprintf("board %s (%s): %s", br.b.ID, br.portNow(), why))
		}
		lines = append(lines, br.blindHealth()...)
	}
	if len(lines) == 0 {
		return nil
	}
	return errors.New(strings.Join(lines, "\n"))
}

// Record returns a copy of the current record of game g (ok false when the
// hall has no such game, it has not started, or its board has moved on to
// a next game). Safe for concurrent use. Its moves share the hall's array
// (see [Record.Moves]): read them, never write into them.
func (h *Hall) Record(g game.ID) (gamerecord.Record, bool) {
	br, ok := h.current(g)
	if !ok {
		return gamerecord.Record{}, false
	}
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.snap == nil {
		return gamerecord.Record{}, false
	}
	return *br.snap, true
}
