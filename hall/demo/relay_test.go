package demo

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// TestPlayRelayThroughTheDaemonCore: blind-player games scripted by
// PlayRelay on two emulated boards are recorded move for move by the
// daemon's core with its relay, every move announced once, no alert but the
// game's end; the set-up of both boards afterwards starts round 2, which is
// recorded and announced too.
func TestPlayRelayThroughTheDaemonCore(t *testing.T) {
	games, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	const speed = 4
	for i, blind := range []rules.Color{rules.Black, rules.White} {
		g, ng := games[i], games[i+1]
		t.Run(blind.String(), func(t *testing.T) {
			p, err := PlayRelay(g, blind, PlayOptions{Speed: speed, Seed: 7, Gesture: true})
			if err != nil {
				t.Fatal(err)
			}
			np, err := PlayRelay(ng, blind, PlayOptions{Speed: speed, Seed: 8, Gesture: true})
			if err != nil {
				t.Fatal(err)
			}
			sess, err := session.NewSession(session.SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "demo", Round: 1, Board: 5}},
				RuleSet: rs, Tracker: session.DefaultTrackerOptions(), NextGame: session.NextRound,
				Blind: session.DefaultBlind(blind, announce.English)}, nil, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
			es := emu.New(emu.Setup{}, t0)
			eb := emu.New(emu.Setup{Serial: "20005", NoClock: true}, t0)
			start := t0.Add(time.Second)
			es.Schedule(start, p.Sighted.Script)
			eb.Schedule(start, p.Blind.Script)
			end1 := start.Add(max(p.Sighted.Script.Duration(), p.Blind.Script.Duration()))
			reset := end1.Add(2 * time.Second)
			su := SetUp(p.Sighted.Final, speed)
			es.Schedule(reset.Add(time.Second), su)
			eb.Schedule(reset.Add(3*time.Second), SetUp(p.Blind.Final, speed))
			start2 := reset.Add(6*time.Second + su.Duration())
			es.Schedule(start2, np.Sighted.Script)
			eb.Schedule(start2, np.Blind.Script)
			end := start2.Add(max(np.Sighted.Script.Duration(), np.Blind.Script.Duration()) + 5*time.Second)

			type src struct {
				e *emu.Emulator
				d *dgt.Decoder
				w game.Which
			}
			srcs := []src{{es, dgt.NewDecoder(dgt.SingleBoard), game.SightedBoard}, {eb, dgt.NewDecoder(dgt.SingleBoard), game.BlindBoard}}
			for _, s := range srcs {
				s.e.Input(t0, []byte{0x42, 0x4B})
			}
			var finished []*gamerecord.Record
			alerts := map[string][]string{}
			announced := map[string]int{}
			collect := func(st session.Step) {
				finished = append(finished, st.Finished...)
				for _, o := range st.Out {
					switch o := o.(type) {
					case game.Alert:
						alerts[o.Game.String()] = append(alerts[o.Game.String()], o.Kind+": "+o.Message)
					case game.Announcement:
						if o.Kind == "move" {
							announced[o.Game.String()]++
						}
					}
				}
			}
			for at := t0; !at.After(end); at = at.Add(100 * time.Millisecond) {
				if !at.Before(reset) && at.Before(reset.Add(100*time.Millisecond)) {
					es.SetClock(at, es.Setup().Clock)
				}
				for _, s := range srcs {
					s.e.Advance(at)
					s.d.Feed(s.e.Output())
					for {
						m, err := s.d.Next()
						if errors.Is(err, dgt.ErrNeedMore) {
							break
						}
						if err != nil {
							t.Fatalf("decode: %v", err)
						}
						collect(sess.MessageFrom(s.w, at, m))
					}
				}
				collect(sess.Tick(at))
			}
			if len(finished) != 1 {
				t.Fatalf("%d games finished, want 1; alerts %v", len(finished), alerts)
			}
			if got, want := strings.Join(finished[0].UCIs(), " "), strings.Join(ucis(g), " "); got != want {
				t.Fatalf("game 1\n got %s\nwant %s\nalerts %v", got, want, alerts)
			}
			if finished[0].Result != g.Result {
				t.Errorf("result %q, want %q", finished[0].Result, g.Result)
			}
			rec := sess.Record()
			if rec.Info.Game.Round != 2 || strings.Join(rec.UCIs(), " ") != strings.Join(ucis(ng), " ") {
				t.Errorf("game 2 %s: %v, want %v; alerts %v", rec.Info.Game, rec.UCIs(), ucis(ng), alerts)
			}
			if announced["demo.1.5"] != len(g.Moves) || announced["demo.2.5"] != len(ng.Moves) {
				t.Errorf("announced %v, want %d and %d moves", announced, len(g.Moves), len(ng.Moves))
			}
			for game, as := range alerts {
				for _, a := range as {
					if !strings.HasPrefix(a, "checkmate") && !strings.HasPrefix(a, "result_gesture") {
						t.Errorf("%s: unexpected alert %s", game, a)
					}
				}
			}
		})
	}
}
