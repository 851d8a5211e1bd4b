package session

import (
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// hand drives a session with lifts, placements and clock presses as a
// board and its clock report them (clock displays: White left).
type hand struct {
	t   *testing.T
	s   *Session
	at  time.Time
	run rules.Color
	out []game.Payload
}

func newHand(t *testing.T, s *Session) *hand {
	h := &hand{t: t, s: s, at: t0, run: rules.White}
	h.clock()
	return h
}

func (h *hand) feed(r game.Sensed) {
	h.out = append(h.out, h.s.Sense(h.at, r).Out...)
}

func (h *hand) clock() {
	f := game.ClockFace{Left: 5 * time.Minute, Right: 5 * time.Minute, LeftIs: rules.White, Running: game.LeftDisplay}
	if h.run == rules.Black {
		f.Running = game.RightDisplay
	}
	h.feed(f)
}

// do runs "-e2" (lift), "+e4=P" (put a piece), "press", "wait" (a second).
func (h *hand) do(acts ...string) {
	for _, a := range acts {
		h.at = h.at.Add(150 * time.Millisecond)
		switch {
		case a == "press":
			h.run = h.run.Other()
			h.clock()
		case a == "wait":
			h.at = h.at.Add(time.Second)
			h.out = append(h.out, h.s.Tick(h.at).Out...)
		case a[0] == '-' || a[0] == '+':
			sq, err := rules.Chess8x8.ParseSquare(a[1:3])
			if err != nil {
				h.t.Fatal(err)
			}
			var pc rules.Piece
			if a[0] == '+' {
				k, _ := rules.KindFromLetter(a[4])
				pc = rules.Piece{Color: rules.White, Kind: k}
				if a[4] >= 'a' {
					pc.Color = rules.Black
				}
			}
			h.feed(game.SquareChange{Square: sq, Piece: pc})
		}
	}
}

func (h *hand) alerts(kind string) []game.Alert {
	var as []game.Alert
	for _, o := range h.out {
		if a, ok := o.(game.Alert); ok && (kind == "" || a.Kind == kind) {
			as = append(as, a)
		}
	}
	return as
}

// TestSessionIllegalMoveStands: under the 2001 rapid rules an
// illegal move stands once the claimant touches a piece without claiming;
// play goes on, and the record follows the board: the illegal king move
// (written as coordinates) and the reply, never a legal line that reaches
// the same placement (Ke2 a6 Ke3).
func TestSessionIllegalMoveStands(t *testing.T) {
	o := sessionOptions(t)
	rs, err := ruleset.Lookup("fide2001-rapid")
	if err != nil {
		t.Fatal(err)
	}
	o.RuleSet, o.Info.Ruleset = rs, rs.Name
	s, err := NewSession(o, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	h := newHand(t, s)
	h.do("-e2", "+e4=P", "press", "wait", "-e7", "+e5=p", "press", "wait")
	h.do("-e1", "+e3=K", "press", "wait")
	h.do("-a7", "+a6=p", "press", "wait", "wait")
	if got := strings.Join(s.Record().UCIs(), " "); got != "e2e4 e7e5 e1e3 a7a6" {
		t.Fatalf("record %s", got)
	}
	if san := s.Record().Moves[2].SAN; san != "Ke1-e3" {
		t.Errorf("the illegal move is written %q", san)
	}
	if n := len(h.alerts(game.KindIllegalMove)); n == 0 {
		t.Errorf("no illegal_move alert")
	}
	if as := h.alerts(game.KindDisplaced); len(as) != 0 {
		t.Errorf("displaced pieces: %+v", as)
	}
	_ = chess.Standard
}

// TestSessionChess960SetupMismatch: a Chess960 game whose
// drawn position is configured; the board is set up from another draw (a
// valid 960 array: the record follows the board, the arbiter is told), then
// with two pieces swapped (no 960 array at all: the same alert, not a
// displaced piece), then right.
func TestSessionChess960SetupMismatch(t *testing.T) {
	rs, err := ruleset.Lookup("bgo2026-960")
	if err != nil {
		t.Fatal(err)
	}
	drawn := chess.Chess960Start(0) // BBQNNRKR
	o := SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "bgo", Round: 1, Board: 2}, Variant: "chess960", Ruleset: rs.Name},
		StartFEN: drawn.FEN(), RuleSet: rs, Tracker: DefaultTrackerOptions()}
	s, err := NewSession(o, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	h := newHand(t, s)
	other := chess.Chess960Start(1).Placement() // BQNBNRKR
	h.at = h.at.Add(time.Second)
	h.feed(game.FullRead{Placement: other})
	if as := h.alerts(game.KindSetupMismatch); len(as) != 1 || !strings.Contains(as[0].Message, "instead of") {
		t.Fatalf("another draw set up: %+v", h.alerts(""))
	}
	h.out = nil
	swapped := drawn.Placement()
	c1, _ := rules.Chess8x8.ParseSquare("c1")
	g1, _ := rules.Chess8x8.ParseSquare("g1")
	swapped.Sq[c1], swapped.Sq[g1] = swapped.Sq[g1], swapped.Sq[c1] // king and queen: no 960 array
	h.at = h.at.Add(time.Second)
	h.feed(game.FullRead{Placement: swapped})
	h.do("wait", "wait", "wait")
	if as := h.alerts(game.KindSetupMismatch); len(as) != 1 || !strings.Contains(as[0].Message, "c1: white king instead of white queen") {
		t.Fatalf("pieces swapped: %+v", h.alerts(""))
	}
	for _, a := range h.alerts(game.KindDisplaced) {
		if a.Severity != game.Info {
			t.Errorf("pieces swapped read as displaced: %s", a.Message)
		}
	}
	h.out = nil
	h.at = h.at.Add(time.Second)
	h.feed(game.FullRead{Placement: drawn.Placement()})
	h.do("wait")
	for _, a := range h.alerts("") {
		if a.Severity != game.Info {
			t.Errorf("set up right: %s %s", a.Kind, a.Message)
		}
	}
	if s.Record().StartFEN != drawn.FEN() {
		t.Errorf("the record starts from %q", s.Record().StartFEN)
	}
}
