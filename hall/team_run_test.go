package hall

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// teamScript returns the script of moves (UCI, N@f3) made from pos by
// hands at twice the normal pace, each after think and completed by the
// press, and the position after them. A drop's piece is put in the
// mover's pocket first (the partner handed it over).
func teamScript(t *testing.T, pos *chess.Position, think time.Duration, moves ...string) (emu.Script, *chess.Position) {
	t.Helper()
	var s emu.Script
	for _, u := range moves {
		if len(u) == 4 && u[1] == '@' {
			k, _ := rules.KindFromLetter(u[0])
			pos = pos.WithPocket(pos.Turn(), k, pos.Pocket(pos.Turn(), k)+1)
		}
		mv, err := pos.ParseMove(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		side := emu.Left
		if pos.Turn() == rules.Black {
			side = emu.Right
		}
		ms, err := emu.MoveScript(pos, mv, emu.Handling{Press: true, Side: side, Speed: 2})
		if err != nil {
			t.Fatal(err)
		}
		s = s.Then(think, ms)
		if pos, err = pos.PlayMove(mv); err != nil {
			t.Fatal(err)
		}
	}
	return s, pos
}

// teamStart is the start of a board of a bgo2026-team match.
func teamStart(t *testing.T) *chess.Position {
	oa, _ := teamOptions(t)
	p, err := chess.NewPositionOptions(chess.TeamDrop, teamdrop.Options(oa.RuleSet), chess.TeamDrop.StartFEN())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTeamLinkedBoards: the two boards of a match in a running hall, on
// their own ports (board 1's goroutine serving both links) or on one DGT
// bus line (the line's goroutine): a capture on board 1 reaches White's
// pocket on board 2, who drops the pawn; both games are journalled move by
// move with their pockets and partner. Simulated time (testing/synctest).
func TestTeamLinkedBoards(t *testing.T) {
	for _, bus := range []bool{false, true} {
		name := "own ports"
		if bus {
			name = "one bus line"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				now := time.Now()
				clk := emu.ClockSetting{Base: 5 * time.Minute}
				e1 := emu.New(emu.Setup{Serial: "00101", Seed: 1, Clock: clk}, now)
				e2 := emu.New(emu.Setup{Serial: "00102", Seed: 2, Clock: clk}, now)
				oa, ob := teamOptions(t)
				b1 := Board{ID: "r1-b1", Port: "p1", Link: patientLink, Session: oa}
				b2 := Board{ID: "r1-b2", Port: "p2", Link: patientLink, Session: ob}
				if bus {
					srv := servePipe(t, emu.NewLine(now, e1, e2))
					b1.Open, b2.Open = srv.Open, srv.Open
					b1.Port, b1.BusAddress = "line1", 101
					b2.Port, b2.BusAddress = "line1", 102
				} else {
					b1.Open, b2.Open = servePipe(t, e1).Open, servePipe(t, e2).Open
				}
				sh := startSim(t, t.TempDir(), Options{Boards: []Board{b1, b2}})
				waitConnected(t, sh.h)

				start := teamStart(t)
				// Board 1: Black takes a white pawn (dxe4): White on board 2
				// gets it and drops it on e3 after Black's reply there.
				s1, _ := teamScript(t, start, 900*time.Millisecond, "e2e4", "d7d5", "b1c3", "d5e4")
				first := emu.Script{{Kind: emu.Press, Side: emu.Right}}
				e1.Schedule(time.Now(), first.Then(time.Second, s1))
				e2.Schedule(time.Now(), first)
				g1, g2 := oa.Info.Game, ob.Info.Game
				moves := func(g game.ID) int { r, _ := sh.h.Record(g); return len(r.Moves) }
				waitFor(t, 60*time.Second, "board 1's capture", func() bool { return moves(g1) >= 4 })
				s2, _ := teamScript(t, start, 900*time.Millisecond, "d2d4", "e7e5", "P@e3")
				e2.Schedule(time.Now(), s2)
				waitFor(t, 60*time.Second, "board 2's drop", func() bool { return moves(g2) >= 3 })
				time.Sleep(5 * time.Second) // simulated: a stray move would show
				synctest.Wait()
				evs := sh.journalled(g2)
				if len(evs) != 3 || evs[1].Pockets == nil || evs[1].Pockets.White != "P" || evs[2].SAN != "P@e3" ||
					evs[2].Pockets == nil || evs[2].Pockets.White != "" || evs[2].Partner != g1.String() {
					t.Fatalf("board 2: %+v", evs)
				}
				if got := sh.journalledUCIs(g1); len(got) != 4 || got[3] != "d5e4" {
					t.Errorf("board 1: %v", got)
				}
			})
		})
	}
}

// TestTeamPairingRefused: partners that one goroutine cannot serve (one on
// a bus line, one on its own port), a partner not configured, or partners
// that do not name each other are refused when the hall is made, naming
// the boards.
func TestTeamPairingRefused(t *testing.T) {
	oa, ob := teamOptions(t)
	open := servePipe(t, emu.New(emu.Setup{}, time.Now())).Open
	b1 := Board{ID: "r1-b1", Port: "p1", Open: open, Session: oa}
	b2 := Board{ID: "r1-b2", Port: "line1", BusAddress: 7, Open: open, Session: ob}
	lonely := b1
	lonely.Session.Partner.Board = 9
	for _, c := range []struct {
		name   string
		boards []Board
		want   string
	}{
		{"bus and port", []Board{b1, b2}, "both have their own port or both be on one bus line"},
		{"partner missing", []Board{lonely}, "not configured"},
	} {
		_, err := New(Options{Boards: c.boards, Sink: nopSink{}, DataDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
