package board

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// relayScript drives a Relay by hand: both boards, the clock, time.
type relayScript struct {
	t    testing.TB
	r    *Relay
	now  time.Time
	evs  []game.Event
	clk  game.ClockReading
	step time.Duration
	held [2][]rules.Piece // pieces in the hand, per board
}

// newRelayScript starts a relay with the blind player on colour blind and
// a clock running for White.
func newRelayScript(t testing.TB, blind rules.Color) *relayScript {
	t.Helper()
	r, err := NewRelay(RelayOptions{Start: chess.StartPosition(chess.Standard), Blind: blind})
	if err != nil {
		t.Fatal(err)
	}
	s := &relayScript{t: t, r: r, now: t0, step: 150 * time.Millisecond}
	s.clk = game.ClockReading{White: 5 * time.Minute, Black: 5 * time.Minute, Running: rules.White}
	s.add(r.Clock(s.now, s.clk))
	return s
}

func (s *relayScript) add(evs []game.Event) { s.evs = append(s.evs, evs...) }

func board(c byte) game.Which {
	if c == 'B' {
		return game.BlindBoard
	}
	return game.SightedBoard
}

// do runs actions: "S-e2" lifts the piece on e2 of the sighted board,
// "B+e4" puts the piece last lifted on the blind board on e4, "press"
// presses the clock, "wait" lets a second pass, "wait:10s" that long.
func (s *relayScript) do(actions ...string) {
	s.t.Helper()
	geo := rules.Geometry{Files: 8, Ranks: 8}
	for _, a := range actions {
		switch {
		case a == "press":
			s.now = s.now.Add(s.step)
			s.clk.Running = s.clk.Running.Other()
			s.add(s.r.Clock(s.now, s.clk))
		case a == "wait":
			s.now = s.now.Add(time.Second)
			s.add(s.r.Tick(s.now))
		case strings.HasPrefix(a, "wait:"):
			d, err := time.ParseDuration(a[5:])
			if err != nil {
				s.t.Fatal(err)
			}
			// Tick in small steps, as the hall does.
			for end := s.now.Add(d); s.now.Before(end); {
				s.now = s.now.Add(100 * time.Millisecond)
				if s.now.After(end) {
					s.now = end
				}
				s.add(s.r.Tick(s.now))
			}
		default:
			b := board(a[0])
			sq, err := geo.ParseSquare(a[2:])
			if err != nil {
				s.t.Fatal(err)
			}
			s.now = s.now.Add(s.step)
			switch a[1] {
			case '-':
				s.held[b] = append(s.held[b], s.r.Tracker(b).Sensed().Sq[sq])
				s.add(s.r.Squares(b, s.now, []game.SquareChange{{Square: sq}}))
			case '+':
				h := s.held[b]
				pc := h[len(h)-1]
				s.held[b] = h[:len(h)-1]
				s.add(s.r.Squares(b, s.now, []game.SquareChange{{Square: sq, Piece: pc}}))
			default:
				s.t.Fatalf("bad action %q", a)
			}
		}
	}
}

// move plays a legal move on board b the plain way (captured piece first,
// then the piece, then a castling rook) from the position that board's
// tracker shows.
func (s *relayScript) move(b game.Which, uci string) {
	s.t.Helper()
	tr := s.r.Tracker(b)
	pos := tr.Position()
	m, err := pos.ParseMove(uci)
	if err != nil {
		s.t.Fatal(err)
	}
	p := pos.Placement()
	q := applyPlacement(&p, pos.Turn(), m)
	var lifts, puts []rules.Square
	for _, d := range p.Diff(&q, nil) {
		if !p.Sq[d].IsEmpty() {
			lifts = append(lifts, d)
		}
		if !q.Sq[d].IsEmpty() {
			puts = append(puts, d)
		}
	}
	for _, l := range lifts {
		s.now = s.now.Add(s.step)
		s.add(s.r.Squares(b, s.now, []game.SquareChange{{Square: l}}))
	}
	for _, u := range puts {
		s.now = s.now.Add(s.step)
		s.add(s.r.Squares(b, s.now, []game.SquareChange{{Square: u, Piece: q.Sq[u]}}))
	}
}

