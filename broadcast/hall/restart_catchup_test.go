package hall

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestRestartMidGameCatchesUp: the daemon stops after the third move of a
// game that goes on meanwhile (a move every 1.2 s of thought, ordinary
// hands) and starts again a little later, at moments that put the
// board's first read after the restart before, during and after the
// hands' moves: the moves made while it was away are caught up, and every
// move, those after the restart included, is recorded in order and
// completed within a few seconds of its press (the last one too, with
// nothing after it). This is what TestDaemonKillAndNATSRestart
// (cmd/dgtbridge) does with the real binary in real time, where the
// restart's moment depends on the machine's load; here the bubble's clock
// makes each moment exact and repeatable.
func TestRestartMidGameCatchesUp(t *testing.T) {
	game12 := []string{"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5"}
	for away := time.Second; away <= 9*time.Second; away += 200 * time.Millisecond {
		t.Run(fmt.Sprint(away), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				dir := t.TempDir()
				g := game.ID{Event: "open2026", Round: 1, Board: 1}
				e := emu.New(emu.Setup{Serial: "04711"}, time.Now())
				board := func() Board { return boardFor(t, "r1-b1", g, servePipe(t, e).Open) }
				sh := startSim(t, dir, Options{Boards: []Board{board()}})
				waitConnected(t, sh.h)

				pos := rules.Position(chess.StartPosition(chess.Standard))
				var moves []rules.Move
				for _, u := range game12 {
					m := mustMove(t, pos, u)
					moves = append(moves, m)
					pos, _ = pos.Play(m)
				}
				s, err := emu.GameScript(chess.StartPosition(chess.Standard), moves, emu.GameOptions{
					Think: func(int) time.Duration { return 1200 * time.Millisecond }})
				if err != nil {
					t.Fatal(err)
				}
				e.Schedule(time.Now(), s)
				waitFor(t, time.Minute, "three moves", func() bool { r, _ := sh.h.Record(g); return len(r.Moves) >= 3 })
				sh.stop()
				unheard(e, away) // the game goes on; nobody hears the board

				sh2 := startSim(t, dir, Options{Boards: []Board{board()}})
				handsDone(t, e, time.Minute)
				lastPress := time.Now()
				ok := waitUntil(5*time.Second, func() bool { r, _ := sh2.h.Record(g); return len(r.Moves) >= len(game12) })
				r, _ := sh2.h.Record(g)
				if got := strings.Join(r.UCIs(), " "); !ok || got != strings.Join(game12, " ") {
					for _, ob := range sh2.observed() {
						if al, ok := ob.Payload.(game.Alert); ok {
							t.Logf("alert %s %s: %s", al.Kind, al.Severity, al.Message)
						}
					}
					t.Fatalf("5 s after the last press (%s away): moves\n got %s\nwant %s", away, got, strings.Join(game12, " "))
				}
				for i, p := range r.Moves {
					if p.At.After(lastPress.Add(5 * time.Second)) {
						t.Errorf("ply %d %s completed at %s, after the last press", i+1, p.UCI, p.At.Format("15:04:05.000"))
					}
				}
			})
		})
	}
}
