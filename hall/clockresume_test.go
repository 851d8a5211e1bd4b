package hall

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// clockAlerts are the observed clock_defect and clock_setting alerts.
func (s *simHall) clockAlerts() []game.Alert {
	return append(s.alerts(game.KindClockDefect), s.alerts(game.KindClockSetting)...)
}

// TestClockModelResumes: a game on a board with a DGT 3000
// (90 min + 30 s) is interrupted by a daemon restart (15 s away) and goes
// on; the clock keeps running meanwhile. In one case the clock was put
// under host control before the restart (a time penalty applied with
// penalties: auto, so the clock adds no increments any more); in another
// the readings taken while the daemon was away wait in the port and
// arrive in one burst. Before: a false crit clock_defect in the first case
// (the increment the clock no longer adds was expected again) and 7 in the
// second (each buffered reading judged against the one before it). Now the
// clock model resumes from where the clock stands: no false clock_defect
// or clock_setting.
func TestClockModelResumes(t *testing.T) {
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6"}
	for _, c := range []struct {
		name     string
		penalty  bool
		buffered bool // the port keeps what the clock sent while the daemon was away
	}{{"plain", false, false}, {"after a penalty on the clock", true, false}, {"readings buffered while away", false, true}} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				g := game.ID{Event: "open2026", Round: 10, Board: 1}
				e := emu.New(emu.Setup{Serial: "01001"}, time.Now())
				board := func() Board {
					b := boardFor(t, "r10-b1", g, servePipe(t, e).Open)
					b.Session.TimeControl = clock.MustParse("5400+30")
					b.Session.Penalties = adjudicator.PenaltiesAuto
					return b
				}
				sh := startSim(t, dir, Options{Boards: []Board{board()}})
				waitConnected(t, sh.h)
				s := scriptThink(t, 2*time.Second, line[:4]...)
				played := 4
				if c.penalty {
					// 3. Ra1-a3 through its own pawn: illegal; Black gets 2
					// minutes on the clock (host control from then on); the
					// rook goes back.
					pos := rules.Position(chess.StartPosition(chess.Standard))
					for _, u := range line[:4] {
						pos, _ = pos.Play(mustMove(t, pos, u))
					}
					ill, err := emu.MoveScript(pos, rules.Move{From: sq(t, "a1"), To: sq(t, "a3"), Promo: rules.NoKind, Drop: rules.NoKind},
						emu.Handling{Press: true, Side: emu.Left, Speed: 2})
					if err != nil {
						t.Fatal(err)
					}
					wr := pos.At(sq(t, "a1"))
					back := emu.Script{{At: 500 * time.Millisecond, Kind: emu.Lift, Square: sq(t, "a3")},
						{At: 900 * time.Millisecond, Kind: emu.Place, Square: sq(t, "a1"), Piece: wr}}
					s = s.Then(2*time.Second, ill).Then(3*time.Second, back)
				}
				e.Schedule(time.Now(), s)
				handsDone(t, e, time.Minute)
				waitFor(t, time.Minute, "the moves before the restart", func() bool { r, _ := sh.h.Record(g); return len(r.Moves) == played })
				if c.penalty {
					waitFor(t, time.Minute, "the penalty on the clock", func() bool { return e.Clock(time.Now()).HostControl })
				}
				time.Sleep(5 * time.Second)
				if a := sh.clockAlerts(); len(a) != 0 {
					t.Fatalf("clock alerts before the restart: %+v", a)
				}
				sh.stop()
				if c.buffered {
					time.Sleep(15 * time.Second) // away; the readings wait in the port
				} else {
					unheard(e, 15*time.Second) // away; the clock runs, nobody hears it
				}

				sh2 := startSim(t, dir, Options{Boards: []Board{board()}})
				waitConnected(t, sh2.h)

				e.Schedule(time.Now(), scriptFrom(t, line[:played], 2*time.Second, line[played:]...))
				handsDone(t, e, time.Minute)
				waitFor(t, time.Minute, "the moves after the restart", func() bool { r, _ := sh2.h.Record(g); return len(r.Moves) == len(line) })
				time.Sleep(5 * time.Second)
				for _, a := range sh2.clockAlerts() {
					t.Errorf("after the restart: %s %s: %s", a.Kind, a.Severity, a.Message)
				}
				r, _ := sh2.h.Record(g)
				if strings.Join(r.UCIs(), " ") != strings.Join(line, " ") {
					t.Errorf("record %v", r.UCIs())
				}
			})
		})
	}
}

// unheard lets the emulated board run for d with nobody reading its port
// (the daemon is away, the port closed): what it sends is lost.
func unheard(e *emu.Emulator, d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		e.Advance(time.Now())
		e.Output()
	}
}
