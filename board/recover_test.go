package board_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// boardLog asks the emulated board for its EEPROM (DGT_SEND_EE_MOVES) and
// translates the dump.
func boardLog(t testing.TB, e *emu.Emulator, now time.Time) (game.BoardLog, bool) {
	t.Helper()
	e.Input(now, []byte{byte(dgt.CmdSendEEMoves)})
	dec := dgt.NewDecoder(dgt.SingleBoard)
	dec.Feed(e.Output())
	for {
		m, err := dec.Next()
		if errors.Is(err, dgt.ErrNeedMore) {
			return game.BoardLog{}, false
		}
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := m.(dgt.EEMoves); ok {
			return dgtfeed.Log(d.Log(dgt.FLeft)), true
		}
	}
}

// pressedClock returns, per ply, the time the mover's display showed once
// his press halted it, as the board's clock messages reported it live.
func pressedClock(p emu.Played) []time.Duration {
	out := make([]time.Duration, len(p.Plies))
	for i, ply := range p.Plies {
		left := i%2 == 0 // White (Left) moves at even indexes from the standard start
		out[i] = -1
		for _, h := range p.Heard {
			c, ok := h.Msg.(dgt.ClockTimes)
			if !ok || h.At.Before(ply.Press) || c.IsZero() {
				continue
			}
			if left && c.RunningSide() == dgt.RightSide {
				out[i] = c.Left.Duration()
			} else if !left && c.RunningSide() == dgt.LeftSide {
				out[i] = c.Right.Duration()
			} else {
				continue
			}
			break
		}
	}
	return out
}

// recoverCase is one game played on an emulated board, its EEPROM read at
// the end.
type recoverCase struct {
	name   string
	start  rules.Position
	moves  []rules.Move
	log    game.BoardLog
	now    rules.Placement
	clocks []time.Duration
	left   rules.Color // the colour on the clock's left display
}

func playForLog(t testing.TB, name string, start rules.Position, moves []rules.Move, hands emu.Hands, seed uint64, board emu.Setup) recoverCase {
	t.Helper()
	p, err := emu.Play(emu.Game{Start: start, Moves: moves, Hands: hands, Seed: seed, Board: board})
	if err != nil {
		t.Fatal(err)
	}
	c := recoverCase{name: name, start: start, moves: moves, now: p.Emulator.Placement(), clocks: pressedClock(p), left: rules.White}
	c.log, _ = boardLog(t, p.Emulator, p.End)
	return c
}

// outcome of one recovery.
type outcome int

const (
	failed     outcome = iota
	exact              // every move after the cut, with its clock
	incomplete         // a correct prefix, the rest left to the arbiter
	gap                // the log does not reach back (allowed)
)

// check recovers c with the record cut at ply k: every move it gives back
// must be the one played, with the time the mover's clock showed; a
// complete recovery must give every move after k. A gap error is no
// failure when gapOK.
func (c recoverCase) check(t *testing.T, k int, log game.BoardLog, gapOK bool) outcome {
	t.Helper()
	name := fmt.Sprintf("%s, record cut at ply %d of %d", c.name, k, len(c.moves))
	r, err := board.Recover(c.start, c.moves[:k], c.now, log, board.TrackerOptions{}, c.left)
	if err != nil {
		var lg *board.LogGapError
		if !errors.As(err, &lg) || lg.Ply != k || !gapOK {
			t.Errorf("%s: %v", name, err)
			return failed
		}
		return gap
	}
	for j, rm := range r.Moves {
		ply := k + j + 1
		if ply > len(c.moves) || rm.Ply != ply || !rm.Move.SameAs(c.moves[ply-1]) {
			t.Errorf("%s: ply %d recovered as %d %s: not the move played", name, ply, rm.Ply, rm.UCI)
			return failed
		}
		if want := c.clocks[ply-1]; !rm.HasClock || want >= 0 && (rm.Clock-want > time.Second || want-rm.Clock > time.Second) {
			t.Errorf("%s: ply %d: clock %v (%v), the board showed %v", name, ply, rm.Clock, rm.HasClock, want)
			return failed
		}
	}
	if r.Ply != k {
		t.Errorf("%s: recovered from ply %d", name, r.Ply)
		return failed
	}
	if !r.Complete {
		t.Logf("%s: incomplete: %d of %d moves", name, len(r.Moves), len(c.moves)-k)
		return incomplete
	}
	if len(r.Moves) != len(c.moves)-k {
		t.Errorf("%s: complete with %d moves, want %d", name, len(r.Moves), len(c.moves)-k)
		return failed
	}
	return exact
}

