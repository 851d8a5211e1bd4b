package demo

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/broadcast/hall"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/arbiter"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// outcome is what the daemon's pure core made of a scripted game.
type outcome struct {
	moves    []string // UCI of the first game
	result   string
	kinds    map[string]int // alert kinds
	finished int            // games ended by a set-up
	next     broadcast.GameID
}

// playOffline plays p, then the set-up for the next game, on an emulated
// board without real time and feeds what the board sends to a hall.Session
// (the daemon's per-game core) with NextGame, ticking it every 100 ms.
func playOffline(t *testing.T, p Played, speed float64) outcome {
	t.Helper()
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	g := broadcast.GameID{Event: "demo", Round: 1, Board: 1}
	sess, err := hall.NewSession(hall.SessionOptions{Info: hall.Info{Game: g}, RuleSet: rs,
		Tracker: hall.DefaultTrackerOptions(), NextGame: hall.NextRound}, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	e := emu.New(emu.Options{}, t0)
	s := p.Script.Then(time.Duration(float64(2*time.Second)/speed), SetUp(p.Final, speed))
	e.Input(t0, []byte{0x42, 0x4B})
	e.Schedule(t0.Add(time.Second), s)
	d := dgt.NewDecoder(dgt.SingleBoard)
	out := outcome{kinds: map[string]int{}}
	collect := func(st hall.Step) {
		for _, f := range st.Finished {
			out.finished++
			out.moves, out.result = f.UCIs(), f.Result
		}
		for _, o := range st.Out {
			if a, ok := o.(*arbiter.Alert); ok {
				out.kinds[a.Kind]++
			}
		}
	}
	end := t0.Add(time.Second + s.Duration() + 5*time.Second)
	for at := t0; !at.After(end); at = at.Add(100 * time.Millisecond) {
		e.Advance(at)
		d.Feed(e.Output())
		for {
			m, err := d.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			collect(sess.Message(at, m))
		}
		collect(sess.Tick(at))
	}
	out.next = sess.Record().Info.Game
	return out
}

func ucis(g *pgn.Game) []string {
	var out []string
	pos := g.Start
	for _, m := range g.Moves {
		out = append(out, pos.UCI(m.Move))
		pos, _ = pos.Play(m.Move)
	}
	return out
}

// TestPlayThroughTheDaemonCore: every embedded game, played clean and with
// each scripted incident, is recorded move for move by the daemon's core;
// the incident raises its alert for the arbiter, the result gesture gives
// the game's result, and the set-up afterwards starts round 2 on the board.
func TestPlayThroughTheDaemonCore(t *testing.T) {
	games, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	const speed = 4
	for i, g := range games {
		for _, inc := range []Incident{NoIncident, TouchMove, IllegalMove} {
			t.Run(fmt.Sprintf("%d-%s-%s", i+1, strings.Fields(g.Tag("White"))[0], inc), func(t *testing.T) {
				p, err := Play(g, PlayOptions{Speed: speed, Seed: uint64(i + 1), Incident: inc, Gesture: true})
				if errors.Is(err, ErrNoIncident) {
					t.Skipf("game %d offers no position for a %s incident", i+1, inc)
				}
				if err != nil {
					t.Fatal(err)
				}
				if inc != NoIncident && p.IncidentPly == 0 {
					t.Fatal("no incident ply")
				}
				o := playOffline(t, p, speed)
				if got, want := strings.Join(o.moves, " "), strings.Join(ucis(g), " "); got != want {
					t.Fatalf("recorded moves\n got %s\nwant %s\nalerts %v", got, want, o.kinds)
				}
				if o.result != g.Result {
					t.Errorf("result %q, want %q", o.result, g.Result)
				}
				if o.finished != 1 || o.next != (broadcast.GameID{Event: "demo", Round: 2, Board: 1}) {
					t.Errorf("%d games finished, board now on %s; want 1 and demo.2.1", o.finished, o.next)
				}
				want := map[Incident]string{TouchMove: arbiter.KindTouchMove, IllegalMove: arbiter.KindIllegalMove}
				for inc2, kind := range want {
					if got := o.kinds[kind] > 0; got != (inc2 == inc) {
						t.Errorf("%s alerts: %d (incident %s); all alerts %v", kind, o.kinds[kind], inc, o.kinds)
					}
				}
			})
		}
	}
}
