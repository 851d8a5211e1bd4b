package hall

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
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// TestNextGameAfterShortGame: a game of a few plies ends with a
// result the arbiter enters (a resignation: nothing on the board says so),
// the players set the start position up again: that set-up begins the
// next game, however short the finished one was (it used to read as a
// takeback of all its moves, and no next game began). A result withdrawn
// ("*") follows the board from the record again.
func TestNextGameAfterShortGame(t *testing.T) {
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	full := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3"}
	for _, n := range []int{1, 2, 4, 9} {
		t.Run(fmt.Sprintf("%d plies", n), func(t *testing.T) {
			ucis := full[:n]
			pos := rules.Position(chess.StartPosition(chess.Standard))
			for _, u := range ucis {
				pos, _ = pos.Play(mustMove(t, pos, u))
			}
			line := script(t, ucis...)
			s := line.Then(3*time.Second, setUpScript(pos.Placement())).Then(3*time.Second, script(t, "d2d4", "d7d5"))
			resignAt := time.Second + line.Duration() + 1500*time.Millisecond
			g1 := game.ID{Event: "demo", Round: 1, Board: 3}
			o := session.SessionOptions{Info: gamerecord.Info{Game: g1, White: "A", Black: "B"}, RuleSet: rs, Tracker: session.DefaultTrackerOptions(), NextGame: session.NextRound}
			sess, steps := runSessionWith(t, o, s, resignAt, func(sess *session.Session, at time.Time) session.Step {
				st, err := sess.Command(adjudicator.Command{Cmd: "set_result", Result: "1-0", Termination: "resignation"}, at)
				if err != nil {
					t.Fatal(err)
				}
				return st
			})
			var finished []*gamerecord.Record
			for _, st := range steps {
				finished = append(finished, st.Finished...)
			}
			if len(finished) != 1 {
				t.Fatalf("%d finished games, want 1 (the record: %s %v)", len(finished), sess.Record().Info.Game, sess.Record().UCIs())
			}
			if f := finished[0]; f.Info.Game != g1 || strings.Join(f.UCIs(), " ") != strings.Join(ucis, " ") || f.Result != "1-0" {
				t.Errorf("finished game %s %v %s", f.Info.Game, f.UCIs(), f.Result)
			}
			rec := sess.Record()
			if want := (game.ID{Event: "demo", Round: 2, Board: 3}); rec.Info.Game != want || strings.Join(rec.UCIs(), " ") != "d2d4 d7d5" || rec.Result != "*" {
				t.Errorf("next game %s %v %q, want %s d2d4 d7d5", rec.Info.Game, rec.UCIs(), rec.Result, want)
			}
		})
	}

	// The result withdrawn: the board is followed from the record again.
	ucis := full[:4]
	line := script(t, ucis...).Then(3*time.Second, script(t, "d2d4"))
	resignAt := time.Second + script(t, ucis...).Duration() + 1500*time.Millisecond
	o := session.SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "demo", Round: 1, Board: 3}, White: "A", Black: "B"}, RuleSet: rs, Tracker: session.DefaultTrackerOptions(), NextGame: session.NextRound}
	n := 0
	sess, _ := runSessionWith(t, o, line, resignAt, func(sess *session.Session, at time.Time) session.Step {
		var all session.Step
		for _, r := range []string{"1-0", "*"} {
			st, err := sess.Command(adjudicator.Command{Cmd: "set_result", Result: r}, at.Add(time.Duration(n)*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			n++
			all.Out = append(all.Out, st.Out...)
		}
		return all
	})
	if got := strings.Join(sess.Record().UCIs(), " "); got != "e2e4 e7e5 g1f3 b8c6 d2d4" || sess.Record().Result != "*" {
		t.Errorf("after the result was withdrawn: %s %q", got, sess.Record().Result)
	}
}

// runSessionWith is runSession with a call of do at offset at (after the
// board's first second).
func runSessionWith(t *testing.T, o session.SessionOptions, s emu.Script, doAt time.Duration, do func(*session.Session, time.Time) session.Step) (*session.Session, []session.Step) {
	t.Helper()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	e := emu.New(emu.Setup{}, t0)
	sess, err := session.NewSession(o, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	d := dgt.NewDecoder(dgt.SingleBoard)
	var steps []session.Step
	e.Input(t0, []byte{0x42, 0x4B})
	e.Schedule(t0.Add(time.Second), s)
	end := t0.Add(time.Second + s.Duration() + 5*time.Second)
	done := false
	for at := t0; !at.After(end); at = at.Add(100 * time.Millisecond) {
		if !done && !at.Before(t0.Add(doAt)) {
			steps = append(steps, do(sess, at))
			done = true
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
			steps = append(steps, sess.Message(at, m))
		}
		steps = append(steps, sess.Tick(at))
	}
	return sess, steps
}
