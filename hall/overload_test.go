package hall

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// stall is a time during which a line's goroutine gets no CPU.
type stall struct{ from, to time.Time }

// starvedPort is a bus line's port whose user (the bus goroutine) is
// starved now and then, as on an overloaded machine: a write that falls
// in a stall returns only at its end, so the line neither polls nor reads
// meanwhile, and what the boards did in the stall is read at once after
// it. The boards go on (their hands, their clocks, their logs), as real
// ones do; the hall's own goroutine keeps its ticks.
type starvedPort struct {
	net.Conn
	stalls []stall
}

func (p *starvedPort) Write(b []byte) (int, error) {
	now := time.Now()
	for _, s := range p.stalls {
		if !now.Before(s.from) && now.Before(s.to) {
			time.Sleep(s.to.Sub(now))
			break
		}
	}
	return p.Conn.Write(b)
}

// stallsFrom returns stalls of 2–40 s, one every 15–35 s, from start to end.
func stallsFrom(start, end time.Time, seed uint64) []stall {
	rng := rand.New(rand.NewPCG(seed, 0x57a11))
	next := func(lo, hi time.Duration) time.Duration { return lo + time.Duration(rng.Int64N(int64(hi-lo))) }
	var out []stall
	for at := start.Add(next(5*time.Second, 15*time.Second)); at.Before(end); {
		d := next(2*time.Second, 40*time.Second)
		out = append(out, stall{at, at.Add(d)})
		at = at.Add(d + next(15*time.Second, 35*time.Second))
	}
	return out
}

// TestHallBusLineStarved (correct under overload): eight boards
// on one DGT bus line play 30-ply games with realistic lawful hands (a
// move every 1–3 s a side) while the line's goroutine is starved for 2–40
// s every 15–35 s (simulated time), the boards' answers read at once when
// it runs again, the hall's ticks going on meanwhile. Every move is
// recorded once and in order, and a stall raises no clock_without_move (a
// press waiting for the board's next answer judged before the line read
// it), no clock_disconnected (a clock not read because the line did not
// run, or read one a cycle after it), no moves_missing and no illegal
// move. Before (ticks at the hall's time, the clock's silence in seconds,
// an answer with many presses judged on its last placement) the last
// plies of every game were lost and every clock reported disconnected.
// Still raised and only logged: clock_setting / displaced_pieces /
// ambiguous_move warnings on a few boards after the longest stalls.
//
// Known bugs, counted and bounded rather than hidden until main 9deb0b4,
// none left since (seeds 1–2 alone
// passed by the line's timing; seeds 3–8 failed on every build before
// main 971f935): after a stall, an answer holding many presses may be polled
// while the next move is still in the hand (it ends mid-move, the move
// completed in the next answer). Such an answer is now held and read with
// the board's next ones as one log (busmany.go, over5); before, the board
// was read live from there and lost or misread plies (the games of
// TestHallBusLineStarved32 stopping at plies 15–20). Counted until
// main 9deb0b4: a board read live after a stall may misread a slide's intermediate square
// as a move (seed 7 board 6: h3f5 read as h3g4, g4f5), a press pair read
// at once may be judged a press without a move (a false
// clock_without_move), and a clock left unread for many cycles after a
// long stall is reported disconnected. Over the 8 seeds × 8 games: 1 game
// with a wrong record and 2 games with a false clock_disconnected (over5,
// three runs alike; before: 1 and 4 with over4's clock sides, 1 and 6
// before them; the hall's goroutines may make runs differ a little). Session
// 5: 0 and 0. The wrong record (seed 1 board 1: a8a7 and a7a6 read as
// a8a6) was an answer of twelve presses read as the board's log from the
// position before the record's last move, which its first changes did not
// rule out (board.RecoverFromEnd now aligns such an answer with the
// record's last position only); the false alerts went with the fixes of
// TestHallBusLineStarved32 below. The test fails when anything goes wrong;
// every other alert but information on a game whose record is right fails
// it at once.
func TestHallBusLineStarved(t *testing.T) {
	starvedSeeds(t, 8, 30, []uint64{1, 2, 3, 4, 5, 6, 7, 8}, 0, 0)
}

