package board

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// incident is one scripted handling incident and the events it must
// produce (ClockChanged and TurnStarted left out), nothing else.
type incident struct {
	name    string
	fen     string // "" for the start position
	variant chess.Variant
	opts    TrackerOptions
	setup   []string // UCI moves played the plain way first, with presses
	acts    []string // then these hand actions (see script.do)
	want    []string // event types after the setup
	check   func(t *testing.T, s *script)
}

func runIncidents(t *testing.T, cases []incident) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := c.opts
			o.Start = mustPos(t, c.variant, c.fen)
			s := newScript(t, o)
			for _, m := range c.setup {
				s.move(m, o.Completion == ClockPress)
			}
			s.do("wait", "wait:2s")
			s.reset()
			s.do(c.acts...)
			s.do("wait", "wait:3s")
			s.want(c.want...)
			if c.check != nil {
				c.check(t, s)
			}
		})
	}
}

func wantTouch(rule string, c game.Certainty) func(*testing.T, *script) {
	return func(t *testing.T, s *script) {
		t.Helper()
		e := find[game.TouchEvidence](s)
		if e.Rule != rule || e.Certainty != c || len(e.Evidence) == 0 || e.Article == "" {
			t.Fatalf("evidence %s/%s %q, want %s/%s", e.Rule, e.Certainty, e.Message, rule, c)
		}
	}
}

func wantIllegal(r rules.Reason, completed bool, text string) func(*testing.T, *script) {
	return func(t *testing.T, s *script) {
		t.Helper()
		e := find[game.IllegalMove](s)
		if e.Reason != r || e.Completed != completed || (text != "" && e.Text != text) {
			t.Fatalf("illegal move %q %v completed %v, want %q %v completed %v", e.Text, e.Reason, e.Completed, text, r, completed)
		}
	}
}

// TestTouchMoveRules: each touch-move rule of FIDE Art 4 gives
// exactly its evidence; the move made still stands.
func TestTouchMoveRules(t *testing.T) {
	made := []string{"game.TouchEvidence", "game.MoveMade", "game.MoveCompleted"}
	runIncidents(t, []incident{
		{name: "TM-1 first own piece could move, put back at once",
			acts: []string{"-g1", "wait:1s", "+g1", "-e2", "+e4", "press"},
			want: made, check: wantTouch("TM-1", game.Possible)},
		{name: "TM-1 first own piece held, then another moved",
			opts: TrackerOptions{AdjustWindow: time.Second},
			acts: []string{"-g1", "wait:1500ms", "+g1", "-e2", "+e4", "press"},
			want: made, check: wantTouch("TM-1", game.Likely)},
		{name: "TM-2 opponent piece that could be captured",
			setup: []string{"e2e4", "d7d5"},
			opts:  TrackerOptions{AdjustWindow: time.Second},
			acts:  []string{"-d5", "wait:1500ms", "+d5", "-g1", "+f3", "press"},
			want:  made, check: wantTouch("TM-2", game.Likely)},
		{name: "TM-2 only the opponent's piece touched",
			setup: []string{"e2e4", "d7d5"},
			acts:  []string{"-d5", "wait:1s", "+d5", "wait:3s"},
			want:  nil},
		{name: "TM-3 own piece and capturable opponent piece, other move",
			setup: []string{"e2e4", "e7e5", "g1f3", "b8c6"},
			opts:  TrackerOptions{AdjustWindow: time.Second},
			acts:  []string{"-f3", "wait:400ms", "-e5", "wait:1s", "+e5=p", "+f3=N", "-d2", "+d4=P", "press"},
			want:  made, check: wantTouch("TM-3", game.Likely)},
		{name: "TM-4 king and rook touched, castling legal, other move",
			fen:  "4k3/8/8/8/8/8/3P4/4K2R w K - 0 1",
			acts: []string{"-e1", "wait:400ms", "-h1", "wait:1s", "+h1=R", "+e1=K", "-d2", "+d3=P", "press"},
			want: made, check: wantTouch("TM-4", game.Likely)},
		{name: "TM-5 rook before king, then castled",
			fen:  "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
			acts: []string{"-h1", "+f1=R", "-e1", "+g1=K", "press"},
			want: made, check: wantTouch("TM-5", game.Likely)},
		{name: "TM-6 king then rook, castling illegal, rook moved",
			fen:  "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1",
			acts: []string{"-e1", "wait:400ms", "-h1", "wait:1s", "+e1=K", "+h2=R", "press"},
			want: made, check: wantTouch("TM-6", game.Likely)},
		{name: "TM-6 king put on its castling square, then another move",
			fen:  "4k3/8/8/8/8/8/3P4/4K2R w K - 0 1",
			acts: []string{"-e1", "+g1=K", "wait:400ms", "-g1", "+e1=K", "-d2", "+d3=P", "press"},
			want: made, check: wantTouch("TM-6", game.Likely)},
		{name: "TM-7 promotion piece swapped",
			fen:  "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			acts: []string{"-e7", "+e8=R", "-e8", "+e8=Q", "press"},
			want: made, check: func(t *testing.T, s *script) {
				wantTouch("TM-7", game.Likely)(t, s)
				if mc := find[game.MoveCompleted](s); mc.SAN != "e8=Q" {
					t.Fatalf("made %s", mc.SAN)
				}
			}},
		{name: "TM-8 piece rested on a legal square, then moved on",
			setup: []string{"d2d4", "d7d5"},
			acts:  []string{"-c1", "+e3=B", "wait:2s", "-e3", "+f4=B", "press"},
			want:  []string{"game.MoveMade", "game.MoveRetracted", "game.MoveMade", "game.MoveCompleted", "game.TouchEvidence"},
			check: wantTouch("TM-8", game.Possible)},
		{name: "TM-9 opponent's piece lifted while White has the move",
			acts: []string{"-b8", "wait:1s", "+b8", "-e2", "+e4", "press"},
			want: made, check: wantTouch("TM-9", game.Possible)},
		{name: "TM-11 king and rook off the board and put down together",
			fen:  "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
			acts: []string{"-e1", "-h1", "wait:500ms", "+g1=K", "+f1=R", "press"},
			want: made, check: wantTouch("TM-11", game.Possible)},
		{name: "clean capture, victim first, no evidence",
			setup: []string{"e2e4", "d7d5"},
			acts:  []string{"-d5", "-e4", "+d5=P", "press"},
			want:  []string{"game.MoveMade", "game.MoveCompleted"}},
		{name: "flicker is no touch",
			acts: []string{"-g1", "wait:100ms", "+g1", "-e2", "+e4", "press"},
			want: []string{"game.MoveMade", "game.MoveCompleted"}},
	})
}

// TestTurnStarted: TM-10/TM-12 — the first lift by the side having the
// move is reported once per turn (claims lapse, draw-claim windows close).
func TestTurnStarted(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	s.move("e2e4", true)
	s.do("wait")
	s.reset()
	s.do("-g1", "wait:100ms", "+g1") // White lifting during Black's turn: not Black's turn start
	s.do("-e7", "+e5=p", "-e5", "+e6=p", "press", "wait")
	var starts []game.TurnStarted
	for _, e := range s.evs {
		if ts, ok := e.(game.TurnStarted); ok {
			starts = append(starts, ts)
		}
	}
	if len(starts) != 1 || starts[0].Side != rules.Black || s.geo.Name(starts[0].Square) != "e7" || starts[0].Ply != 2 {
		t.Fatalf("turn starts %+v", starts)
	}
}
