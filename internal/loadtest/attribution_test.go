package loadtest

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
)

// TestDelayTimedFromTheAnswerThatCompletedTheMove plays four boards on an
// emulated bus line in simulated time, polled as a 32-board line polls
// them (each board every 800 ms, and once more just after each press),
// through the load test's tap. A reader
// decodes the boards' MSG_BUS_UPDATE answers as the daemon does (their
// EEPROM piece and clock records) and finds, for every ply, the first
// answer after which the board shows the ply's position and holds its
// press. The collector must time each MoveEvent from exactly that answer:
// a MoveEvent arriving 5 ms after it is a daemon's delay of 5 ms, also for
// the plies whose press was in an earlier answer than their last square
// change (the lever before the last scan: the test requires some).
//
// Before (the collector timed every move from the first answer after the
// press), those plies counted a whole poll cycle (~0.8 s) as the daemon's.
func TestDelayTimedFromTheAnswerThatCompletedTheMove(t *testing.T) {
	const (
		nBoards = 4
		plies   = 12
		cycle   = 800 * time.Millisecond
	)
	power := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
	var boards []*board
	var ems []*emu.Emulator
	for i := range nBoards {
		g, err := randomGame(uint64(100+i), plies, 1500*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		// Each board scans at its own period and phase, as real ones do.
		scan := emu.DrawScan(uint64(7 + i))
		e := emu.New(emu.Setup{Serial: fmt.Sprintf("%05d", i+1), Seed: uint64(i + 1), ScanPeriod: scan.Period, ScanPhase: scan.Phase}, power)
		b := &board{n: i + 1, addr: uint16(i + 1), e: e, power: power, game: g}
		boards, ems = append(boards, b), append(ems, e)
	}
	now := power
	tap := &tappedLine{Device: emu.NewLine(power, ems...), polls: newPollLog(), byAddr: map[uint16]*board{},
		clock: func() time.Time { return now }}
	for _, b := range boards {
		tap.byAddr[b.addr] = b
	}
	col := newCollector(boards)
	for i, b := range boards {
		col.setStart(b, power.Add(2*time.Second+time.Duration(i)*377*time.Millisecond))
		b.e.Schedule(b.start, b.game.script)
	}

	// The reader: each board's fields as its answers tell them, and when
	// each ply became readable.
	type view struct {
		fields   [dgt.NumFields]dgt.PieceCode
		presses  int
		next     int // the ply awaited
		posSeen  bool
		complete []time.Time // per ply (index ply-1): the answer that completed it
	}
	views := map[uint16]*view{}
	expected := map[uint16][][dgt.NumFields]dgt.PieceCode{}
	for _, b := range boards {
		v := &view{next: 1}
		start := emu.StartPlacement()
		for sq, p := range start.Sq[:dgt.NumFields] {
			if c, ok := dgt.PieceCodeOf(p); ok {
				v.fields[field(t, rules.Square(sq))] = c
			}
		}
		views[b.addr] = v
		expected[b.addr] = expectedFields(t, v.fields, b.game)
	}
	var rp replyParser
	read := func(sent time.Time, out []byte) {
		for _, f := range rp.feed(out) {
			v := views[f.addr]
			if f.id != 0x85 || v == nil {
				continue
			}
			sc := dgt.NewEEScanner(f.data)
			for {
				ev, err := sc.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("board %d: answer at %v: %v", f.addr, sent.Sub(power), err)
				}
				switch ev.Kind {
				case dgt.EEPiece:
					v.fields[ev.Field] = ev.Piece
				case dgt.EEClock:
					v.presses++
				default:
					continue
				}
				exp := expected[f.addr]
				if v.next > len(exp) {
					continue
				}
				if v.fields == exp[v.next-1] {
					v.posSeen = true
				}
				if v.posSeen && v.presses >= v.next {
					v.complete = append(v.complete, sent)
					v.next++
					v.posSeen = false
				}
			}
		}
	}

	// Play in 1 ms steps. Board k is polled at k*cycle/4 within each
	// cycle, and once more 3 ms after each of its presses (a poll may fall
	// anywhere: there the lever-before-scan plies show), at least 30 ms
	// after the line's previous poll (replies must not collide).
	type poll struct {
		at   time.Time
		addr uint16
	}
	var extra []poll
	for _, b := range boards {
		for ply := 1; ply <= len(b.game.press); ply++ {
			extra = append(extra, poll{b.pressed(ply).Add(3 * time.Millisecond), b.addr})
		}
	}
	slices.SortFunc(extra, func(a, b poll) int { return a.at.Compare(b.at) })
	end := boards[nBoards-1].start.Add(boards[nBoards-1].game.script.Duration() + 3*time.Second)
	nextPoll, k := power.Add(100*time.Millisecond), 0
	var queue []uint16
	var lastSent time.Time
	for ; now.Before(end); now = now.Add(time.Millisecond) {
		if !now.Before(nextPoll) {
			queue = append(queue, boards[k].addr)
			k = (k + 1) % nBoards
			nextPoll = nextPoll.Add(cycle / nBoards)
		}
		for len(extra) > 0 && !now.Before(extra[0].at) {
			queue = append(queue, extra[0].addr)
			extra = extra[1:]
		}
		if len(queue) > 0 && now.Sub(lastSent) >= 30*time.Millisecond {
			cmd, err := dgt.BusCommand{Cmd: dgt.BusCmdSendChanges, Address: queue[0]}.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			tap.Input(now, cmd)
			queue, lastSent = queue[1:], now
		}
		tap.Advance(now)
		if out := tap.Output(); len(out) > 0 {
			read(now, out)
		}
	}

	later := 0
	for _, b := range boards {
		v := views[b.addr]
		if len(v.complete) != len(b.game.ucis) {
			t.Fatalf("board %d: the reader saw %d of %d plies completed", b.n, len(v.complete), len(b.game.ucis))
		}
		for ply := 1; ply <= len(b.game.ucis); ply++ {
			whole := v.complete[ply-1]
			first, _ := b.answerHolding(b.pressed(ply))
			if whole.After(first) {
				later++
			}
			ev := fmt.Sprintf(`{"game":"load.1.%d","ply":%d,"uci":%q,"revision":0}`, b.n, ply, b.game.ucis[ply-1])
			col.move(whole.Add(5*time.Millisecond), []byte(ev))
		}
	}
	var rep Report
	col.report(&rep)
	want := nBoards * plies
	if rep.Received != want || rep.Delay.N != want || rep.Unattributed != 0 {
		t.Fatalf("received %d, timed %d, unattributed %d; want %d, %d, 0", rep.Received, rep.Delay.N, rep.Unattributed, want, want)
	}
	if later == 0 {
		t.Fatal("no ply had its press in an earlier answer than its last square change: the case is not tested")
	}
	t.Logf("%d of %d plies completed in a later answer than their press's; delay %v; from the press's answer %v", later, want, rep.Delay, rep.FromAnswer)
	if rep.Delay.Max != 5*time.Millisecond || rep.Delay.P50 != 5*time.Millisecond {
		t.Errorf("daemon's delay %v: want 5 ms for every move (timed from the answer that completed it)", rep.Delay)
	}
	if rep.FromLast.N != want || rep.FromLast.Max > 5*time.Millisecond {
		t.Errorf("from the board's last answer before the MoveEvent: %v; want %d moves, none over 5 ms", rep.FromLast, want)
	}
	// Each MoveEvent came 5 ms after the completing answer, before any
	// later answer: the daemon read every move on its completing answer.
	if rep.Own.N != want || rep.Own.Max != 5*time.Millisecond {
		t.Errorf("daemon's own delay %v: want %d moves, 5 ms each", rep.Own, want)
	}
	if rep.Later != later {
		t.Errorf("report counts %d moves completed in a later answer, the reader %d", rep.Later, later)
	}
	if rep.FromAnswer.Max < cycle/2 {
		t.Errorf("from the first answer after the press: %v; the lever-before-scan plies should count a poll cycle there", rep.FromAnswer)
	}
}

