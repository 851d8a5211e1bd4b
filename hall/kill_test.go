package hall

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Where a kill falls (killCase.mode).
const (
	killRandom = "random" // any instant of the game
	killPress  = "press"  // under a second after a lever press (its move may wait for the board's next look)
	killSave   = "save"   // while the journal's fsync (group commit) is under way
)

// killCase is one kill and restart: two boards (alone on their ports, or
// on one bus line) play realistic games (dgt/emu's hands, lawful habits);
// the daemon is killed at an instant the seed draws for the mode, stays
// dead for gap while both games go on, and is started again.
type killCase struct {
	bus   bool
	mode  string
	seed  uint64
	noLog bool // the boards' logs cannot be read (single boards)
}

// killCases is how many kill cases `go test` runs; KILL_CASES sets
// more for a longer local run.
func killCases(t *testing.T) int {
	if s := os.Getenv("KILL_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("KILL_CASES=%q: want a positive number of kills", s)
		}
		return n
	}
	if testing.Short() {
		return 6
	}
	return 24
}

// TestKillAtRandomInstants: the daemon is killed (its data folder left as
// a SIGKILL leaves it) at random instants of two games on single boards
// and on a bus line: anywhere, under a second after a lever press (the
// pressed move waiting for the board's next look), or during the
// journal's fsync; it stays dead 5 s to 150 s while the players go on,
// then starts again. Every move played must be in the record when the
// games are over, the moves pending at the kill included, or an alert of
// kind moves_missing must name a ply at or before the first one missing:
// no move is ever lost silently. The figures (kills, plies kept, rebuilt,
// lost with an alert, lost silently) are logged.
func TestKillAtRandomInstants(t *testing.T) {
	n := killCases(t)
	var total killVerdict
	kills := 0
	for i := range n {
		c := killCase{bus: i%2 == 1, mode: []string{killRandom, killPress, killSave}[(i/2)%3], seed: uint64(i + 1)}
		name := fmt.Sprintf("%s/%d", c.mode, c.seed)
		if c.bus {
			name = "bus/" + name
		} else {
			name = "single/" + name
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				for _, v := range runKill(t, c) {
					total.kept += v.kept
					total.rebuilt += v.rebuilt
					total.alerted += v.alerted
					total.silent += v.silent
				}
				kills++
			})
		})
	}
	t.Logf("%d kills: %d plies kept from before the kill, %d rebuilt after it, %d missing with a moves_missing alert, %d lost silently",
		kills, total.kept, total.rebuilt, total.alerted, total.silent)
}

// TestKillPressAfterLogRead: the case TestKillAtRandomInstants found
// (seed 131, a board alone on its port): Black's fast reply was made and
// pressed in the instant the restarted daemon read the board again, after
// the board's log was read and before the first clock reading. That
// reading was taken as the clock's reference, the press lost with it: the
// move waited for a press that never came, and the game's last ply was
// never recorded, without an alert (before a later ply, each ply is
// completed by the next one's press: the record one ply late). The log's
// last press is now the reference (board.Tracker.ClockFromLog), and every
// ply is recorded.
func TestKillPressAfterLogRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, v := range runKill(t, killCase{mode: killSave, seed: 131}) {
			if v.alerted > 0 {
				t.Errorf("%d plies missing (with an alert): %s", v.alerted, v.detail)
			}
		}
	})
}

// TestKillWithoutLog: kills as in TestKillAtRandomInstants, on boards
// alone on their ports whose log cannot be read (a board without one, a
// read that fails): the moves made while the daemon was dead cannot be
// rebuilt, and each game the restart finds moved on gets a moves_missing
// alert naming the record's last ply (Session.Unlogged). Before, the
// arbiter got only a displaced_pieces warning asking the players to put
// back pieces they had moved legally, and the record stopped there.
func TestKillWithoutLog(t *testing.T) {
	var total killVerdict
	for i := range 6 {
		c := killCase{mode: []string{killRandom, killPress, killSave}[i%3], seed: uint64(i + 1), noLog: true}
		t.Run(fmt.Sprintf("%s/%d", c.mode, c.seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				for _, v := range runKill(t, c) {
					total.kept += v.kept
					total.rebuilt += v.rebuilt
					total.alerted += v.alerted
					total.silent += v.silent
				}
			})
		})
	}
	t.Logf("6 kills without a log: %d plies kept, %d caught up after the restart, %d missing with a moves_missing alert, %d lost silently",
		total.kept, total.rebuilt, total.alerted, total.silent)
}

// killGame is one board's game in a kill case.
type killGame struct {
	id    game.ID
	e     *emu.Emulator
	g     emu.Game
	ucis  []string
	plies []emu.Ply
}

