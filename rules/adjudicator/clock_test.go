package adjudicator

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// FIDE 6.9; 2001 6.10, B6: a flag fall proposes a loss, or a
// draw when the opponent cannot mate; in 2001 rapid it is only logged.
func TestFlagFall(t *testing.T) {
	tests := []struct {
		name, rs, fen, sev, art, result string
	}{
		{"2018 standard 6.9 loss", "fide2018-standard", "", game.Crit, "6.9", "0-1"},
		{"2018 rapid A.4.5 arbiter calls", "fide2018-rapid", "", game.Crit, "6.9, A.4.5", "0-1"},
		{"2018 6.9 opponent cannot mate: draw", "fide2018-standard", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", game.Crit, "6.9", Draw},
		{"2001 standard 6.10 loss", "fide2001-standard", "", game.Crit, "2001 6.10", "0-1"},
		{"2001 standard 6.10 cannot mate: draw", "fide2001-standard", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", game.Crit, "2001 6.10", Draw},
		{"2001 rapid B6 log only", "fide2001-rapid", "", game.Info, "2001 B6, 6.10", "0-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, tt.rs, tt.fen, "600", Options{})
			g.spend(601 * time.Second) // White never moves
			out := g.reading()
			kind := game.KindFlagFall
			if tt.result == Draw {
				kind = game.KindInsufficient
			}
			al := one(t, out, kind)
			if al.Severity != tt.sev || al.Article != tt.art || al.Proposal["result"] != tt.result || al.Side != "white" {
				t.Errorf("%s %s %v %s: %s", al.Severity, al.Article, al.Proposal, al.Side, al.Message)
			}
			if len(results(out)) != 0 {
				t.Error("a flag fall is a proposal, not a result")
			}
			if len(al.Evidence) != 1 || al.Evidence[0].Event != "flag" || !al.Evidence[0].At.Equal(t0.Add(600*time.Second)) {
				t.Errorf("evidence %+v", al.Evidence)
			}
		})
	}
}

// bothFlags: White flags, presses, Black flags (the clock keeps running).
func bothFlags(g *match) []game.Verdict {
	g.spend(g.w + time.Second)
	g.w = 0
	g.reading()
	g.press(rules.White)
	g.w = 0
	g.reading()
	g.spend(g.b + time.Second)
	g.b = 0
	return g.reading()
}

// FIDE III.3.1; 2001 6.12, 10.3, B8: both flags.
func TestBothFlags(t *testing.T) {
	tests := []struct {
		name, rs, tc string
		quickplay    bool
		unknownOrder bool
		art          string
		proposal     map[string]any
	}{
		{"2018 standard, no Guideline III: arbiter decides", "fide2018-standard", "600", false, false, "III.3.1", map[string]any{"first": "white"}},
		{"2018 Guideline III announced, order unknown, last period: draw", "fide2018-standard", "600", true, true, "III.3.1", map[string]any{"result": Draw}},
		{"2018 Guideline III announced, first flag decides", "fide2018-standard", "600", true, false, "III.3.1", map[string]any{"result": "0-1"}},
		{"2018 Guideline III with increment does not apply (III.2.2)", "fide2018-rapid", "900+10", true, true, "III.3.1", nil},
		{"2018 blitz: arbiter decides", "fide2018-blitz", "180", false, false, "", map[string]any{"first": "white"}},
		{"2001 standard 10.3: draw in the quickplay finish", "fide2001-standard", "600", false, true, "2001 6.12, 10.3", map[string]any{"result": Draw}},
		{"2001 standard 6.12: continue before the last period", "fide2001-standard", "1/300:300", false, true, "2001 6.12, 10.3", map[string]any{"continue": true}},
		{"2001 rapid B8: draw", "fide2001-rapid", "600", false, false, "2001 B8", map[string]any{"result": Draw}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, tt.rs, "", tt.tc, Options{})
			g.a.rs.QuickplayFinish = g.a.rs.QuickplayFinish || tt.quickplay
			var out []game.Verdict
			if tt.unknownOrder {
				g.spend(10 * time.Second)
				g.run = rules.NoColor
				g.reading()
				g.w, g.b = 0, 0
				g.at = g.at.Add(time.Second)
				out = g.reading()
			} else {
				out = bothFlags(g)
			}
			al := one(t, out, game.KindBothFlags)
			if al.Severity != game.Crit || al.Article != tt.art {
				t.Errorf("%s %s", al.Severity, al.Article)
			}
			if len(al.Proposal) != len(tt.proposal) {
				t.Fatalf("proposal %v, want %v: %s", al.Proposal, tt.proposal, al.Message)
			}
			for k, v := range tt.proposal {
				if al.Proposal[k] != v {
					t.Errorf("proposal %v, want %v: %s", al.Proposal, tt.proposal, al.Message)
				}
			}
		})
	}
}

