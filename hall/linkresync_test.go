package hall

import (
	"fmt"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestLinkResyncMidMove: a board alone on its port, with the
// game and hands of cmd/dgtbridge's TestRunNoisyLines game noise.1.1,
// gets 8 garbled bytes at moments when its player is in the middle of a
// move: the link drops what it cannot trust and reads the position and
// the log again. With no log to read (a board without EEPROM; as when the
// log comes back damaged every time it is asked for, which made
// TestRunNoisyLines fail one run in eight) and with one, every move is
// journalled once with its clock time and the arbiter gets no crit or
// warn alert. On main before the fix the position read was fed as a
// catch-up (deep search, pieces that came back): the castling in
// progress, king on g1 and rook in the hand, was read as Kf1 Ke7 Kg1 Ke8
// (ambiguous_move, moves without clock time, displaced_pieces); a pawn
// sliding b7-b5 seen on b6 was read as b6 and b5 (31 of 205 moments
// failed without a log, 26 with one; none now). Under -short only the
// two seconds before the castling's press.
func TestLinkResyncMidMove(t *testing.T) {
	ucis := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8"}
	// The burst's moments, from the castling's press: the whole game
	// from its fourth ply, every 100 ms; under -short the castling.
	from, to := -12*time.Second, 8500*time.Millisecond
	if testing.Short() {
		from, to = -2*time.Second, 0
	}
	for _, eeprom := range []bool{false, true} {
		for off := from; off < to; off += 100 * time.Millisecond {
			t.Run(fmt.Sprintf("eeprom=%v/%v", eeprom, off), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					powerUp := time.Now()
					ng := newNoisyGame(t, game.ID{Event: "noise", Round: 1, Board: 1}, ucis, "04101", 1, powerUp)
					ng.g.Board.NoEEPROM = !eeprom
					ng.e = emu.New(ng.g.BoardSetup(), powerUp)
					ports := newNoisyPorts(1)
					open := ports.burstOnly(servePipe(t, ng.e).Open)
					repairs := &countingHandler{msg: "moves may have been missed, reading the EEPROM log"}
					sh := startSim(t, t.TempDir(), Options{Boards: []Board{boardFor(t, "r-b1", ng.id, open)}, Logger: slog.New(repairs)})
					waitConnected(t, sh.h)
					time.Sleep(2 * time.Second)
					end := ng.play(t, powerUp, time.Now())
					at := time.Until(ng.plies[8].Press) + off
					time.Sleep(at)
					ports.burst.Store(8)
					time.Sleep(end - at + 30*time.Second)
					synctest.Wait()
					if repairs.count() == 0 {
						t.Fatal("the burst made the link repair nothing: the test no longer tests it")
					}
					for _, a := range falseAlerts(sh.observed(), map[game.ID]int{ng.id: len(ucis)}) {
						t.Errorf("alert %s", a)
					}
					ng.check(t, sh.journalled(ng.id))
				})
			})
		}
	}
}
