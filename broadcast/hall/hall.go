package hall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
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
	lines   []*busLine  // bus lines (bus.go)
	saver   *groupSaver // record files, group-committed (groupsave.go)

	mu     sync.Mutex
	runCtx context.Context // Run's, for the request handlers; nil before
}

// New checks the options and loads every game's record from DataDir (a
// corrupt record is an error: it is evidence and is not overwritten).
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
	h := &Hall{o: o, log: log, byGame: map[game.ID]*boardRun{}, changed: make(chan struct{}, 1), saver: newGroupSaver()}
	ids := map[string]bool{}
	for i, b := range o.Boards {
		if !broadcast.ValidToken(b.ID) {
			return nil, fmt.Errorf("%w: board %d: id %q is not a subject token ([a-z0-9_-]+)", ErrOptions, i+1, b.ID)
		}
		if ids[b.ID] {
			return nil, fmt.Errorf("%w: board id %q used twice", ErrOptions, b.ID)
		}
		ids[b.ID] = true
		if b.Open == nil {
			return nil, fmt.Errorf("%w: board %s: no Opener", ErrOptions, b.ID)
		}
		g := b.Session.Info.Game
		if err := g.Validate(); err != nil {
			return nil, fmt.Errorf("%w: board %s: %v", ErrOptions, b.ID, err)
		}
		if err := b.Session.Info.checkText(); err != nil {
			return nil, fmt.Errorf("%w: board %s: %v", ErrOptions, b.ID, err)
		}
		if _, dup := h.byGame[g]; dup {
			return nil, fmt.Errorf("%w: game %s on two boards", ErrOptions, g)
		}
		rec, ok, err := LoadRecord(h.gamesDir(), g)
		if err != nil {
			return nil, err
		}
		if !ok {
			rec = nil
		}
		br := &boardRun{h: h, b: b, rec: rec, cmds: make(chan command), saved: make(chan error, 1), log: log.With("board", b.ID, "game", g.String())}
		h.boards = append(h.boards, br)
		h.byGame[g] = br
	}
	h.prepareBlind()
	h.groupLines()
	h.handleRequests()
	return h, nil
}

func (h *Hall) gamesDir() string { return filepath.Join(h.o.DataDir, "games") }

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
	// The record saver outlives the boards: their last saves on the way
	// out are committed too.
	var sw sync.WaitGroup
	sw.Go(h.saver.start())
	defer sw.Wait()
	defer h.saver.stop()
	for _, br := range h.boards {
		if br.b.BusAddress > 0 {
			continue // served by its line below
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

// Health returns nil when every board is connected, otherwise one line per
// board that is not ("board r1-b3 (/dev/ttyACM2): disconnected: EOF").
func (h *Hall) Health() error {
	var lines []string
	for _, br := range h.boards {
		if !br.connected.Load() {
			why := "not connected yet"
			if e, _ := br.lastErr.Load().(string); e != "" {
				why = "disconnected: " + e
			}
			lines = append(lines, fmt.Sprintf("board %s (%s): %s", br.b.ID, br.b.Port, why))
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
// a next game). Safe for concurrent use.
func (h *Hall) Record(g game.ID) (Record, bool) {
	br, ok := h.current(g)
	if !ok {
		return Record{}, false
	}
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.snap == nil {
		return Record{}, false
	}
	return *br.snap, true
}
