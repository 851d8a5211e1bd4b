package hall

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestHallOutageFromLog: the board's port is away for twelve plies (about
// 15 s, both sides moving, captures among them: far more than the catch-up
// from the position can explain); when it is back, the moves are rebuilt
// from the board's EEPROM log, recorded and published once each, in order,
// with the clock times the log holds, and the game goes on live.
func TestHallOutageFromLog(t *testing.T) {
	integration(t)
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6",
		"d2d4", "e5d4", "f3d4", "c6c5", "d4b3", "d8d1", "f1d1", "c8g4", "f2f3", "g4e6"}
	const before, gap = 4, 12
	g := game.ID{Event: "open2026", Round: 4, Board: 9}
	f := startHall(t, "r4-b9", g, "00049", nil)
	srv, b, d, moves := f.srv, f.b, f.d, f.moves
	_, alerts := f.alerts(t)

	b.e.Schedule(time.Now(), scriptFrom(t, line[:0], 500*time.Millisecond, line[:before]...))
	waitFor(t, 30*time.Second, "the moves before the outage", func() bool { return moves() >= before })
	b.Unplug()
	waitFor(t, 20*time.Second, "the disconnection", func() bool { _, dis := d.h.Summary(); return dis == 1 })
	b.e.Schedule(time.Now(), scriptFrom(t, line[:before], 800*time.Millisecond, line[before:before+gap]...))
	handsDone(t, b.e, 60*time.Second)
	b.Plug()
	waitConnected(t, d.h)
	if !waitUntil(20*time.Second, func() bool { return moves() >= before+gap }) {
		r, _ := d.h.Record(g)
		t.Fatalf("after the reconnect: moves %v, want %v", r.UCIs(), line[:before+gap])
	}
	b.e.Schedule(time.Now(), scriptFrom(t, line[:before+gap], 500*time.Millisecond, line[before+gap:]...))
	if !waitUntil(30*time.Second, func() bool { return moves() >= len(line) }) {
		r, _ := d.h.Record(g)
		t.Fatalf("moves %v, want %v", r.UCIs(), line)
	}
	time.Sleep(time.Second) // an observation window: a stray completion would show
	r, _ := d.h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != strings.Join(line, " ") {
		t.Fatalf("record\n got %s\nwant %s", got, strings.Join(line, " "))
	}
	for i := before; i < before+gap; i++ {
		if r.Moves[i].Clock == nil {
			t.Errorf("ply %d rebuilt without its clock time", i+1)
		}
	}
	expectPublishedOnlyDisconnects(t, srv, alerts, testPrefix+".game."+g.String()+".move", line)
}

// plugPipe is a board served over pipes whose cable can be pulled: while
// it is out, opening the port fails, and the board goes on by itself (its
// scans, its clock, the players' hands), as a real one does.
type plugPipe struct {
	*pipeServer
	e    *emu.Emulator
	out  atomic.Bool
	stop chan struct{}
	wg   sync.WaitGroup
}

func (p *plugPipe) Open(ctx context.Context) (io.ReadWriteCloser, error) {
	if p.out.Load() {
		return nil, errors.New("test: cable out")
	}
	return p.pipeServer.Open(ctx)
}

func (p *plugPipe) unplug() {
	p.out.Store(true)
	p.pipeServer.Close()
	p.stop = make(chan struct{})
	p.wg.Go(func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case now := <-t.C:
				p.e.Advance(now)
			}
		}
	})
}

func (p *plugPipe) plug() {
	close(p.stop)
	p.wg.Wait()
	p.out.Store(false)
}

// TestHallOutagesFromLog: outages of 15 s, 120 s and 30 min (simulated
// time) in the middle of a game, both sides moving meanwhile, on a board
// alone on its port (the cable pulled) and on a board of a DGT bus line
// (unplugged from the line): the moves are rebuilt from the board's log
// when it is back, journalled once each and in order for NATS, with the
// clock times the log holds; no move is lost or doubled, and no clock or
// board alert is raised on these clean games.
func TestHallOutagesFromLog(t *testing.T) {
	line := dgttest.Moves(t, dgttest.Game1)
	for _, c := range []struct {
		name string
		gap  time.Duration
		away int // plies made during the outage
	}{{"15s", 15 * time.Second, 10}, {"120s", 120 * time.Second, 16}, {"30min", 30 * time.Minute, 16}} {
		for _, bus := range []bool{false, true} {
			name := c.name + "/single"
			if bus {
				name = c.name + "/bus"
			}
			t.Run(name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) { outageFromLog(t, line[:4+c.away+4], c.gap, c.away, bus) })
			})
		}
	}
}

func outageFromLog(t *testing.T, line []string, gap time.Duration, away int, bus bool) {
	outageFromLogFrom(t, line, gap, away, 4, bus)
}

