package demo

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// outcome is what the daemon's pure core made of two scripted games.
type outcome struct {
	moves    []string // UCI of the first game
	result   string
	kinds    map[string]map[string]int // alert kinds by game
	finished int                       // games ended by a set-up
	next     *gamerecord.Record        // the board's game at the end
}

// playOffline plays p, a clock reset, the set-up for the next game and then
// next on an emulated board without real time, and feeds what the board
// sends to a session.Session (the daemon's per-game core) with NextGame,
// ticking it every 100 ms.
func playOffline(t *testing.T, p, next Played, speed float64) outcome {
	t.Helper()
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	g := game.ID{Event: "demo", Round: 1, Board: 1}
	sess, err := session.NewSession(session.SessionOptions{Info: gamerecord.Info{Game: g}, RuleSet: rs,
		Tracker: session.DefaultTrackerOptions(), NextGame: session.NextRound}, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	e := emu.New(emu.Setup{}, t0)
	e.Input(t0, []byte{0x42, 0x4B})
	e.Schedule(t0.Add(time.Second), p.Script)
	// As Table does: the clock is reset once the game is over, then the
	// pieces are set up, then the next game starts.
	reset := t0.Add(time.Second + p.Script.Duration() + 2*time.Second)
	setup := SetUp(p.Final, speed)
	e.Schedule(reset.Add(time.Second), setup)
	start2 := reset.Add(3*time.Second + setup.Duration())
	e.Schedule(start2, next.Script)
	d := dgt.NewDecoder(dgt.SingleBoard)
	out := outcome{kinds: map[string]map[string]int{}}
	collect := func(st session.Step) {
		for _, f := range st.Finished {
			out.finished++
			out.moves, out.result = f.UCIs(), f.Result
		}
		for _, o := range st.Out {
			if a, ok := o.(game.Alert); ok {
				if out.kinds[a.Game.String()] == nil {
					out.kinds[a.Game.String()] = map[string]int{}
				}
				out.kinds[a.Game.String()][a.Kind]++
			}
		}
	}
	end := start2.Add(next.Script.Duration() + 5*time.Second)
	for at := t0; !at.After(end); at = at.Add(100 * time.Millisecond) {
		if !at.Before(reset) && at.Before(reset.Add(100*time.Millisecond)) {
			e.SetClock(at, e.Setup().Clock)
		}
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
	out.next = sess.Record()
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
// the incident raises its alert for the arbiter and nothing else does but
// the game's end; the result gesture gives the game's result; the set-up
// afterwards starts round 2 on the board, where the next game (after a
// clock reset, Black starting White's clock) is recorded without alerts.
func TestPlayThroughTheDaemonCore(t *testing.T) {
	games, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	const speed = 4
	ends := map[string]bool{game.KindCheckmate: true, "result_gesture": true}
	for i, g := range games {
		ng := games[(i+1)%len(games)]
		next, err := Play(ng, PlayOptions{Speed: speed, Seed: 99, Gesture: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, inc := range []Incident{NoIncident, TouchMove, IllegalMove} {
			t.Run(fmt.Sprintf("%d-%s-%s", i+1, strings.Fields(g.Tag("White"))[0], inc), func(t *testing.T) {
				p, err := Play(g, PlayOptions{Speed: speed, Seed: uint64(i + 1), Incident: inc, Gesture: true})
				if err != nil {
					t.Fatal(err)
				}
				if inc != NoIncident && p.IncidentPly == 0 {
					t.Fatal("no incident ply")
				}
				o := playOffline(t, p, next, speed)
				if got, want := strings.Join(o.moves, " "), strings.Join(ucis(g), " "); got != want {
					t.Fatalf("recorded moves\n got %s\nwant %s\nalerts %v", got, want, o.kinds)
				}
				if o.result != g.Result {
					t.Errorf("result %q, want %q", o.result, g.Result)
				}
				if o.finished != 1 || o.next.Info.Game != (game.ID{Event: "demo", Round: 2, Board: 1}) {
					t.Fatalf("%d games finished, board now on %s; want 1 and demo.2.1", o.finished, o.next.Info.Game)
				}
				if got, want := strings.Join(o.next.UCIs(), " "), strings.Join(ucis(ng), " "); got != want {
					t.Errorf("next game's moves\n got %s\nwant %s\nalerts %v", got, want, o.kinds)
				}
				want := map[Incident]string{TouchMove: game.KindTouchMove, IllegalMove: game.KindIllegalMove}
				for k, n := range o.kinds["demo.1.1"] {
					if !ends[k] && k != want[inc] {
						t.Errorf("%d unexpected %s alerts in game 1 (incident %s)", n, k, inc)
					}
				}
				if inc != NoIncident && o.kinds["demo.1.1"][want[inc]] == 0 {
					t.Errorf("no %s alert; alerts %v", want[inc], o.kinds)
				}
				for k, n := range o.kinds["demo.2.1"] {
					if !ends[k] {
						t.Errorf("%d unexpected %s alerts in the next game", n, k)
					}
				}
			})
		}
	}
}
