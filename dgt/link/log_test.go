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