// outageFromLogFrom is outageFromLog with the outage after ply before.
func outageFromLogFrom(t *testing.T, line []string, gap time.Duration, away, before int, bus bool) {
	now := time.Now()
	e := emu.New(emu.Setup{Serial: "00301", Seed: 3}, now)
	g := game.ID{Event: "open2026", Round: 6, Board: 1}
	var b Board
	var unplug, plug func()
	if bus {
		other := emu.New(emu.Setup{Serial: "00302", Seed: 4}, now)
		l := emu.NewLine(now, e, other)
		srv := servePipe(t, l)
		b = boardFor(t, "r6-b1", g, srv.Open)
		b.Port, b.BusAddress = "line1", 301
		o := boardFor(t, "r6-b2", game.ID{Event: "open2026", Round: 6, Board: 2}, srv.Open)
		o.Port, o.BusAddress = "line1", 302
		unplug, plug = func() { l.Unplug(301) }, func() { l.Plug(301) }
		sh := startSim(t, t.TempDir(), Options{Boards: []Board{b, o}, BusRediscover: time.Second})
		runOutage(t, sh, e, g, line, gap, away, before, unplug, plug)
		return
	}
	pp := &plugPipe{pipeServer: servePipe(t, e), e: e}
	b = boardFor(t, "r6-b1", g, pp.Open)
	sh := startSim(t, t.TempDir(), Options{Boards: []Board{b}})
	runOutage(t, sh, e, g, line, gap, away, before, pp.unplug, pp.plug)
}

func runOutage(t *testing.T, sh *simHall, e *emu.Emulator, g game.ID, line []string, gap time.Duration, away, before int, unplug, plug func()) {
	h := sh.h
	waitConnected(t, h)
	moves := func() int { r, _ := h.Record(g); return len(r.Moves) }
	e.Schedule(time.Now(), scriptFrom(t, nil, time.Second, line[:before]...))
	waitFor(t, 60*time.Second, "the moves before the outage", func() bool { return moves() >= before })
	unplug()
	waitFor(t, 30*time.Second, "the board lost", func() bool { _, dis := h.Summary(); return dis == 1 })
	// The outage: both sides move, spread over the gap.
	think := gap / time.Duration(away+1)
	e.Schedule(time.Now(), scriptFrom(t, line[:before], think, line[before:before+away]...))
	handsDone(t, e, gap+time.Minute)
	plug()
	waitConnected(t, h)
	if !waitUntil(60*time.Second, func() bool { return moves() >= before+away }) {
		r, _ := h.Record(g)
		t.Fatalf("after the outage: %d moves %v, want %d", len(r.Moves), r.UCIs(), before+away)
	}
	e.Schedule(time.Now(), scriptFrom(t, line[:before+away], time.Second, line[before+away:]...))
	if !waitUntil(60*time.Second, func() bool { return moves() >= len(line) }) {
		r, _ := h.Record(g)
		t.Fatalf("moves %v, want %v", r.UCIs(), line)
	}
	time.Sleep(10 * time.Second) // simulated: a stray completion or a late alert would show
	synctest.Wait()
	r, _ := h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != strings.Join(line, " ") {
		t.Fatalf("record\n got %s\nwant %s", got, strings.Join(line, " "))
	}
	for i := before; i < before+away; i++ {
		if r.Moves[i].Clock == nil {
			t.Errorf("ply %d rebuilt without its clock time", i+1)
		}
	}
	for _, ob := range sh.observed() {
		if al, ok := ob.Payload.(game.Alert); ok && al.Game == g && al.Kind != game.KindBoardDisconnected && al.Kind != game.KindClockDisconnected {
			t.Errorf("alert %s/%s: %s", al.Kind, al.Severity, al.Message)
		}
	}
	evs := sh.journalled(g)
	var plies []string
	for _, ev := range evs {
		plies = append(plies, fmt.Sprintf("%d:%s", ev.Ply, ev.UCI))
	}
	var want []string
	for i, u := range line {
		want = append(want, fmt.Sprintf("%d:%s", i+1, u))
	}
	if strings.Join(plies, " ") != strings.Join(want, " ") {
		t.Errorf("journalled\n got %v\nwant %v", plies, want)
	}
}

