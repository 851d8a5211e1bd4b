package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	dgtemu "github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi/games"
)

// XiangqiGames returns the built-in xiangqi games (rules/xiangqi/games:
// twelve master games of the Chinese Chess Practical Dataset, CC BY 4.0),
// every move resolved by the rules engine.
func XiangqiGames() ([]*pgn.Game, error) {
	gs, errs := pgn.ReadAll(strings.NewReader(games.CCPD), pgn.ReaderOptions{Variations: pgn.SkipVariations})
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("demo: built-in xiangqi games: %w", err)
	}
	if len(gs) == 0 {
		return nil, errors.New("demo: no built-in xiangqi games")
	}
	return gs, nil
}

// XiangqiTableOptions configure a XiangqiTable.
type XiangqiTableOptions struct {
	// Board is the board number (1-based): it picks the games (GameFor)
	// and the incidents.
	Board int
	// FirstRound is the round of the first game (default 1).
	FirstRound int
	// Games are the xiangqi games played in turn (XiangqiGames()).
	Games []*pgn.Game
	// Event is the event id of the games (for Result).
	Event string
	// Speed divides think and handling times (default 1).
	Speed float64
	// Seed varies the handling (the board number is added).
	Seed uint64
	// Base and Increment set the clock before each game (default 90 min
	// + 30 s).
	Base, Increment time.Duration
	// Result is the arbiter at the table: called once a game's last move
	// is made, it records the game's result (an arbiter command); the
	// board is then set up again, which begins the next round's game.
	// An error stops the table (without a result the set-up would be
	// read as a takeback of the whole game).
	Result func(ctx context.Context, g game.ID, result string) error
	// Logger (nil: discarded).
	Logger *slog.Logger
}

// XiangqiTable is one emulated xiangqi board speaking the Open Board
// Protocol, with its clock, served on a pseudo-terminal, on which two
// emulated players play the built-in master games one after another with
// human hands (think times, lifts and puts a moment apart, captures in
// either order, now and then a piece touched and put back or slid across
// a point). Every other game has an incident: a horse moved straight
// ahead, an illegal move the player takes back at once (a technical error
// candidate for the arbiter). Create it with NewXiangqiTable; Run serves
// it.
type XiangqiTable struct {
	o      XiangqiTableOptions
	e      *emu.Emulator
	master *os.File
	path   string

	mu    sync.Mutex
	round int
}

// NewXiangqiTable opens the pseudo-terminal of the board; its slave path
// (Path) is what the daemon opens, as a real board's device.
func NewXiangqiTable(o XiangqiTableOptions) (*XiangqiTable, error) {
	if len(o.Games) == 0 {
		return nil, errors.New("demo: xiangqi table without games")
	}
	if o.Board < 1 {
		return nil, fmt.Errorf("demo: board number %d (want 1 or more)", o.Board)
	}
	if o.FirstRound < 1 {
		o.FirstRound = 1
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.Base <= 0 {
		o.Base, o.Increment = 90*time.Minute, 30*time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	master, path, err := pty.Open()
	if err != nil {
		return nil, err
	}
	e, err := emu.New(emu.Options{Serial: fmt.Sprintf("XQ%04d", o.Board), Base: o.Base, Increment: o.Increment, Seed: o.Seed + uint64(o.Board)}, time.Now())
	if err != nil {
		master.Close()
		return nil, err
	}
	return &XiangqiTable{o: o, e: e, master: master, path: path}, nil
}

// Path returns the slave path of the board's pseudo-terminal.
func (t *XiangqiTable) Path() string { return t.path }

// Close closes the pseudo-terminal of a table that will not Run.
func (t *XiangqiTable) Close() error { return t.master.Close() }

// Round returns the round being played (0 before the first game).
func (t *XiangqiTable) Round() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.round
}

// Game returns the game the table plays in round.
func (t *XiangqiTable) Game(round int) *pgn.Game {
	return t.o.Games[GameFor(len(t.o.Games), round, t.o.Board)]
}

// Run serves the board and, once a host has talked to it, plays game
// after game until ctx is done; it closes the pseudo-terminal.
func (t *XiangqiTable) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var serveErr error
	wg.Go(func() {
		serveErr = dgtemu.ServePTY(ctx, t.master, t.e)
		cancel()
	})
	err := t.play(ctx)
	cancel()
	wg.Wait()
	if err != nil && ctx.Err() == nil {
		return err
	}
	return serveErr
}