// TestHallBusLineStarved32: TestHallBusLineStarved with a full
// bus line, 32 boards playing 40 plies, where a board's clock is read
// seldom (after a stall, one clock a cycle). Before (over4), a board's
// first clock reading often came after White's first move and press but
// before the record held the move: the clock's sides were guessed from
// the record's side to move, the wrong way round, for the rest of the
// game, and the game's last press was read as the wrong side's (the
// record lost its last ply); a press record with no running reading yet
// (a board read as a log after a stall) was dropped. Seeds 1–3: 29 of 96
// games with a wrong record (most of them their last ply) before, 11
// after (the games of seed 2 stopping at plies 15–20 after a stall, two
// of seed 3 losing their last two plies, one misread: the known bug of
// TestHallBusLineStarved and others not established); 3 games with a
// false clock_without_move or clock_disconnected before, 0 after. With
// over5's fixes to that rule (the sides also read from the press records'
// times, records credited by their display bit, TestNoisyLinesEndToEnd
// and TestRunNoisyLines clean again): 10 wrong, 1 false (seed 1 board 3).
// With an answer that ends in the middle of a move held and read as one
// log with the board's next answers (over5): 0 wrong, 2 false (seed 1
// board 3, seed 2 board 7: a press pair read at once); with a reading that
// shows a press no longer completing its move over the pending record of
// that press after a log read: 0 wrong, 1 false (seed 2 board 7). With
// dgt/bus's deadline schedule back (main 971f935: another polling order after
// the stalls): 1 wrong (seed 3 board 32: c7d7, d7g7 read as c7g7, the
// known misread of a slide's intermediate square by a board read live
// after a stall, as in TestHallBusLineStarved). At main 9deb0b4: 0 and 0. That
// misread was a press waiting for a later look at the board (the queen
// put on d7 could have slid on) judged only at the end of the next
// answer, which held the opponent's reply and press and then the queen's
// next move: read from the answer's last placement, c7g7. A press record
// of the opponent now has the waiting press judged on the board as it
// stands at that record (board's replyPressed). The false alert (seed 2
// board 26: both players' presses without a move after the last ply) was
// a reading that showed the last press 4 s before the board's answer with
// its record came (the line stalled): the record was no longer matched
// with the reading and was credited to the other player; it now is when
// the reading showed the time the record holds. Bounds: 0 and 0. Seeds 9,
// 13 and 15 (look, main 9deb0b4): a press a clock reading showed just before
// a stall was judged at the line's first writes after it, before the
// board's answer with its move came (the line polls the boards one by
// one): a false clock_without_move on seeds 9 and 13, a wrong record on
// seed 15; a bus board is now ticked up to its own last answer at most.
func TestHallBusLineStarved32(t *testing.T) {
	starvedSeeds(t, 32, 40, []uint64{1, 2, 3, 9, 13, 15}, 0, 0)
}

// starvedSeeds plays lineStarved with boards games of plies plies for each
// seed and fails when more than knownWrong games end with a wrong record or
// more than knownFalse clean games get a false clock_without_move or
// clock_disconnected.
func starvedSeeds(t *testing.T, boards, plies int, seeds []uint64, knownWrong, knownFalse int) {
	var wrong, falseCrit []string
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w, f := lineStarved(t, boards, plies, seed)
				for _, w := range w {
					wrong = append(wrong, fmt.Sprintf("seed %d %s", seed, w))
				}
				for _, f := range f {
					falseCrit = append(falseCrit, fmt.Sprintf("seed %d %s", seed, f))
				}
			})
		})
	}
	games := len(seeds) * boards
	t.Logf("%d of %d games with a wrong record (the known bug above):\n%s", len(wrong), games, strings.Join(wrong, "\n"))
	t.Logf("%d of %d games with a false clock_without_move or clock_disconnected (the known bug above):\n%s", len(falseCrit), games, strings.Join(falseCrit, "\n"))
	if len(wrong) > knownWrong || len(falseCrit) > knownFalse {
		t.Errorf("after stalls %d games with a wrong record and %d with a false clock_without_move or clock_disconnected, want at most %d and %d (the known bug's counts)", len(wrong), len(falseCrit), knownWrong, knownFalse)
	}
}

