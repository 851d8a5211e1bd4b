package hall

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// offline is an emulated board feeding a session without a link, in fake
// time (100 ms steps), so that a test can act on the session between
// steps.
type offline struct {
	t     *testing.T
	e     *emu.Emulator
	d     *dgt.Decoder
	s     *session.Session
	now   time.Time
	steps []session.Step
}

func newOffline(t *testing.T, o session.SessionOptions) *offline {
	t.Helper()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s, err := session.NewSession(o, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	f := &offline{t: t, e: emu.New(emu.Setup{}, t0), d: dgt.NewDecoder(dgt.SingleBoard), s: s, now: t0}
	f.e.Input(t0, []byte{0x42, 0x4B})
	return f
}

// play schedules sc now and runs until it is done and settled.
func (f *offline) play(sc emu.Script) {
	f.e.Schedule(f.now, sc)
	f.run(sc.Duration() + 4*time.Second)
}

func (f *offline) run(d time.Duration) {
	end := f.now.Add(d)
	for ; !f.now.After(end); f.now = f.now.Add(100 * time.Millisecond) {
		f.e.Advance(f.now)
		f.d.Feed(f.e.Output())
		for {
			m, err := f.d.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				f.t.Fatalf("decode: %v", err)
			}
			f.steps = append(f.steps, f.s.Message(f.now, m))
		}
		f.steps = append(f.steps, f.s.Tick(f.now))
	}
}

func (f *offline) finished() []*gamerecord.Record {
	var out []*gamerecord.Record
	for _, st := range f.steps {
		out = append(out, st.Finished...)
	}
	return out
}