func newKillGame(t testing.TB, id game.ID, serial string, seed uint64, powerUp time.Time) *killGame {
	ucis := longGame(t, seed, 30)
	pos := rules.Position(chess.StartPosition(chess.Standard))
	start := pos
	var moves []rules.Move
	for _, u := range ucis {
		m := mustMove(t, pos, u)
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	h := emu.DefaultHands()
	h.RookFirst, h.CastleBoth, h.CaptureBoth = 0, 0, 0
	h.Think = emu.Span{Min: 300 * time.Millisecond, Max: 3 * time.Second}
	g := emu.Game{Start: start, Moves: moves, Hands: h, Seed: seed, Board: emu.Setup{Serial: serial}}
	return &killGame{id: id, e: emu.New(g.BoardSetup(), powerUp), g: g, ucis: ucis}
}

// runKill plays case c and judges each game.
func runKill(t *testing.T, c killCase) []killVerdict {
	r := rand.New(rand.NewPCG(c.seed, 0x6b11))
	powerUp := time.Now()
	games := []*killGame{
		newKillGame(t, game.ID{Event: "open2026", Round: 3, Board: 1}, "03001", c.seed*2, powerUp),
		newKillGame(t, game.ID{Event: "open2026", Round: 3, Board: 2}, "03002", c.seed*2+1, powerUp),
	}
	var boards []Board
	var devs []emu.Device
	if c.bus {
		l := emu.NewLine(powerUp, games[0].e, games[1].e)
		srv := servePipe(t, l)
		for i, kg := range games {
			b := boardFor(t, fmt.Sprintf("r3-b%d", i+1), kg.id, srv.Open)
			b.Port, b.BusAddress = "line1", uint16(3001+i)
			boards = append(boards, b)
		}
		devs = []emu.Device{l}
	} else {
		for i, kg := range games {
			b := boardFor(t, fmt.Sprintf("r3-b%d", i+1), kg.id, servePipe(t, kg.e).Open)
			b.Link.NoLog = c.noLog
			boards = append(boards, b)
			devs = append(devs, kg.e)
		}
	}
	dir := t.TempDir()
	o := Options{Boards: boards, BusRediscover: time.Second}
	k := startKillable(t, dir, o)
	waitConnected(t, k.h)
	start := time.Now()
	for i, kg := range games {
		s, pl, err := kg.g.Plan(powerUp, start.Add(time.Duration(i)*700*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		kg.plies = pl
		kg.e.Schedule(start.Add(time.Duration(i)*700*time.Millisecond), s)
	}
	// The kill's instant.
	first, last := games[0].plies[0].Press, games[0].plies[len(games[0].plies)-1].Press
	var at time.Time
	switch c.mode {
	case killPress:
		kg := games[r.IntN(2)]
		p := kg.plies[2+r.IntN(len(kg.plies)-4)]
		at = p.Press.Add(time.Duration(r.Int64N(int64(time.Second))))
	default:
		at = first.Add(time.Duration(r.Int64N(int64(last.Sub(first)))))
	}
	time.Sleep(time.Until(at))
	if c.mode == killSave {
		syncs := k.fs.Calls(storagetest.Sync)
		k.fs.Stall(storagetest.Sync, "journal") // the kill releases it
		for k.fs.Calls(storagetest.Sync) == syncs && time.Since(at) < time.Minute {
			time.Sleep(time.Millisecond)
		}
	}
	before := map[game.ID]int{}
	for _, kg := range games {
		r, _ := k.h.Record(kg.id)
		before[kg.id] = len(r.Moves)
	}
	k.kill()
	gap := 5*time.Second + time.Duration(r.Int64N(int64(145*time.Second)))
	unheardDevs(devs, gap)
	restart := time.Now()
	sh := startSim(t, dir, o)
	waitConnected(t, sh.h)
	for _, kg := range games {
		handsDone(t, kg.e, 10*time.Minute)
	}
	time.Sleep(30 * time.Second)
	synctest.Wait()
	var out []killVerdict
	for _, kg := range games {
		rec, _ := sh.h.Record(kg.id)
		v := judgeKill(kg.ucis, before[kg.id], rec.UCIs(), sh.observed(), kg.id)
		if v.silent > 0 {
			t.Errorf("game %s (killed %s after the first press, dead %s): %d plies lost silently: %s%s", kg.id,
				at.Sub(first), gap, v.silent, v.detail, alertLines(sh.observed(), kg.id))
			for i, p := range kg.plies { // times from the restart
				got := "-"
				if i < len(rec.Moves) {
					got = fmt.Sprintf("%s at %s", rec.Moves[i].UCI, rec.Moves[i].At.Sub(restart))
				}
				t.Logf("ply %d %s: released %s, pressed %s, settled %s (%s); recorded %s", p.Ply, kg.ucis[i],
					p.Release.Sub(restart), p.Press.Sub(restart), p.Settled.Sub(restart), p.Habits, got)
			}
		} else if v.alerted > 0 {
			t.Logf("game %s: %d plies missing, with an alert: %s%s", kg.id, v.alerted, v.detail, alertLines(sh.observed(), kg.id))
		}
		out = append(out, v)
	}
	// What the record holds was handed for publishing too: the last
	// MoveEvent of each ply (both runs' outbox) is the record's move.
	for _, kg := range games {
		rec, _ := sh.h.Record(kg.id)
		last := map[int]string{}
		for _, ev := range sh.journalled(kg.id) {
			last[ev.Ply] = ev.UCI
		}
		for i, p := range rec.Moves {
			if last[i+1] != p.UCI {
				t.Errorf("game %s ply %d: recorded %s, last published %q", kg.id, i+1, p.UCI, last[i+1])
			}
		}
	}
	return out
}