// play waits for the host, then plays the rounds.
func (t *XiangqiTable) play(ctx context.Context) error {
	for len(t.e.Received()) == 0 {
		if !sleep(ctx, 100*time.Millisecond) {
			return nil
		}
	}
	if !sleep(ctx, 2*time.Second) {
		return nil
	}
	for round := t.o.FirstRound; ; round++ {
		g := t.Game(round)
		seed := t.o.Seed + uint64(round*64+t.o.Board)
		s, illegal, err := XiangqiScript(g, t.o.Speed, seed, (round+t.o.Board)%2 == 0)
		if err != nil {
			return err
		}
		t.mu.Lock()
		t.round = round
		t.mu.Unlock()
		t.o.Logger.Info("xiangqi game starts", "board", t.o.Board, "round", round, "red", g.Tag("White"), "black", g.Tag("Black"),
			"illegal_move_ply", illegal)
		s = append(emu.Script{{At: 0, Action: emu.ClockSet{First: t.o.Base, Second: t.o.Base}}}, s.Then(0, nil)...)
		if !t.perform(ctx, s) {
			return nil
		}
		// The players stop; the arbiter records the result.
		if !sleep(ctx, t.scaled(3*time.Second)) {
			return nil
		}
		id := game.ID{Event: t.o.Event, Round: round, Board: t.o.Board}
		if t.o.Result != nil {
			if err := t.o.Result(ctx, id, g.Result); err != nil {
				return fmt.Errorf("demo: result of %s: %w", id, err)
			}
		}
		if !sleep(ctx, t.scaled(3*time.Second)) {
			return nil
		}
		if !t.perform(ctx, XiangqiSetUp(t.e.Placement(), t.o.Speed)) {
			return nil
		}
		if !sleep(ctx, t.scaled(3*time.Second)) {
			return nil
		}
	}
}

// perform schedules s now and waits until it has happened.
func (t *XiangqiTable) perform(ctx context.Context, s emu.Script) bool {
	t.e.Schedule(time.Now(), s)
	for t.e.Pending() > 0 {
		if !sleep(ctx, 100*time.Millisecond) {
			return false
		}
	}
	return true
}

func (t *XiangqiTable) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) / t.o.Speed)
}