// cuts are where the record stops: the board unheard for the last move
// (a short outage), the last six (two minutes at blitz pace, longer at
// classical), half the game, the whole game.
func cuts(n int) []int {
	out := []int{}
	for _, k := range []int{n - 1, n - 6, n / 2, 0} {
		if k >= 0 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// TestRecoverFromTheBoardsLog: real games played by realistic hands (the
// lawful ones, then every habit), Chess960 games with the king held in the
// hand; the record stops at ply k (the board was not heard from then on)
// and the board's EEPROM, read at the end, gives back every move after k,
// exactly, with the time the mover's clock showed at his press.
func TestRecoverFromTheBoardsLog(t *testing.T) {
	t.Parallel()
	n, n960 := 150, 40
	switch {
	case testing.Short():
		n, n960 = 10, 4
	case raceBuild:
		n, n960 = 40, 10 // 3.5 min under -race on a loaded 2-core machine with them all
	}
	games := board.LoadCorpus(t, n)
	var cases []recoverCase
	for gi, g := range games {
		moves, _ := board.MainLine(t, g)
		cases = append(cases,
			playForLog(t, fmt.Sprintf("game %d (lawful hands, seed %d)", g.Index, gi+1), g.Start, moves, lawfulHands(), uint64(gi+1), emu.Setup{}),
			playForLog(t, fmt.Sprintf("game %d (all habits, seed %d)", g.Index, gi+1001), g.Start, moves, emu.DefaultHands(), uint64(gi+1001), emu.Setup{}))
	}
	for i := range n960 {
		seed := uint64(9600 + i)
		start := chess.Chess960Start(int(seed % 960))
		cases = append(cases, playForLog(t, fmt.Sprintf("960 game %d (seed %d)", i, seed), start, randomGame(t, start, 60, seed), lawfulHands(), seed, emu.Setup{}))
	}
	var tried int
	var got [4]int
	for _, c := range cases {
		for _, k := range cuts(len(c.moves)) {
			tried++
			got[c.check(t, k, c.log, false)]++
		}
	}
	t.Logf("%d games, %d cuts: %d recovered exactly, %d incomplete (the rest left to the arbiter)", len(cases), tried, got[exact], got[incomplete])
}

// TestRecoverGaps: a log that does not reach back to the record's last
// ply (its start overwritten as a wrapped ring would be, or erased), or a
// board with no log at all, gives a *LogGapError naming that ply, or moves
// that are all the ones played: never a move that was not.
func TestRecoverGaps(t *testing.T) {
	t.Parallel()
	games := board.LoadCorpus(t, 12)
	if testing.Short() {
		games = games[:4]
	}
	var gaps, read int
	for gi, g := range games {
		moves, _ := board.MainLine(t, g)
		c := playForLog(t, fmt.Sprintf("game %d", g.Index), g.Start, moves, lawfulHands(), uint64(gi+1), emu.Setup{})
		for _, frac := range []int{4, 2} { // the first quarter, half of the log lost
			lost := len(c.log.Entries) / frac
			for _, wrapped := range []bool{true, false} {
				log := game.BoardLog{Entries: c.log.Entries[lost:], Wrapped: wrapped}
				for _, k := range []int{len(moves) / 8, len(moves) * 3 / 4} {
					switch c.check(t, k, log, true) {
					case gap:
						gaps++
					case exact, incomplete:
						read++
					}
				}
			}
		}
		// No EEPROM: nothing to read.
		nc := playForLog(t, fmt.Sprintf("game %d, no EEPROM", g.Index), g.Start, moves, lawfulHands(), uint64(gi+1), emu.Setup{NoEEPROM: true})
		if len(nc.log.Entries) != 0 {
			t.Fatalf("%s: a log of %d entries", nc.name, len(nc.log.Entries))
		}
		if nc.check(t, len(moves)-3, nc.log, true) != gap {
			t.Errorf("%s: no gap reported", nc.name)
		}
		if nc.check(t, len(moves), nc.log, false) != exact {
			t.Errorf("%s: the board shows the record: nothing is missing", nc.name)
		}
	}
	if gaps == 0 {
		t.Error("no gap found")
	}
	t.Logf("%d gaps reported, %d cut logs still read (every move right)", gaps, read)
	// 1. e4 e5 recorded; the board shows 2. Nf3 Nc6 played since, and its
	// wrapped log holds only the knight put on c6.
	start := chess.StartPosition(chess.Standard)
	var rec []rules.Move
	pos := rules.Position(start)
	for _, u := range []string{"e2e4", "e7e5", "g1f3", "b8c6"} {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		rec = append(rec, m)
		pos, _ = pos.Play(m)
	}
	now := pos.Placement()
	c6 := rules.Square(42)
	var lg *board.LogGapError
	_, err := board.Recover(start, rec[:2], now, game.BoardLog{Wrapped: true, Entries: []game.LogEntry{game.LogChange{Square: c6, Piece: now.Sq[c6]}}}, board.TrackerOptions{}, rules.White)
	if !errors.As(err, &lg) || !errors.Is(err, board.ErrLogGap) || !lg.Wrapped || lg.Ply != 2 {
		t.Errorf("wrapped log that fits nothing: %v", err)
	}
}

// TestRecoverLatestGame: the board's log holds an earlier game with the
// same opening before this one (a power-up between): the moves are read
// from the latest place the record fits.
func TestRecoverLatestGame(t *testing.T) {
	t.Parallel()
	games := board.LoadCorpus(t, 3)
	for gi, g := range games {
		moves, _ := board.MainLine(t, g)
		earlier := playForLog(t, "earlier", g.Start, moves[:len(moves)/2], lawfulHands(), uint64(gi+50), emu.Setup{})
		c := playForLog(t, fmt.Sprintf("game %d after an earlier game", g.Index), g.Start, moves, lawfulHands(), uint64(gi+1), emu.Setup{})
		log := game.BoardLog{Entries: slices.Concat(earlier.log.Entries, c.log.Entries)}
		for _, k := range cuts(len(moves)) {
			if got := c.check(t, k, log, false); got != exact {
				t.Errorf("%s: cut at %d: outcome %d", c.name, k, got)
			}
		}
	}
}

// TestRecoverRotated: a board turned round (White at its fields 0–15):
// the log is in the board's frame and read through the tracker's.
func TestRecoverRotated(t *testing.T) {
	t.Parallel()
	games := board.LoadCorpus(t, 4)
	for gi, g := range games {
		moves, _ := board.MainLine(t, g)
		c := playForLog(t, fmt.Sprintf("game %d, rotated", g.Index), g.Start, moves, lawfulHands(), uint64(gi+1), emu.Setup{Orientation: dgt.Rotated})
		for _, k := range cuts(len(moves)) {
			r, err := board.Recover(c.start, c.moves[:k], c.now, c.log, board.TrackerOptions{Rotated: true}, c.left)
			if err != nil || !r.Complete || len(r.Moves) != len(moves)-k {
				t.Errorf("%s: cut at %d: %d moves, complete %v, %v", c.name, k, len(r.Moves), r.Complete, err)
				continue
			}
			for j, rm := range r.Moves {
				if !rm.Move.SameAs(moves[k+j]) {
					t.Errorf("%s: cut at %d: ply %d %s", c.name, k, rm.Ply, rm.UCI)
					break
				}
			}
		}
	}
}

// TestRecoverWithAHandMidMove: the board's log is read while a hand is in
// the middle of the next move (a bus line resynchronising a board whose
// answer was garbled, a link re-reading the log after lost bytes): the
// log's last entry lifts a piece of the side to move, and the board shows
// it in the hand. The recovery is complete: with the record up to date
// nothing is missing, and with the last move unheard that move comes back
// with its clock time; the piece in the hand is left to the live tracker.
// Replayed with time passing after the log's end, the lift became pieces
// held off the board (Unexplained): the recovery was incomplete and the
// last move dropped.
func TestRecoverWithAHandMidMove(t *testing.T) {
	t.Parallel()
	games := board.LoadCorpus(t, 6)
	for gi, g := range games {
		moves, _ := board.MainLine(t, g)
		moves = moves[:min(len(moves), 20)]
		c := playForLog(t, fmt.Sprintf("game %d", g.Index), g.Start, moves, lawfulHands(), uint64(gi+1), emu.Setup{})
		pos := rules.Position(g.Start)
		for _, m := range moves {
			pos, _ = pos.Play(m)
		}
		legal := pos.LegalMoves(nil)
		if len(legal) == 0 {
			continue
		}
		from := legal[0].From
		mid := c
		mid.now.Sq[from] = rules.NoPiece
		mid.log.Entries = append(slices.Clone(c.log.Entries), game.LogChange{Square: from, Piece: rules.NoPiece})
		for _, k := range []int{len(moves), len(moves) - 1} {
			if got := mid.check(t, k, mid.log, false); got != exact {
				t.Errorf("%s, %s lifted: record cut at %d: outcome %d, want every move after it", mid.name, pos.UCI(legal[0])[:2], k, got)
			}
		}
	}
}
