package link_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/rules"
)

// recorder collects a link's events in a goroutine.
type recorder struct {
	mu  sync.Mutex
	evs []link.Event
}

func (r *recorder) run(l *link.Link) {
	for ev := range l.Events() {
		r.mu.Lock()
		r.evs = append(r.evs, ev)
		r.mu.Unlock()
	}
}

func (r *recorder) events() []link.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]link.Event(nil), r.evs...)
}

// kindsOf names the events other than messages; a message that is a
// board dump is named "dump".
func kindsOf(evs []link.Event) []string {
	var k []string
	for _, ev := range evs {
		switch ev := ev.(type) {
		case link.Message:
			if _, ok := ev.Msg.(dgt.BoardDump); ok {
				k = append(k, "dump")
			}
		default:
			k = append(k, fmt.Sprintf("%T", ev)[5:])
		}
	}
	return k
}

// replay applies a log's piece records from its last power-up on.
func replay(l dgt.EELog) rules.Placement {
	var d dgt.BoardDump
	for _, e := range l.Entries {
		switch e.Kind {
		case dgt.EEPowerUp:
			d = dgt.BoardDump{}
		case dgt.EEPiece:
			d.Fields[e.Field] = e.Piece
		}
	}
	return d.Placement(dgt.Normal)
}

// TestLogAtEveryConnect: the link reads the EEPROM log after every
// connection sequence, between Connected and the board dump; moves made
// while the board was unplugged are in the log read at the reconnect.
func TestLogAtEveryConnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := emu.New(emu.Setup{Serial: "12345"}, time.Now())
		pb := &pipeBoard{e: e}
		l := link.New(pb.Open, link.Settings{Watchdog: time.Second, BackoffMin: 100 * time.Millisecond, BackoffMax: 100 * time.Millisecond, Verify: -1})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { l.Run(ctx) })
		var rec recorder
		wg.Go(func() { rec.run(l) })
		time.Sleep(20 * time.Second)
		pb.Unplug()
		script, final := gameScript(t, ruyLopez[:6]...)
		e.Schedule(time.Now(), script)
		time.Sleep(script.Duration() + time.Second)
		pb.Plug()
		time.Sleep(20 * time.Second)
		synctest.Wait()
		cancel()
		wg.Wait()
		pb.Close()
		evs := rec.events()
		k := fmt.Sprint(kindsOf(evs))
		if want := "[Connected Log dump Disconnected Connected Log dump]"; k != want {
			t.Fatalf("events %s, want %s", k, want)
		}
		var logs []link.Log
		for _, ev := range evs {
			if lg, ok := ev.(link.Log); ok {
				logs = append(logs, lg)
			}
		}
		if logs[0].Err != nil || logs[1].Err != nil {
			t.Fatalf("log errors %v, %v", logs[0].Err, logs[1].Err)
		}
		if got := replay(logs[1].Log); got != final {
			t.Fatalf("the log read at the reconnect replays to %s, want %s", got.String(), final.String())
		}
		if n := logs[1].Log.Pieces() - logs[0].Log.Pieces(); n < 12 {
			t.Fatalf("the second log has %d more piece records than the first, want the 6 plies made while unplugged", n)
		}
	})
}

// TestReadLogOnRequest: ReadLog returns once the Log event is out; a
// clock command sent meanwhile waits for the log (≈ 8 s on the line in
// real life) and is acknowledged after it; without an EEPROM the read
// fails with ErrNoLog after LogTimeout and the link carries on.
func TestReadLogOnRequest(t *testing.T) {
	for _, noEE := range []bool{false, true} {
		t.Run(fmt.Sprint("no EEPROM ", noEE), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := emu.New(emu.Setup{NoEEPROM: noEE}, time.Now())
				pb := &pipeBoard{e: e}
				l := link.New(pb.Open, link.Settings{NoLog: true, LogTimeout: 5 * time.Second, Verify: -1})
				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				wg.Go(func() { l.Run(ctx) })
				var rec recorder
				wg.Go(func() { rec.run(l) })
				time.Sleep(10 * time.Second)
				var clockErr error
				var clockDone time.Time
				wg.Go(func() {
					time.Sleep(time.Millisecond)
					clockErr = l.Clock(ctx, emuVersionRequest)
					clockDone = time.Now()
				})
				start := time.Now()
				err := l.ReadLog(ctx)
				readDone := time.Now()
				synctest.Wait() // the recorder has taken what is in the channel
				seen := kindsOf(rec.events())
				time.Sleep(time.Second)
				cancel()
				wg.Wait()
				pb.Close()
				if noEE {
					if !errors.Is(err, link.ErrNoLog) || readDone.Sub(start) < 5*time.Second {
						t.Fatalf("ReadLog without EEPROM: %v after %v", err, readDone.Sub(start))
					}
				} else if err != nil {
					t.Fatalf("ReadLog: %v", err)
				}
				if fmt.Sprint(seen) != "[Connected dump Log]" {
					t.Fatalf("events when ReadLog returned: %v", seen)
				}
				if clockErr != nil || clockDone.Before(readDone) {
					t.Fatalf("clock command: %v at %v, log read done at %v", clockErr, clockDone.Sub(start), readDone.Sub(start))
				}
			})
		})
	}
}

// TestNoEEPROMConnectsAtOnce: a board without an EEPROM (older boards,
// some clones) never answers DGT_SEND_EE_MOVES. Before, every connection
// waited the whole LogTimeout (15 s) in IDLE mode for it, and moves made
// meanwhile came as one dump the tracker could not always explain. Now
// silence for ReplyTimeout after the request means no log: the link is
// connected within a few seconds and the Log event says ErrNoLog.
func TestNoEEPROMConnectsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		e := emu.New(emu.Setup{Serial: "00777", NoEEPROM: true}, start)
		pb := &pipeBoard{e: e}
		l := link.New(pb.Open, link.Settings{Verify: -1})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { l.Run(ctx) })
		var rec recorder
		wg.Go(func() { rec.run(l) })
		time.Sleep(30 * time.Second)
		synctest.Wait()
		cancel()
		wg.Wait()
		pb.Close()
		var conn *link.Connected
		var lg *link.Log
		for _, ev := range rec.events() {
			switch ev := ev.(type) {
			case link.Connected:
				if conn == nil {
					conn = &ev
				}
			case link.Log:
				if lg == nil {
					lg = &ev
				}
			}
		}
		if conn == nil || lg == nil {
			t.Fatalf("events %v: want Connected and Log", kindsOf(rec.events()))
		}
		if !errors.Is(lg.Err, link.ErrNoLog) {
			t.Errorf("log error %v, want ErrNoLog", lg.Err)
		}
		if d := conn.At.Sub(start); d > 5*time.Second {
			t.Errorf("connected %v after the start, want within 5 s (the log's 15 s time-out is not waited out for a board that never answers)", d)
		}
	})
}
