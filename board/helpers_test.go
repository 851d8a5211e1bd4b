package board

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// t0 is the start of every scripted session.
var t0 = time.Date(2026, 2, 8, 9, 0, 0, 0, time.UTC)

// script drives a tracker by hand: lifts, placements, clock presses and
// waits, collecting every event.
type script struct {
	t    *testing.T
	tr   *Tracker
	now  time.Time
	evs  []game.Event
	clk  game.ClockReading
	geo  rules.Geometry
	step time.Duration // between hand actions
}

func mustPos(t testing.TB, v chess.Variant, fen string) rules.Position {
	t.Helper()
	if fen == "" {
		return chess.StartPosition(v)
	}
	p, err := chess.NewPosition(v, fen)
	if err != nil {
		t.Fatalf("position %q: %v", fen, err)
	}
	return p
}

func newScript(t *testing.T, opts TrackerOptions) *script {
	t.Helper()
	if opts.Start == nil {
		opts.Start = chess.StartPosition(chess.Standard)
	}
	tr, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, tr: tr, now: t0, geo: opts.Start.Geometry(), step: 150 * time.Millisecond}
	s.clk = game.ClockReading{White: 5 * time.Minute, Black: 5 * time.Minute, Running: opts.Start.Turn()}
	if opts.Completion == ClockPress {
		s.add(tr.Clock(s.now, s.clk))
	}
	return s
}

func (s *script) add(evs []game.Event) { s.evs = append(s.evs, evs...) }

func (s *script) sq(name string) rules.Square {
	s.t.Helper()
	q, err := s.geo.ParseSquare(name)
	if err != nil {
		s.t.Fatal(err)
	}
	return q
}

// do runs actions: "-e2" lifts the piece on e2, "+e4" puts back the piece
// last lifted (or "+e4=Q", "+e4=q" a given piece), "wait" lets a second
// pass, "wait:300ms" that long, "press" presses the clock of the side
// whose clock runs.
func (s *script) do(actions ...string) {
	s.t.Helper()
	for _, a := range actions {
		switch {
		case a == "press":
			s.now = s.now.Add(s.step)
			s.clk.Running = s.clk.Running.Other()
			s.add(s.tr.Clock(s.now, s.clk))
		case a == "wait":
			s.now = s.now.Add(time.Second)
			s.add(s.tr.Tick(s.now))
		case strings.HasPrefix(a, "wait:"):
			d, err := time.ParseDuration(a[5:])
			if err != nil {
				s.t.Fatal(err)
			}
			s.now = s.now.Add(d)
			s.add(s.tr.Tick(s.now))
		case a[0] == '-':
			s.now = s.now.Add(s.step)
			s.add(s.tr.Squares(s.now, []game.SquareChange{{Square: s.sq(a[1:]), Piece: rules.NoPiece}}))
		case a[0] == '+':
			s.now = s.now.Add(s.step)
			name := a[1:]
			var pc rules.Piece
			if i := strings.IndexByte(name, '='); i >= 0 {
				k, ok := rules.KindFromLetter(name[i+1])
				if !ok {
					s.t.Fatalf("bad piece in %q", a)
				}
				c := rules.White
				if name[i+1] >= 'a' {
					c = rules.Black
				}
				pc = rules.Piece{Color: c, Kind: k}
				name = name[:i]
			} else {
				pc = s.lastLifted()
			}
			s.add(s.tr.Squares(s.now, []game.SquareChange{{Square: s.sq(name), Piece: pc}}))
		default:
			s.t.Fatalf("bad action %q", a)
		}
	}
}

// lastLifted returns the piece of the last lift not yet put down.
func (s *script) lastLifted() rules.Piece {
	ts := s.tr.turn.touches
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i].Lift {
			return ts[i].Piece
		}
	}
	for i := len(s.tr.turn.prev) - 1; i >= 0; i-- {
		if s.tr.turn.prev[i].Lift {
			return s.tr.turn.prev[i].Piece
		}
	}
	s.t.Fatal("nothing lifted")
	return rules.NoPiece
}

// move plays a legal move the plain way (lift, put down, capture victim
// first) and presses the clock.
func (s *script) move(uci string, press bool) {
	s.t.Helper()
	if s.tr.board.dirty {
		s.do("wait:400ms")
	}
	pos := s.tr.Position()
	m, err := pos.ParseMove(uci)
	if err != nil {
		s.t.Fatal(err)
	}
	p := pos.Placement()
	q := applyPlacement(&p, pos.Turn(), m)
	var lifts, puts []rules.Square
	for _, d := range p.Diff(&q, nil) {
		if q.Sq[d].IsEmpty() || !p.Sq[d].IsEmpty() {
			lifts = append(lifts, d)
		}
		if !q.Sq[d].IsEmpty() {
			puts = append(puts, d)
		}
	}
	for _, l := range lifts {
		s.now = s.now.Add(s.step)
		s.add(s.tr.Squares(s.now, []game.SquareChange{{Square: l}}))
	}
	for _, u := range puts {
		s.now = s.now.Add(s.step)
		s.add(s.tr.Squares(s.now, []game.SquareChange{{Square: u, Piece: q.Sq[u]}}))
	}
	if press {
		s.do("press")
	}
}

// kinds returns the event types, without ClockChanged and TurnStarted.
func (s *script) kinds() []string {
	var out []string
	for _, e := range s.evs {
		switch e.(type) {
		case game.ClockChanged, game.TurnStarted:
			continue
		}
		out = append(out, strings.TrimPrefix(reflect.TypeOf(e).String(), "*board."))
	}
	return out
}

func (s *script) reset() { s.evs = nil }

func (s *script) want(kinds ...string) {
	s.t.Helper()
	got := s.kinds()
	if strings.Join(got, " ") != strings.Join(kinds, " ") {
		s.t.Fatalf("events %v, want %v\n%s", got, kinds, s.dump())
	}
}

func (s *script) dump() string {
	var b strings.Builder
	for _, e := range s.evs {
		fmt.Fprintf(&b, "  %s %+v\n", e.When().Sub(t0), e)
	}
	return b.String()
}

// find returns the first event of type T.
func find[T game.Event](s *script) T {
	s.t.Helper()
	for _, e := range s.evs {
		if x, ok := e.(T); ok {
			return x
		}
	}
	var z T
	s.t.Fatalf("no %T in\n%s", z, s.dump())
	return z
}

// ucis returns the UCI of the completed moves in the events.
func ucis(evs []game.Event) []string {
	var out []string
	for _, e := range evs {
		switch e := e.(type) {
		case game.MoveCompleted:
			out = append(out, e.UCI)
		case game.Correction:
			if e.Ply < len(out) {
				out = out[:e.Ply]
			}
		}
	}
	return out
}

// feed translates one DGT message (board/dgtfeed) and feeds what it
// reports to tr at time at.
func feed(tr *Tracker, at time.Time, m dgt.Message) []game.Event {
	var evs []game.Event
	for _, s := range dgtfeed.Append(nil, m) {
		evs = append(evs, tr.Sense(at, s)...)
	}
	return evs
}