// XiangqiScript returns the hands playing g: think times of 1–5 s divided
// by speed, touches and slides now and then (emu.GameScript), and, with
// illegal, a horse moved straight ahead and taken back before the game's
// move at a ply past the opening (its ply is returned; 0 when the game
// offers none).
func XiangqiScript(g *pgn.Game, speed float64, seed uint64, illegal bool) (emu.Script, int, error) {
	if g.Start == nil {
		return nil, 0, errors.New("demo: game without a start position")
	}
	rng := rand.New(rand.NewPCG(seed, 0x71a))
	think := make([]time.Duration, len(g.Moves)+1)
	for i := range think {
		think[i] = time.Duration(float64(time.Second+time.Duration(rng.Int64N(int64(4*time.Second)))) / speed)
	}
	moves := make([]rules.Move, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.Move
	}
	ply, from, to := 0, rules.NoSquare, rules.NoSquare
	if illegal {
		ply, from, to = straightHorse(g, rng)
	}
	if ply == 0 {
		s, err := emu.GameScript(g.Start, moves, emu.GameOptions{Think: func(p int) time.Duration { return think[p] },
			Speed: min(speed, maxHandSpeed), Seed: seed, Incidents: 0.05})
		return s, 0, err
	}
	// The moves before the incident, the incident, then the rest.
	pos := g.Start
	for _, m := range moves[:ply-1] {
		pos, _ = pos.Play(m)
	}
	o := emu.GameOptions{Think: func(p int) time.Duration { return think[p] }, Speed: min(speed, maxHandSpeed), Seed: seed, Incidents: 0.05}
	before, err := emu.GameScript(g.Start, moves[:ply-1], o)
	if err != nil {
		return nil, 0, err
	}
	horse := pos.At(from)
	// Held 2.5 s on the wrong point: long enough for the daemon to report
	// the illegal move made (it is one once placed, Art. 9.5(b)); then
	// the player puts it back and makes the game's move.
	incident := emu.Script{
		{At: think[ply], Action: emu.Lift{Square: from}},
		{At: think[ply] + 500*time.Millisecond, Action: emu.Put{Square: to, Piece: horse}},
		{At: think[ply] + 3*time.Second, Action: emu.Lift{Square: to}},
		{At: think[ply] + 3500*time.Millisecond, Action: emu.Put{Square: from, Piece: horse}},
	}
	o.NoClockStart = true
	o.Think = func(p int) time.Duration {
		if p == 1 {
			return time.Second
		}
		return think[ply-1+p]
	}
	after, err := emu.GameScript(pos, moves[ply-1:], o)
	if err != nil {
		return nil, 0, err
	}
	return before.Then(0, incident).Then(0, after), ply, nil
}

// straightHorse finds a ply, past the opening, before which the mover has
// a horse whose point straight ahead (one step towards the opponent) is
// empty: moving it there is physically possible and illegal.
func straightHorse(g *pgn.Game, rng *rand.Rand) (ply int, from, to rules.Square) {
	type cand struct {
		ply      int
		from, to rules.Square
	}
	var cands []cand
	pos := g.Start
	for i, m := range g.Moves {
		if i >= 8 && i < len(g.Moves)-2 {
			geo := pos.Geometry()
			dir := 1
			if pos.Turn() == rules.Black {
				dir = -1
			}
			for s := rules.Square(0); int(s) < geo.Size(); s++ {
				pc := pos.At(s)
				if pc.Kind != rules.Knight || pc.Color != pos.Turn() {
					continue
				}
				r := geo.Rank(s) + dir
				if r < 0 || r >= geo.Ranks {
					continue
				}
				if t := geo.Square(geo.File(s), r); pos.At(t).IsEmpty() {
					cands = append(cands, cand{i + 1, s, t})
				}
			}
		}
		next, err := pos.Play(m.Move)
		if err != nil {
			break
		}
		pos = next
	}
	if len(cands) == 0 {
		return 0, rules.NoSquare, rules.NoSquare
	}
	c := cands[rng.IntN(len(cands))]
	return c.ply, c.from, c.to
}

// XiangqiSetUp returns the hands setting the xiangqi start array up again
// on a board showing from, one piece at a time.
func XiangqiSetUp(from rules.Placement, speed float64) emu.Script {
	if speed <= 0 {
		speed = 1
	}
	step := time.Duration(float64(250*time.Millisecond) / min(speed, maxHandSpeed))
	start := emu.StartArray(rules.Xiangqi9x10)
	diff := from.Diff(&start, nil)
	var s emu.Script
	at := time.Duration(0)
	for _, sq := range diff {
		if !from.At(sq).IsEmpty() {
			s = append(s, emu.Step{At: at, Action: emu.Lift{Square: sq}})
			at += step
		}
	}
	for _, sq := range diff {
		if !start.At(sq).IsEmpty() {
			s = append(s, emu.Step{At: at, Action: emu.Put{Square: sq, Piece: start.At(sq)}})
			at += step
		}
	}
	return s
}

// XiangqiNextGame is the session.SessionOptions.NextGame of a demo xiangqi
// board: the same board of the next round, with that round's players.
func XiangqiNextGame(games []*pgn.Game) func(gamerecord.Info) gamerecord.Info { return NextGame(games) }