// TestHallOutageLogErased: the board's log is erased during the outage (as
// a board reset, or one without EEPROM, leaves it): the moves made
// meanwhile cannot be rebuilt from it, the arbiter gets one moves_missing
// alert naming the ply from which moves are missing, and no move that was
// not played enters the record (what the tracker's catch-up from the
// board's position then explains is the game's).
func TestHallOutageLogErased(t *testing.T) {
	line := dgttest.Moves(t, dgttest.Game1)[:14]
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{Serial: "00311", Seed: 5}, time.Now())
		g := game.ID{Event: "open2026", Round: 6, Board: 3}
		pp := &plugPipe{pipeServer: servePipe(t, e), e: e}
		sh := startSim(t, t.TempDir(), Options{Boards: []Board{boardFor(t, "r6-b3", g, pp.Open)}})
		h := sh.h
		waitConnected(t, h)
		moves := func() int { r, _ := h.Record(g); return len(r.Moves) }
		e.Schedule(time.Now(), scriptFrom(t, nil, time.Second, line[:4]...))
		waitFor(t, 60*time.Second, "the moves before the outage", func() bool { return moves() >= 4 })
		pp.unplug()
		waitFor(t, 30*time.Second, "the board lost", func() bool { _, dis := h.Summary(); return dis == 1 })
		e.Schedule(time.Now(), scriptFrom(t, line[:4], 2*time.Second, line[4:]...))
		handsDone(t, e, 2*time.Minute)
		e.EraseEEPROM(time.Now())
		pp.plug()
		waitConnected(t, h)
		time.Sleep(10 * time.Second) // simulated
		synctest.Wait()
		// Whatever the board's position lets the tracker catch up
		// afterwards (a short legal sequence), nothing that was not
		// played enters the record.
		r, _ := h.Record(g)
		if u := r.UCIs(); len(u) < 4 || strings.Join(u, " ") != strings.Join(line[:len(u)], " ") {
			t.Errorf("record %v: a move was made up or lost", u)
		}
		var missing []game.Alert
		for _, ob := range sh.observed() {
			if al, ok := ob.Payload.(game.Alert); ok && al.Kind == game.KindMovesMissing {
				missing = append(missing, al)
			}
		}
		if len(missing) != 1 || missing[0].Ply != 4 || missing[0].Severity != game.Crit || !strings.Contains(missing[0].Message, "after ply 4") {
			t.Errorf("moves_missing alerts: %+v", missing)
		}
	})
}

// TestHallBusNoiseEndToEnd: replies on a DGT bus line are damaged now and
// then all through two games (bit errors the checksum catches, in
// simulated time): the line asks again, and every move of both games is
// journalled once, in order.
func TestHallBusNoiseEndToEnd(t *testing.T) {
	line := dgttest.Moves(t, dgttest.Game1)[:24]
	synctest.Test(t, func(t *testing.T) {
		now := time.Now()
		e1 := emu.New(emu.Setup{Serial: "00321", Seed: 6}, now)
		e2 := emu.New(emu.Setup{Serial: "00322", Seed: 7}, now)
		l := emu.NewLine(now, e1, e2)
		srv := servePipe(t, l)
		g1, g2 := game.ID{Event: "open2026", Round: 7, Board: 1}, game.ID{Event: "open2026", Round: 7, Board: 2}
		b1, b2 := boardFor(t, "r7-b1", g1, srv.Open), boardFor(t, "r7-b2", g2, srv.Open)
		b1.Port, b1.BusAddress = "line1", 321
		b2.Port, b2.BusAddress = "line1", 322
		sh := startSim(t, t.TempDir(), Options{Boards: []Board{b1, b2}, BusRediscover: time.Second})
		h := sh.h
		waitConnected(t, h)
		e1.Schedule(time.Now(), scriptFrom(t, nil, 1500*time.Millisecond, line...))
		e2.Schedule(time.Now().Add(700*time.Millisecond), scriptFrom(t, nil, 1500*time.Millisecond, line...))
		done := func() bool {
			r1, _ := h.Record(g1)
			r2, _ := h.Record(g2)
			return len(r1.Moves) >= len(line) && len(r2.Moves) >= len(line)
		}
		damaged := 0
		for deadline := time.Now().Add(5 * time.Minute); !done() && time.Now().Before(deadline); damaged += 2 {
			l.Corrupt(2)
			time.Sleep(1300 * time.Millisecond)
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		t.Logf("%d replies damaged", damaged)
		for _, g := range []game.ID{g1, g2} {
			var got []string
			for _, ev := range sh.journalled(g) {
				got = append(got, fmt.Sprintf("%d:%s", ev.Ply, ev.UCI))
			}
			var want []string
			for i, u := range line {
				want = append(want, fmt.Sprintf("%d:%s", i+1, u))
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("game %s journalled\n got %v\nwant %v", g, got, want)
			}
		}
	})
}

// TestHallOutageBeforeFirstMove: the board is seen set up
// for the game, then its cable is pulled (or the daemon restarts) before
// the first move, and both sides play ten plies meanwhile. The game's
// start is the start position the board's log holds last (the daemon saw
// the board set up: Record.SetUp), so the ten plies are rebuilt from the
// log when the board is back, published once each in order with their
// clock times, and the game goes on live. Before, a game with no move
// recorded was never rebuilt: the tracker caught up what it could from
// the board's position (a short legal sequence at best).
func TestHallOutageBeforeFirstMove(t *testing.T) {
	line := dgttest.Moves(t, dgttest.Game1)[:14]
	for _, bus := range []bool{false, true} {
		name := "single"
		if bus {
			name = "bus"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { outageFromLogFrom(t, line, 15*time.Second, 10, 0, bus) })
		})
	}
}