func rulesetFor(t *testing.T, name string) ruleset.RuleSet {
	t.Helper()
	rs, err := ruleset.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

var (
	reloadG1 = game.ID{Event: "open", Round: 1, Board: 4}
	reloadG2 = game.ID{Event: "open", Round: 2, Board: 4}
)

func round1(t *testing.T) session.SessionOptions {
	return session.SessionOptions{Info: gamerecord.Info{Game: reloadG1, White: "Nguyen", Black: "Tran"}, RuleSet: rulesetFor(t, ruleset.FIDE2018Standard), Tracker: session.DefaultTrackerOptions()}
}

func round2(t *testing.T) session.SessionOptions {
	return session.SessionOptions{Info: gamerecord.Info{Game: reloadG2, White: "Le", Black: "Pham", WhiteTeam: "Hue"}, RuleSet: rulesetFor(t, ruleset.FIDE2018Rapid), Tracker: session.DefaultTrackerOptions()}
}

// TestReloadInProgress: a reload during a game leaves its players; the
// set-up after its result begins the reloaded round's game, with the new
// players and rule set, and its moves are recorded there.
func TestReloadInProgress(t *testing.T) {
	f := newOffline(t, round1(t))
	moves := []string{"e2e4", "e7e5", "g1f3", "b8c6"}
	f.play(script(t, moves[:2]...))
	st, err := f.s.Reconfigure(round2(t), f.now)
	if err != nil || st.Changed || len(st.Out) != 0 {
		t.Fatalf("reload mid-game: %+v %v", st, err)
	}
	if rec := f.s.Record(); rec.Info.Game != reloadG1 || rec.Info.White != "Nguyen" {
		t.Fatalf("the game in progress changed: %+v", rec.Info)
	}
	f.e.Schedule(f.now, script(t, moves...)[len(script(t, moves[:2]...)):]) // the rest of the game
	f.run(10 * time.Second)
	gesture, after := resultAfter(t, moves...)
	f.play(gesture)
	f.play(setUpScript(after))
	f.play(script(t, "d2d4", "d7d5"))

	rec := f.s.Record()
	if rec.Info.Game != reloadG2 || rec.Info.White != "Le" || rec.Info.WhiteTeam != "Hue" || rec.Info.Ruleset != "" && rec.Info.Ruleset != ruleset.FIDE2018Rapid ||
		strings.Join(rec.UCIs(), " ") != "d2d4 d7d5" {
		t.Fatalf("next game %+v moves %v", rec.Info, rec.UCIs())
	}
	if f.s.Options().RuleSet.Name != ruleset.FIDE2018Rapid {
		t.Errorf("the next game is judged by %s, want the reloaded %s", f.s.Options().RuleSet.Name, ruleset.FIDE2018Rapid)
	}
	fin := f.finished()
	if len(fin) != 1 || fin[0].Info.Game != reloadG1 || fin[0].Info.White != "Nguyen" || strings.Join(fin[0].UCIs(), " ") != strings.Join(moves, " ") {
		t.Errorf("finished %+v", fin)
	}
}

// TestReloadUnstarted: a board whose game has not started takes the
// reloaded game at once: a new record when the round changed (saved and
// published: Changed), the same game with corrected players otherwise;
// then its moves go to it.
func TestReloadUnstarted(t *testing.T) {
	f := newOffline(t, round1(t))
	f.run(2 * time.Second)
	fix := round1(t)
	fix.Info.White = "Nguyen, Van An"
	st, err := f.s.Reconfigure(fix, f.now)
	if err != nil || !st.Changed || f.s.Record().Info.Game != reloadG1 || f.s.Record().Info.White != "Nguyen, Van An" {
		t.Fatalf("corrected players: %+v %v %+v", st, err, f.s.Record().Info)
	}
	st, err = f.s.Reconfigure(round2(t), f.now)
	if err != nil || !st.Changed || f.s.Record().Info.Game != reloadG2 {
		t.Fatalf("new round: %+v %v %+v", st, err, f.s.Record().Info)
	}
	f.play(script(t, "c2c4", "e7e5"))
	if rec := f.s.Record(); rec.Info.Game != reloadG2 || strings.Join(rec.UCIs(), " ") != "c2c4 e7e5" {
		t.Errorf("record %s %v", rec.Info.Game, rec.UCIs())
	}
	v := round2(t)
	v.Info.Variant = "chess960"
	if _, err := f.s.Reconfigure(v, f.now); err == nil || !strings.Contains(err.Error(), "needs a restart") {
		t.Errorf("a variant change: %v", err)
	}
}

// TestReloadAfterSetUp: the players set the pieces up before the
// organiser reloaded: the reload begins the next game at once, and the
// first move is recorded in it.
func TestReloadAfterSetUp(t *testing.T) {
	f := newOffline(t, round1(t))
	moves := []string{"d2d4", "g8f6", "c2c4", "e7e6"}
	f.play(script(t, moves...))
	gesture, after := resultAfter(t, moves...)
	f.play(gesture)
	f.play(setUpScript(after))
	if rec := f.s.Record(); rec.Info.Game != reloadG1 || rec.Result != "1-0" {
		t.Fatalf("before the reload: %s %q", rec.Info.Game, rec.Result)
	}
	st, err := f.s.Reconfigure(round2(t), f.now)
	if err != nil || !st.Changed || len(st.Finished) != 1 || f.s.Record().Info.Game != reloadG2 {
		t.Fatalf("reload after the set-up: %+v %v, game %s", st, err, f.s.Record().Info.Game)
	}
	f.play(script(t, "e2e4"))
	if rec := f.s.Record(); strings.Join(rec.UCIs(), " ") != "e2e4" || rec.Info.White != "Le" {
		t.Errorf("the new game: %v %+v", rec.UCIs(), rec.Info)
	}
}

// TestEndedGameCommands: once the board has moved on, the finished game
// keeps its adjudicator: the arbiter can confirm or change its result
// (the ended session's record changes, not the current one); commands
// that would touch the board or resume the game are refused.
func TestEndedGameCommands(t *testing.T) {
	o := round1(t)
	o.NextGame = session.NextRound
	f := newOffline(t, o)
	moves := []string{"e2e4", "e7e5", "d1h5", "b8c6"}
	f.play(script(t, moves...))
	gesture, after := resultAfter(t, moves...)
	f.play(gesture)
	f.play(setUpScript(after))
	f.play(script(t, "d2d4"))
	e := f.s.Ended()
	if e == nil || e.Record().Info.Game != reloadG1 || f.s.Record().Info.Game != reloadG2 {
		t.Fatalf("ended %v, current %s", e, f.s.Record().Info.Game)
	}
	st, err := e.Command(adjudicator.Command{Cmd: "set_result", Result: "1/2-1/2"}, f.now)
	if err != nil || !st.Changed || e.Record().Result != "1/2-1/2" || f.s.Record().Result != "*" {
		t.Errorf("set_result on the ended game: %v, ended %q, current %q", err, e.Record().Result, f.s.Record().Result)
	}
	var res game.Result
	for _, out := range st.Out {
		if r, ok := out.(game.Result); ok {
			res = r
		}
	}
	if res.Game != reloadG1 || res.Result != "1/2-1/2" || res.Provisional {
		t.Errorf("result payload %+v", res)
	}
}

// TestRoute: a command or a talking-clock request for a board's current
// game goes to it; one for the game it played before goes to it as an
// ended game (the demo's talking clock answered for the board's current
// game under the first round's id, and refused the current id).
func TestRoute(t *testing.T) {
	open := func(ctx context.Context) (io.ReadWriteCloser, error) { return nil, errors.New("no port") }
	b1, b2 := boardFor(t, "b1", reloadG1, open), boardFor(t, "b2", game.ID{Event: "open", Round: 1, Board: 5}, open)
	h, err := New(Options{Boards: []Board{b1, b2}, Sink: nopSink{}, DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if br, ended, ok := h.route(reloadG1); !ok || ended || br.b.ID != "b1" {
		t.Errorf("before the first game: %v %v", ended, ok)
	}
	br := h.boards[0]
	br.snap = &gamerecord.Record{Info: gamerecord.Info{Game: reloadG2}}
	br.noteFinished([]*gamerecord.Record{{Info: gamerecord.Info{Game: reloadG1}}})
	if br, ended, ok := h.route(reloadG2); !ok || ended || br.b.ID != "b1" {
		t.Errorf("current game: %v %v", ended, ok)
	}
	if br, ended, ok := h.route(reloadG1); !ok || !ended || br.b.ID != "b1" {
		t.Errorf("the game before: %v %v", ended, ok)
	}
	if _, _, ok := h.route(game.ID{Event: "open", Round: 3, Board: 4}); ok {
		t.Error("a game no board played is routed")
	}
}

// nopSink drops everything.
type nopSink struct{}

func (nopSink) PublishMove(game.MoveEvent) error          { return nil }
func (nopSink) PublishCorrection(game.Correction) error   { return nil }
func (nopSink) PublishClock(game.ClockEvent) error        { return nil }
func (nopSink) PublishResult(game.Result) error           { return nil }
func (nopSink) PublishState(game.GameState) error         { return nil }
func (nopSink) PublishAlert(game.Alert) error             { return nil }
func (nopSink) PublishBoardStatus(game.BoardStatus) error { return nil }