// FIDE 8.4: INFO once when a player has less than 5 minutes
// and the increment is under 30 s.
func TestScoresheetExemption(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "400+10", Options{})
	g.spend(101 * time.Second)
	al := one(t, g.reading(), game.KindScoresheet)
	if al.Side != "white" || al.Severity != game.Info || al.Article != "8.4" {
		t.Errorf("%s %s %s", al.Side, al.Severity, al.Article)
	}
	g.spend(time.Second)
	if len(alerts(g.reading(), game.KindScoresheet)) != 0 {
		t.Error("repeated")
	}
	g = newGame(t, "fide2018-standard", "", "400+30", Options{})
	g.spend(101 * time.Second)
	if len(alerts(g.reading(), game.KindScoresheet)) != 0 {
		t.Error("30 s increment: no exemption")
	}
}

// FIDE 6.10.2, 8.6: the clock adds the next period's time at
// a different move than the control says.
func TestPeriodCounterMismatch(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "2/600:300", Options{})
	g.moves("e4 e5")
	g.think = 10 * time.Second
	// White's 2nd move: the clock does not add the second period.
	out := g.moves("Nf3")
	al := one(t, out, game.KindClockSetting)
	if al.Severity != game.Warn || al.Article != "6.10.2" || !strings.Contains(al.Message, "did not add") {
		t.Errorf("%s %s %s", al.Severity, al.Article, al.Message)
	}
}

// FIDE 6.10.1 and 6.10.2, 7.1: a clock jump, a clock
// disconnection, and a wrong setting at the start.
func TestClockDefects(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "5400+30", Options{})
	g.moves("e4")
	g.spend(5 * time.Second)
	g.b -= 20 * time.Minute
	al := one(t, g.reading(), game.KindClockDefect)
	if al.Severity != game.Crit || al.Article != "6.10.1" || al.Proposal["black_ms"] != int64(5395000) {
		t.Errorf("%s %s %v", al.Severity, al.Article, al.Proposal)
	}
	out := g.handle(game.DeviceLost{Stamp: game.Stamp{At: g.at}, Device: game.DeviceClock, Detail: "/dev/ttyACM0: EOF"})
	al = one(t, out, game.KindClockDisconnected)
	if al.Severity != game.Crit || al.Proposal["white_ms"] == nil || !strings.Contains(al.Message, "EOF") {
		t.Errorf("%s %v %s", al.Severity, al.Proposal, al.Message)
	}
	al = one(t, g.handle(game.DeviceBack{Stamp: game.Stamp{At: g.at}, Device: game.DeviceBoard}), game.KindBoardDisconnected)
	if al.Severity != game.Info {
		t.Errorf("back: %s", al.Severity)
	}

	for _, tt := range []struct{ rs, sev string }{{"fide2018-standard", game.Crit}, {"fide2001-standard", game.Crit}} {
		rs := newGame(t, tt.rs, "", "", Options{}).a.rs
		a := New(GameInfo{ID: game.ID{Event: "g", Round: 1, Board: 1}}, rs, Options{TimeControl: mustTC("5400+30")})
		out := a.Handle(game.ClockChanged{Stamp: game.Stamp{At: t0}, Clock: game.ClockReading{White: 3600 * time.Second, Black: 5400 * time.Second, Running: rules.NoColor}})
		al := one(t, out, game.KindClockSetting)
		if al.Severity != tt.sev || al.Side != "white" || al.Proposal["white_ms"] != int64(5400000) {
			t.Errorf("%s: %s %s %v", tt.rs, al.Severity, al.Side, al.Proposal)
		}
	}
}

// A move completed while the clock is stopped (7.5.3 territory, 6.2).
func TestMoveWithClockStopped(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "5400+30", Options{})
	g.moves("e4")
	g.run = rules.NoColor
	g.reading()
	// Black moves without the clock running: the tracker completes it
	// (e.g. by his next move); the clock model notices.
	m, _ := g.pos.ParseMove("e5")
	next, _ := g.pos.Play(m)
	out := g.handle(game.MoveCompleted{Stamp: game.Stamp{At: g.at}, Ply: 2, Side: rules.Black, Move: m, SAN: "e5", UCI: "e7e5", Position: next, MadeAt: g.at})
	one(t, out, game.KindClockMisuse)
}