// relay plays one move on its player's board, presses the clock, and
// executes it on the other board after a human delay.
func (s *relayScript) relay(uci string) {
	s.t.Helper()
	side := s.r.Position().Turn()
	own := s.r.Owner(side)
	s.move(own, uci)
	s.do("wait:700ms", "press", "wait:2s")
	s.move(own.Other(), uci)
	s.do("wait:1s")
}

func (s *relayScript) dump() string {
	var b strings.Builder
	for _, e := range s.evs {
		fmt.Fprintf(&b, "  %s %T %+v\n", e.When().Sub(t0), e, e)
	}
	return b.String()
}

func relayOf[T game.Event](evs []game.Event) []T {
	var out []T
	for _, e := range evs {
		if x, ok := e.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func (s *relayScript) record() []string {
	var out []string
	for _, e := range relayOf[game.MoveCompleted](s.evs) {
		if e.Ply != len(out)+1 {
			s.t.Fatalf("game.MoveCompleted ply %d after %d plies\n%s", e.Ply, len(out), s.dump())
		}
		out = append(out, e.UCI)
	}
	return out
}

func squareNames(sqs []rules.Square) string {
	g := rules.Geometry{Files: 8, Ranks: 8}
	var n []string
	for _, q := range sqs {
		n = append(n, g.Name(q))
	}
	return strings.Join(n, ",")
}

func TestRelayRecordsEachMoveOnce(t *testing.T) {
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6"}
	for _, blind := range []rules.Color{rules.White, rules.Black} {
		t.Run("blind "+blind.String(), func(t *testing.T) {
			s := newRelayScript(t, blind)
			for _, m := range line {
				s.relay(m)
			}
			if got := s.record(); !slices.Equal(got, line) {
				t.Fatalf("record %v, want %v\n%s", got, line, s.dump())
			}
			for _, e := range s.evs {
				switch e := e.(type) {
				case game.TouchEvidence, game.BoardMismatch, game.ClockWithoutMove, game.IllegalMove, game.Unexplained:
					t.Errorf("unexpected %T %+v", e, e)
				}
			}
			for b := range 2 {
				if got := s.r.Tracker(game.Which(b)).Ply(); got != len(line) {
					t.Errorf("%s board at ply %d", game.Which(b), got)
				}
			}
			// Each turn starts once, on its player's own board.
			if n := len(relayOf[game.TurnStarted](s.evs)); n != len(line) {
				t.Errorf("%d game.TurnStarted, want one per move (%d)\n%s", n, len(line), s.dump())
			}
		})
	}
}

// Lifts made while executing the opponent's move are not touches (Appendix D);
// the same handling by the player having the move is.
func TestRelayMirroringLiftsAreNoTouches(t *testing.T) {
	s := newRelayScript(t, rules.Black)
	// White (sighted) plays e4; the blind player's assistant first picks
	// up the g1 knight, puts it back, then executes e2-e4.
	s.move(game.SightedBoard, "e2e4")
	s.do("wait:700ms", "press", "wait:1s")
	s.do("B-g1", "wait:1s", "B+g1", "wait:1s")
	s.move(game.BlindBoard, "e2e4")
	s.do("wait:1s")
	// Black (blind) plays d5; on the sighted board White first lifts his
	// own e4 pawn, puts it back, and executes d7-d5.
	s.move(game.BlindBoard, "d7d5")
	s.do("wait:1s", "press", "wait:1s")
	s.do("S-e4", "wait:1s", "S+e4", "wait:1s")
	s.move(game.SightedBoard, "d7d5")
	s.do("wait:1s")
	if ev := relayOf[game.TouchEvidence](s.evs); len(ev) != 0 {
		t.Fatalf("touch evidence from mirroring: %+v\n%s", ev, s.dump())
	}
	if got := s.record(); !slices.Equal(got, []string{"e2e4", "d7d5"}) {
		t.Fatalf("record %v\n%s", got, s.dump())
	}
	// The same lift-and-return by White on his own board in his own turn
	// is touch-move evidence: the filter is by whose move it is.
	s.do("S-g1", "wait:1s", "S+g1", "wait:1s")
	s.move(game.SightedBoard, "d2d4")
	s.do("wait:1s", "press")
	ev := relayOf[game.TouchEvidence](s.evs)
	if len(ev) != 1 || ev[0].Side != rules.White || ev[0].Rule != "TM-1" {
		t.Fatalf("evidence %+v, want one TM-1 for White\n%s", ev, s.dump())
	}
	if ev[0].Certainty == game.Definite {
		t.Errorf("a touch on the sighted board is graded %s, want below definite", ev[0].Certainty)
	}
}

// A piece taken out of its aperture on the blind player's board is touched
// (D.2.2): the evidence is definite.
func TestRelayBlindBoardTouchIsDefinite(t *testing.T) {
	for _, blind := range []rules.Color{rules.White, rules.Black} {
		t.Run("blind "+blind.String(), func(t *testing.T) {
			s := newRelayScript(t, blind)
			knight, pawn := "B-g1", "e2e4"
			if blind == rules.Black {
				s.relay("e2e4")
				knight, pawn = "B-g8", "e7e5"
			}
			s.do(knight, "wait:1s", "B+"+knight[2:], "wait:1s")
			s.move(game.BlindBoard, pawn)
			s.do("wait:1s")
			ev := relayOf[game.TouchEvidence](s.evs)
			if len(ev) != 1 {
				t.Fatalf("evidence %+v, want one\n%s", ev, s.dump())
			}
			e := ev[0]
			if e.Side != blind || e.Rule != "TM-1" || e.Certainty != game.Definite || squareNames(e.Touched) != knight[2:] {
				t.Fatalf("evidence %+v, want definite TM-1 for %s on %s", e, blind, knight[2:])
			}
			if !strings.Contains(e.Message, "D.2.2") {
				t.Errorf("message %q does not cite D.2.2", e.Message)
			}
		})
	}
}

// A move executed wrongly on the other board gives one alert naming the
// squares, and nothing more until the board agrees again.
func TestRelayMismatchOnce(t *testing.T) {
	s := newRelayScript(t, rules.Black)
	s.move(game.SightedBoard, "e2e4")
	s.do("wait:700ms", "press", "wait:2s")
	s.move(game.BlindBoard, "e2e3") // executed wrongly
	s.do("wait:4s")
	if n := len(relayOf[game.BoardMismatch](s.evs)); n != 0 {
		t.Fatalf("alert before the grace period\n%s", s.dump())
	}
	s.do("wait:30s")
	ms := relayOf[game.BoardMismatch](s.evs)
	if len(ms) != 1 {
		t.Fatalf("%d mismatch alerts, want 1\n%s", len(ms), s.dump())
	}
	m := ms[0]
	if m.Board != game.BlindBoard || m.Late || m.Ply != 1 || squareNames(m.Squares) != "e3,e4" {
		t.Fatalf("alert %+v, want blind board ply 1 squares e3,e4", m)
	}
	if !slices.Equal(m.Record, []string{"e2e4"}) || !slices.Equal(m.OnBoard, []string{"e2e3"}) {
		t.Errorf("move lists %v / %v", m.Record, m.OnBoard)
	}
	// Fixed by hand: the pawn goes back to e2, then to e4.
	s.do("B-e3", "B+e2", "wait:2s")
	s.move(game.BlindBoard, "e2e4")
	s.do("wait:2s")
	if n := len(relayOf[game.BoardsAgree](s.evs)); n != 1 {
		t.Fatalf("%d game.BoardsAgree after the fix, want 1\n%s", n, s.dump())
	}
	s.relay("e7e5")
	if got := s.record(); !slices.Equal(got, []string{"e2e4", "e7e5"}) {
		t.Fatalf("record %v\n%s", got, s.dump())
	}
	if n := len(relayOf[game.BoardMismatch](s.evs)); n != 1 {
		t.Fatalf("%d alerts in all, want 1\n%s", n, s.dump())
	}
}

// A piece knocked over on the board of the player not having the move is a
// difference between the boards.
func TestRelayKnockedPiece(t *testing.T) {
	s := newRelayScript(t, rules.Black)
	s.relay("e2e4")
	s.do("S-a1", "wait:10s")
	ms := relayOf[game.BoardMismatch](s.evs)
	if len(ms) != 1 || ms[0].Board != game.SightedBoard || squareNames(ms[0].Squares) != "a1" {
		t.Fatalf("alerts %+v, want one naming a1 on the sighted board\n%s", ms, s.dump())
	}
	s.do("S+a1", "wait:1s")
	if n := len(relayOf[game.BoardsAgree](s.evs)); n != 1 {
		t.Fatalf("%d game.BoardsAgree, want 1\n%s", n, s.dump())
	}
}

// A recorded move not executed on the other board within MirrorWithin.
func TestRelayMirrorLate(t *testing.T) {
	s := newRelayScript(t, rules.White)
	s.move(game.BlindBoard, "d2d4")
	s.do("wait:1s", "press", "wait:57s")
	if n := len(relayOf[game.BoardMismatch](s.evs)); n != 0 {
		t.Fatalf("alert before MirrorWithin\n%s", s.dump())
	}
	s.do("wait:5s")
	ms := relayOf[game.BoardMismatch](s.evs)
	if len(ms) != 1 || !ms[0].Late || ms[0].Board != game.SightedBoard || ms[0].Ply != 1 || squareNames(ms[0].Squares) != "d2,d4" {
		t.Fatalf("alerts %+v, want one late on the sighted board naming d2,d4\n%s", ms, s.dump())
	}
	s.move(game.SightedBoard, "d2d4")
	s.do("wait:1s")
	if n := len(relayOf[game.BoardsAgree](s.evs)); n != 1 {
		t.Fatalf("%d game.BoardsAgree, want 1\n%s", n, s.dump())
	}
}

// The blind player starts the sighted player's clock before his move is
// executed on the sighted board (D.2.4): no clock-without-move finding.
// The sighted player forgetting to press is covered by his reply (6.2.1.2).
func TestRelayPressOrder(t *testing.T) {
	s := newRelayScript(t, rules.Black)
	s.relay("e2e4")
	s.move(game.BlindBoard, "c7c5")
	s.do("wait:600ms", "press", "wait:5s")
	s.move(game.SightedBoard, "c7c5")
	s.do("wait:2s")
	// White plays Nf3 and forgets the clock; Black executes it and replies.
	s.move(game.SightedBoard, "g1f3")
	s.do("wait:2s")
	s.move(game.BlindBoard, "g1f3")
	s.do("wait:2s")
	s.move(game.BlindBoard, "d7d6")
	s.do("wait:2s")
	if got := s.record(); !slices.Equal(got, []string{"e2e4", "c7c5", "g1f3", "d7d6"}) {
		t.Fatalf("record %v\n%s", got, s.dump())
	}
	for _, e := range s.evs {
		switch e.(type) {
		case game.ClockWithoutMove, game.BoardMismatch, game.TouchEvidence:
			t.Errorf("unexpected %T %+v\n%s", e, e, s.dump())
		}
	}
}

func TestRelayOptionsErrors(t *testing.T) {
	if _, err := NewRelay(RelayOptions{Blind: rules.Black}); err != ErrNoStart {
		t.Errorf("no start: %v", err)
	}
	_, err := NewRelay(RelayOptions{Start: chess.StartPosition(chess.Standard), Blind: rules.NoColor})
	if err == nil || !strings.Contains(err.Error(), "blind side") {
		t.Errorf("no colour: %v", err)
	}
	s := newRelayScript(t, rules.Black)
	if _, err := s.r.Reinstate(s.now, 3); err == nil {
		t.Error("reinstate beyond the record: no error")
	}
	// The blind board completes on release (D.2.3) whatever was asked.
	r, err := NewRelay(RelayOptions{Start: chess.StartPosition(chess.Standard), Blind: rules.White,
		BlindBoard: TrackerOptions{Completion: ClockPress}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Tracker(game.BlindBoard).opts.Completion != Release || r.Tracker(game.SightedBoard).opts.Completion != ClockPress {
		t.Errorf("completions %s / %s", r.Tracker(game.BlindBoard).opts.Completion, r.Tracker(game.SightedBoard).opts.Completion)
	}
}

// The arbiter retraces the game (D.2.9): the record and both trackers go
// back; the boards, put back by hand, agree without an alert, and the game
// goes on from there.
func TestRelayReinstate(t *testing.T) {
	s := newRelayScript(t, rules.Black)
	for _, m := range []string{"e2e4", "e7e5", "g1f3"} {
		s.relay(m)
	}
	evs, err := s.r.Reinstate(s.now, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.add(evs)
	c := relayOf[game.Correction](evs)
	if len(c) != 1 || c[0].Ply != 1 || c[0].Reason != game.ArbiterEdit || s.r.Completed() != 1 {
		t.Fatalf("reinstate: %+v, record at %d", evs, s.r.Completed())
	}
	// Both boards are put back to the position after 1. e4.
	for _, b := range []game.Which{game.SightedBoard, game.BlindBoard} {
		x := string("SB"[b])
		s.do(x+"-f3", x+"+g1", x+"-e5", x+"+e7")
	}
	s.do("wait:2s")
	s.relay("c7c5")
	if got := s.r.Moves(); len(got) != 2 || s.r.PositionAt(2).Placement() != s.r.Tracker(game.BlindBoard).Sensed() {
		t.Fatalf("record after reinstating: %v\n%s", got, s.dump())
	}
	if n := len(relayOf[game.BoardMismatch](s.evs)); n != 0 {
		t.Fatalf("%d mismatch alerts\n%s", n, s.dump())
	}
	if _, err := s.r.Reinstate(s.now, 5); err == nil {
		t.Error("reinstate beyond the record: no error")
	}
}

// After a game, both boards are set up for the next one, in either order
// and some seconds apart: the record restarts once the sighted board shows
// the set-up, the other board is not reported while it is being set up,
// and the next game is relayed from ply 1.
func TestRelayNextGame(t *testing.T) {
	line := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6", "d2d4", "e5d4"}
	start := chess.StartPosition(chess.Standard)
	for _, first := range []game.Which{game.SightedBoard, game.BlindBoard} {
		t.Run(first.String()+" first", func(t *testing.T) {
			r, err := NewRelay(RelayOptions{Start: start, Blind: rules.Black, Sighted: TrackerOptions{Setup: ChessSetup(chess.Standard)}})
			if err != nil {
				t.Fatal(err)
			}
			s := &relayScript{t: t, r: r, now: t0, step: 150 * time.Millisecond,
				clk: game.ClockReading{White: 5 * time.Minute, Black: 5 * time.Minute, Running: rules.White}}
			s.add(r.Clock(s.now, s.clk))
			for _, m := range line {
				s.relay(m)
			}
			s.do("wait:3s")
			s.add(r.Dump(first, s.now, start.Placement()))
			s.do("wait:10s")
			s.add(r.Dump(first.Other(), s.now, start.Placement()))
			s.do("wait:2s")
			if n := len(relayOf[game.SetupDetected](s.evs)); n != 1 || r.Completed() != 0 {
				t.Fatalf("%d set-ups passed on, record at %d\n%s", n, r.Completed(), s.dump())
			}
			s.clk.Running = rules.Black // the clock is reset and started by Black
			s.add(r.Clock(s.now, s.clk))
			s.do("press")
			s.relay("d2d4")
			s.relay("g8f6")
			if got := r.Moves(); len(got) != 2 || r.PositionAt(2).Placement() != r.Tracker(game.BlindBoard).Sensed() {
				t.Fatalf("next game record %v\n%s", got, s.dump())
			}
			if n := len(relayOf[game.BoardMismatch](s.evs)); n != 0 {
				t.Fatalf("%d mismatch alerts\n%s", n, s.dump())
			}
		})
	}
}