// expectedFields returns the board's fields after each ply of g, from the
// script's hands (up to the ply's press), starting from start.
func expectedFields(t *testing.T, start [dgt.NumFields]dgt.PieceCode, g game) [][dgt.NumFields]dgt.PieceCode {
	t.Helper()
	fields := start
	var out [][dgt.NumFields]dgt.PieceCode
	i := 0
	for _, at := range g.press {
		for ; i < len(g.script) && g.script[i].At <= at; i++ {
			a := g.script[i]
			switch a.Kind {
			case emu.Lift:
				fields[field(t, a.Square)] = dgt.Empty
			case emu.Place:
				c, ok := dgt.PieceCodeOf(a.Piece)
				if !ok {
					t.Fatalf("piece %v has no code", a.Piece)
				}
				fields[field(t, a.Square)] = c
			}
		}
		out = append(out, fields)
	}
	return out
}

// field is sq's field on a board in the normal orientation.
func field(t *testing.T, sq rules.Square) dgt.Field {
	f, ok := dgt.FieldOf(sq, dgt.Normal)
	if !ok {
		t.Fatalf("square %d has no field", sq)
	}
	return f
}

// TestLastAnswerBeforeTheMoveEvent: the last answer of a board sent at or
// before a moment, none before the first.
func TestLastAnswerBeforeTheMoveEvent(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 16, 0, 0, 0, time.UTC)
	b := &board{}
	for _, ms := range []int{0, 800, 1100, 1900} {
		at := t0.Add(time.Duration(ms) * time.Millisecond)
		b.answered(at.Add(-20*time.Millisecond), at)
	}
	for _, c := range []struct {
		at, want int // ms after t0; want -1: none
	}{{-1, -1}, {0, 0}, {799, 0}, {800, 800}, {1099, 800}, {1150, 1100}, {5000, 1900}} {
		got, ok := b.lastAnswer(t0.Add(time.Duration(c.at) * time.Millisecond))
		switch {
		case c.want < 0 && ok:
			t.Errorf("at %d ms: got %v, want none", c.at, got.Sub(t0))
		case c.want >= 0 && (!ok || !got.Equal(t0.Add(time.Duration(c.want)*time.Millisecond))):
			t.Errorf("at %d ms: got %v (%v), want %d ms", c.at, got.Sub(t0), ok, c.want)
		}
	}
}

