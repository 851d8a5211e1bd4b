package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// BusMax is the most boards ServeHall puts on one bus line (DGT does not
// say; 32 is what a line's polling at 9600 baud allows).
const BusMax = 64

// HallOptions say what [ServeHall] serves.
type HallOptions struct {
	Boards      int
	Bus         int      // boards per bus line (at most BusMax); 0: each board on its own pty
	Think       emu.Span // the pause before each move
	Games       []*pgn.Game
	Seed        uint64
	Round       int // the round in the printed configuration
	Clock       emu.ClockSetting
	TimeControl string    // the clock as a PGN TimeControl, for the configuration printed
	Truth       io.Writer // when not nil: every ply played, one JSON line each
	FirstBoard  int       // the board number of the first board
}

// emuBoard is one emulated board of the hall.
type emuBoard struct {
	e     *emu.Emulator
	board int    // board number
	port  string // its device path
	addr  uint16 // bus address, 0 on its own line
}

// ServeHall serves o.Boards emulated boards with clocks on
// pseudo-terminals, o.Bus to a line (or one each), prints a `boards:`
// configuration snippet naming them on stdout, and has every board play
// games one after another with realistic hands until ctx is done: an
// organiser's load test on their own hardware.
func ServeHall(ctx context.Context, o HallOptions, stdout, stderr io.Writer) error {
	powerUp := time.Now()
	boards := make([]*emuBoard, o.Boards)
	for i := range boards {
		n := o.FirstBoard + i
		opts := emu.Setup{Serial: fmt.Sprintf("%05d", 1000+n), Seed: o.Seed*7919 + uint64(n), Clock: o.Clock}
		sc := emu.DrawScan(opts.Seed)
		opts.ScanPeriod, opts.ScanPhase = sc.Period, sc.Phase
		boards[i] = &emuBoard{e: emu.New(opts, powerUp), board: n}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	serve := func(dev emu.Device) (string, error) {
		master, path, err := pty.Open()
		if err != nil {
			return "", err
		}
		wg.Go(func() { emu.ServePTY(ctx, master, dev) })
		return path, nil
	}
	lines := 0
	if o.Bus > 0 {
		for i := 0; i < len(boards); i += o.Bus {
			group := boards[i:min(i+o.Bus, len(boards))]
			var es []*emu.Emulator
			for _, b := range group {
				es = append(es, b.e)
			}
			path, err := serve(emu.NewLine(powerUp, es...))
			if err != nil {
				return err
			}
			lines++
			for _, b := range group {
				b.port, b.addr = path, b.e.Address()
			}
		}
	} else {
		for _, b := range boards {
			path, err := serve(b.e)
			if err != nil {
				return err
			}
			b.port = path
		}
	}
	writeSnippet(stdout, boards, o, lines)
	fmt.Fprintf(stderr, "dgtbridge emulate: %d boards served (Ctrl-C to stop)\n", len(boards))
	truth := &truthWriter{w: o.Truth}
	for i, b := range boards {
		wg.Go(func() { playTable(ctx, b, i, o, powerUp, truth) })
	}
	<-ctx.Done()
	return nil
}

// writeSnippet prints the configuration for the served boards.
func writeSnippet(w io.Writer, boards []*emuBoard, o HallOptions, lines int) {
	if lines > 0 {
		fmt.Fprintf(w, "# dgtbridge emulate: %d boards with clocks on %d bus lines of up to %d boards\n", len(boards), lines, o.Bus)
	} else {
		fmt.Fprintf(w, "# dgtbridge emulate: %d boards with clocks, each on its own line\n", len(boards))
	}
	fmt.Fprintf(w, "# the clocks are set to %s (event.time_control: %q)\n", o.TimeControl, o.TimeControl)
	fmt.Fprintln(w, "boards:")
	for _, b := range boards {
		if b.addr > 0 {
			fmt.Fprintf(w, "  - {port: %s, bus_address: %d, round: %d, board: %d}\n", b.port, b.addr, o.Round, b.board)
		} else {
			fmt.Fprintf(w, "  - {port: %s, round: %d, board: %d}\n", b.port, o.Round, b.board)
		}
	}
}

// playTable has the players of board b play games one after another: a
// game with realistic hands, the pieces set up again, the clock reset.
func playTable(ctx context.Context, b *emuBoard, i int, o HallOptions, powerUp time.Time, truth *truthWriter) {
	h := emu.DefaultHands()
	h.Think = o.Think
	wait := func(until time.Time) bool {
		t := time.NewTimer(time.Until(until))
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		}
	}
	// Boards start their first move at different moments, as a hall does.
	start := time.Now().Add(2*time.Second + time.Duration(i%50)*37*time.Millisecond)
	for k := 0; ; k++ {
		g := o.Games[(i+k)%len(o.Games)]
		moves := make([]rules.Move, len(g.Moves))
		for j, m := range g.Moves {
			moves[j] = m.Move
		}
		game := emu.Game{Start: g.Start, Moves: moves, Board: b.e.Setup(), Hands: h, Seed: o.Seed*1_000_003 + uint64(b.board)*1009 + uint64(k)}
		script, plies, err := game.Plan(powerUp, start)
		if err != nil {
			return // the games were checked when loaded
		}
		b.e.Schedule(start, script)
		truth.plies(b.board, k+1, g, plies)
		if !wait(start.Add(script.Duration() + 3*time.Second)) {
			return
		}
		up := SetUp(b.e.Placement(), 1)
		now := time.Now()
		b.e.Schedule(now, up)
		if !wait(now.Add(up.Duration() + 2*time.Second)) {
			return
		}
		b.e.SetClock(time.Now(), o.Clock)
		start = time.Now().Add(3 * time.Second)
	}
}

// truthWriter writes what the hands did, one JSON line per ply, for a
// latency report to compare with what the daemon published.
type truthWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// TruthPly is one line of [HallOptions].Truth.
type TruthPly struct {
	Board   int       `json:"board"`
	Game    int       `json:"game"` // the n-th game played on the board
	Ply     int       `json:"ply"`
	UCI     string    `json:"uci"`
	Touch   time.Time `json:"touch"`
	Release time.Time `json:"release"`
	Press   time.Time `json:"press"`
}

func (t *truthWriter) plies(board, game int, g *pgn.Game, plies []emu.Ply) {
	if t.w == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	enc := json.NewEncoder(t.w)
	pos := g.Start
	for _, p := range plies {
		enc.Encode(TruthPly{Board: board, Game: game, Ply: p.Ply, UCI: pos.UCI(p.Move), Touch: p.Touch, Release: p.Release, Press: p.Press})
		if next, err := pos.Play(p.Move); err == nil {
			pos = next
		}
	}
}

// HallGames returns the games of a PGN file, or with path "" the demo's
// famous games: only games from the standard start with at least one move.
func HallGames(path string) ([]*pgn.Game, error) {
	var gs []*pgn.Game
	if path == "" {
		var err error
		if gs, err = Games(); err != nil {
			return nil, err
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		var errs []error
		gs, errs = pgn.ReadAll(f, pgn.ReaderOptions{Variations: pgn.SkipVariations})
		if len(gs) == 0 {
			return nil, fmt.Errorf("%s: no game: %w", path, errors.Join(errs...))
		}
	}
	std := chess.StartPosition(chess.Standard).FEN()
	var out []*pgn.Game
	for _, g := range gs {
		if len(g.Moves) > 0 && g.Start.FEN() == std {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no game from the standard start position in %q", path)
	}
	return out, nil
}