// lineStarved plays the starved line of TestHallBusLineStarved with seed
// and returns the games whose record went wrong, with the alerts raised on
// them, and the other games' false clock_without_move and
// clock_disconnected alerts (one line a game); every other alert is
// checked here.
func lineStarved(t *testing.T, boards, plies int, seed uint64) (wrong, falseCrit []string) {
	powerUp := time.Now()
	think := emu.Span{Min: time.Second, Max: 3 * time.Second}
	var games []emu.Game
	var es []*emu.Emulator
	var ids []game.ID
	var lines [][]string
	for i := range boards {
		ucis := twoHourGame(t, plies, seed*100+uint64(i))
		lines = append(lines, ucis)
		g := realisticGame(t, ucis, seed*100+uint64(i), fmt.Sprintf("%05d", 700+i), think)
		games, es = append(games, g), append(es, emu.New(g.BoardSetup(), powerUp))
		ids = append(ids, game.ID{Event: "starved", Round: 1, Board: i + 1})
	}
	line := servePipe(t, emu.NewLine(powerUp, es...))
	port := &starvedPort{}
	var mu sync.Mutex
	open := func(ctx context.Context) (io.ReadWriteCloser, error) {
		rw, err := line.Open(ctx)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		defer mu.Unlock()
		return &starvedPort{Conn: rw.(net.Conn), stalls: port.stalls}, nil
	}
	var bs []Board
	for i, e := range es {
		b := boardFor(t, fmt.Sprintf("s%d", i+1), ids[i], open)
		b.Port, b.BusAddress = "line1", e.Address()
		bs = append(bs, b)
	}
	// The stalls are set before the hall opens the port.
	start := powerUp.Add(5 * time.Second)
	port.stalls = stallsFrom(start, start.Add(3*time.Minute), seed)
	sh := startSim(t, t.TempDir(), Options{Boards: bs, BusRediscover: time.Second})
	waitConnected(t, sh.h)
	time.Sleep(time.Until(start))
	_, end := scheduleGames(t, games, es, powerUp, start)
	time.Sleep(end + 60*time.Second)
	synctest.Wait()
	var bad []string
	misread := map[int]int{}  // board -> its index in wrong
	cwm := map[int][]string{} // board -> its clock_without_move alerts
	for i, want := range lines {
		r, _ := sh.h.Record(ids[i])
		if got := strings.Join(r.UCIs(), " "); got != strings.Join(want, " ") {
			misread[i+1] = len(wrong)
			wrong = append(wrong, fmt.Sprintf("board %d: record\n got %s\nwant %s", i+1, got, strings.Join(want, " ")))
		}
	}
	var left []string
	for _, ob := range sh.observed() {
		al, ok := ob.Payload.(game.Alert)
		if !ok {
			continue
		}
		line := fmt.Sprintf("board %d: alert %s/%s at ply %d: %s", al.Game.Board, al.Kind, al.Severity, al.Ply, al.Message)
		if w, ok := misread[al.Game.Board]; ok {
			wrong[w] += "\n  " + line
			continue
		}
		if al.Kind == game.KindClockWithoutMove || al.Kind == game.KindClockDisconnected {
			cwm[al.Game.Board] = append(cwm[al.Game.Board], line)
			continue
		}
		switch {
		case al.Severity == game.Info:
			left = append(left, line) // nothing for the arbiter to do
		case al.Kind == game.KindClockSetting, al.Kind == game.KindClockDefect, al.Kind == game.KindDisplaced, al.Kind == game.KindAmbiguous:
			// Left (docs/performance.md): after a long stall the
			// clock model may miss a press among those read at once,
			// and a board read as a log may stop making sense for a
			// moment; the record stays right.
			left = append(left, line)
		default:
			bad = append(bad, line)
		}
	}
	if len(left) > 0 {
		t.Logf("%d alert(s) left on these clean games (records right):\n%s", len(left), strings.Join(left, "\n"))
	}
	for _, s := range port.stalls {
		t.Logf("stall %v–%v (%v)", s.from.Sub(start).Round(time.Millisecond), s.to.Sub(start).Round(time.Millisecond), s.to.Sub(s.from).Round(time.Millisecond))
	}
	if len(bad) > 0 {
		t.Errorf("%d finding(s) with the line starved:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	for _, b := range slices.Sorted(maps.Keys(cwm)) {
		falseCrit = append(falseCrit, strings.Join(cwm[b], "\n"))
	}
	return wrong, falseCrit
}

// TestHallOutageAtGamesEnd: a board lost during a stall near
// its game's end (single: the cable out; bus: unplugged from the line)
// comes back with the game's last plies made meanwhile and nothing after
// them: the last plies are rebuilt from the board's log, journalled once
// each and in order; no press is left waiting for a move.
func TestHallOutageAtGamesEnd(t *testing.T) {
	line := dgttest.Moves(t, dgttest.Game1)[:12]
	for _, away := range []int{1, 2, 4} {
		for _, bus := range []bool{false, true} {
			name := fmt.Sprintf("last%d/single", away)
			if bus {
				name = fmt.Sprintf("last%d/bus", away)
			}
			t.Run(name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { outageFromLogFrom(t, line, 15*time.Second, away, len(line)-away, bus) })
			})
		}
	}
}