// TestReadableAnswer: the answer from which a host can read a move is the
// one that completed it, unless that one also held the move's press for
// the first time: then the first answer the board gave a full scan later
// (only that one shows whether the piece it reported last stayed there).
func TestReadableAnswer(t *testing.T) {
	t0 := time.Date(2026, 11, 26, 19, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	e := emu.New(emu.Setup{Serial: "00001", ScanPeriod: 220 * time.Millisecond}, t0)
	b := &board{e: e, power: t0}
	// Answers read by the board at 0, 800, 1100 (a re-poll), 1900 and
	// 2700 ms, each sent 20 ms after.
	for _, n := range []int{0, 800, 1100, 1900, 2700} {
		b.answered(ms(n), ms(n+20))
	}
	for _, c := range []struct {
		name                    string
		pressed, scanned        int
		wantReadable, wantWhole int // ms the answer was sent; -1: none
	}{
		{"press and last square in one answer: a scan later", 700, 750, 1120, 820},
		{"the re-poll too early: the next answer", 1050, 1000, 1920, 1120},
		{"lever before the last scan: the completing answer", 700, 900, 1120, 1120},
		{"the last square in an answer before the press's: a scan after the press's", 850, 790, 1920, 1120},
		{"no answer a scan later yet", 2600, 2650, -1, 2720},
	} {
		w, r, ok, has := b.readable(ms(c.pressed), ms(c.scanned))
		switch {
		case !ok || !w.sent.Equal(ms(c.wantWhole)):
			t.Errorf("%s: whole %v (%v), want %d ms", c.name, w.sent.Sub(t0), ok, c.wantWhole)
		case c.wantReadable < 0 && has:
			t.Errorf("%s: readable %v, want none", c.name, r.sent.Sub(t0))
		case c.wantReadable >= 0 && (!has || !r.sent.Equal(ms(c.wantReadable))):
			t.Errorf("%s: readable %v (%v), want %d ms", c.name, r.sent.Sub(t0), has, c.wantReadable)
		}
	}
}
