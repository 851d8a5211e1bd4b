package adjudicator

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

var t0 = time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)

// game drives an Adjudicator with the events a board tracker would emit
// for real chess positions (rules/chess), and a clock that behaves like a
// DGT clock under the game's time control: each move takes think seconds.
type match struct {
	t     testing.TB
	a     *Adjudicator
	pos   rules.Position
	ply   int
	at    time.Time
	tc    clock.TimeControl
	w, b  time.Duration
	run   rules.Color
	think time.Duration
	out   []game.Verdict // everything emitted so far
}

// newGame starts a game of rule set rsName from fen ("" = standard start)
// with time control tc ("" = no clock readings).
func newGame(t testing.TB, rsName, fen, tc string, opts Options) *match {
	t.Helper()
	rs, err := ruleset.Lookup(rsName)
	if err != nil {
		t.Fatal(err)
	}
	v := chess.Standard
	if rs.Variant == "chess960" {
		v = chess.Chess960
	}
	var pos *chess.Position
	if fen == "" {
		pos = chess.StartPosition(v)
	} else if pos, err = chess.NewPosition(v, fen); err != nil {
		t.Fatal(err)
	}
	g := &match{t: t, pos: pos, at: t0, think: 10 * time.Second, run: rules.NoColor}
	if tc != "" {
		g.tc = clock.MustParse(tc)
		opts.TimeControl = g.tc
		g.w, g.b = g.tc.Base(), g.tc.Base()
	}
	g.a = New(GameInfo{ID: game.ID{Event: "open2026", Round: 1, Board: 1}}, rs, opts)
	g.handle(game.SetupDetected{Stamp: game.Stamp{At: g.at}, Position: pos, N960: -1})
	if tc != "" {
		g.run = pos.Turn()
		g.reading()
	}
	return g
}

func (g *match) handle(ev game.Event) []game.Verdict {
	out := g.a.Handle(ev)
	g.out = append(g.out, out...)
	return out
}

// reading sends the current clock state as a ClockChanged event.
func (g *match) reading() []game.Verdict {
	return g.handle(game.ClockChanged{Stamp: game.Stamp{At: g.at}, Clock: g.clockReading()})
}

func (g *match) clockReading() game.ClockReading {
	return game.ClockReading{White: max(g.w, 0), Black: max(g.b, 0), Running: g.run}
}

// spend lets the running side think for d.
func (g *match) spend(d time.Duration) {
	g.at = g.at.Add(d)
	if g.run == rules.White {
		g.w -= d
	} else if g.run == rules.Black {
		g.b -= d
	}
}

// press: the side to move presses the clock (increment, period time).
func (g *match) press(side rules.Color) {
	if g.tc.Timed() {
		p := g.tc.Period(0)
		if side == rules.White {
			g.w += p.Increment
		} else {
			g.b += p.Increment
		}
	}
	g.run = side.Other()
}

// moves plays SAN moves legally, each made and completed with a press.
func (g *match) moves(sans ...string) []game.Verdict {
	g.t.Helper()
	var out []game.Verdict
	for _, s := range strings.Fields(strings.Join(sans, " ")) {
		out = append(out, g.move(s)...)
	}
	return out
}

func (g *match) move(san string) []game.Verdict {
	g.t.Helper()
	m, err := g.pos.ParseMove(san)
	if err != nil {
		g.t.Fatalf("ply %d: %s: %v", g.ply+1, san, err)
	}
	next, err := g.pos.Play(m)
	if err != nil {
		g.t.Fatalf("ply %d: %s: %v", g.ply+1, san, err)
	}
	return g.complete(m, next, false)
}

// complete makes and completes move m leading to next.
func (g *match) complete(m rules.Move, next rules.Position, illegal bool) []game.Verdict {
	side := g.pos.Turn()
	var out []game.Verdict
	san := g.pos.UCI(m)
	if !illegal {
		san = g.pos.SAN(m)
	}
	uci := g.pos.UCI(m)
	g.ply++
	g.spend(g.think / 2)
	out = append(out, g.handle(game.MoveMade{Stamp: game.Stamp{At: g.at}, Ply: g.ply, Side: side, Move: m, SAN: san, UCI: uci, Position: next})...)
	made := g.at
	g.spend(g.think / 2)
	var cr *game.ClockReading
	if g.tc.Timed() {
		g.press(side)
		r := g.clockReading()
		cr = &r
		out = append(out, g.reading()...)
	}
	out = append(out, g.handle(game.MoveCompleted{Stamp: game.Stamp{At: g.at}, Ply: g.ply, Side: side, Move: m, SAN: san, UCI: uci,
		Position: next, MadeAt: made, Clock: cr, Illegal: illegal})...)
	g.pos = next
	return out
}

// illegal: the side to move makes the physically possible but illegal
// move uci and (completed) presses the clock. The tracker reports an
// IllegalMove; the position stays (the arbiter reinstates it).
func (g *match) illegal(uci string, completed bool) []game.Verdict {
	g.t.Helper()
	m := g.uciMove(uci)
	side := g.pos.Turn()
	err := g.pos.Check(m)
	reason := rules.ReasonUnknown
	if ie, ok := err.(*rules.IllegalMoveError); ok {
		reason = ie.Reason
	} else if err == nil {
		g.t.Fatalf("%s is legal", uci)
	}
	after, _ := g.pos.PlayIllegal(m)
	g.spend(g.think)
	var out []game.Verdict
	if completed && g.tc.Timed() {
		g.press(side)
		out = append(out, g.reading()...)
	}
	ev := []game.Touch{{At: g.at.Add(-2 * time.Second), Square: m.From, Piece: g.pos.At(m.From), Lift: true},
		{At: g.at.Add(-time.Second), Square: m.To, Piece: g.pos.At(m.From)}}
	out = append(out, g.handle(game.IllegalMove{Stamp: game.Stamp{At: g.at}, Ply: g.ply + 1, Side: side, Attempt: m,
		Text: uci, Reason: reason, Completed: completed, Position: after, Evidence: ev})...)
	return out
}

// stand: an illegal move that was not acted on stays on the board; the
// tracker continues from it (A.4.2) and the opponent replies with san.
func (g *match) stand(uci string) []game.Verdict {
	g.t.Helper()
	m := g.uciMove(uci)
	after, err := g.pos.PlayIllegal(m)
	if err != nil {
		g.t.Fatal(err)
	}
	return g.complete(m, after, true)
}

func (g *match) uciMove(uci string) rules.Move {
	g.t.Helper()
	geo := g.pos.Geometry()
	from, err1 := geo.ParseSquare(uci[:2])
	to, err2 := geo.ParseSquare(uci[2:4])
	if err1 != nil || err2 != nil {
		g.t.Fatalf("bad uci %q", uci)
	}
	m := rules.Move{From: from, To: to}
	if len(uci) == 5 {
		k, _ := rules.KindFromLetter(uci[4])
		m.Promo = k
	}
	return m
}

// command applies an arbiter command at the current time.
func (g *match) command(c Command) []game.Verdict {
	g.t.Helper()
	out, err := g.a.Command(c, g.at)
	if err != nil {
		g.t.Fatalf("command %+v: %v", c, err)
	}
	g.out = append(g.out, out...)
	return out
}

// alerts returns the alerts among out, optionally only of kind.
func alerts(out []game.Verdict, kind string) []game.Alert {
	var as []game.Alert
	for _, o := range out {
		if al, ok := o.(game.Alert); ok && (kind == "" || al.Kind == kind) {
			as = append(as, al)
		}
	}
	return as
}

func results(out []game.Verdict) []game.Result {
	var rs []game.Result
	for _, o := range out {
		if r, ok := o.(game.Result); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

func clockCommands(out []game.Verdict) []game.ClockCommand {
	var cs []game.ClockCommand
	for _, o := range out {
		if c, ok := o.(game.ClockCommand); ok {
			cs = append(cs, c)
		}
	}
	return cs
}

// one returns the only alert of kind in out, failing otherwise.
func one(t *testing.T, out []game.Verdict, kind string) game.Alert {
	t.Helper()
	as := alerts(out, kind)
	if len(as) != 1 {
		t.Fatalf("want one %s alert, got %d in %s", kind, len(as), describe(out))
	}
	return as[0]
}

// describe lists outputs for failure messages.
func describe(out []game.Verdict) string {
	var b strings.Builder
	for _, o := range out {
		switch o := o.(type) {
		case game.Alert:
			fmt.Fprintf(&b, "\n  alert %s %s [%s] %v: %s", o.Kind, o.Severity, o.Article, o.Proposal, o.Message)
		case game.Result:
			fmt.Fprintf(&b, "\n  result %s %s [%s] provisional=%v", o.Result, o.Termination, o.Article, o.Provisional)
		case game.ClockCommand:
			fmt.Fprintf(&b, "\n  clock %v/%v run=%s (%s)", o.White, o.Black, o.Running, o.Reason)
		case game.Correction:
			fmt.Fprintf(&b, "\n  correction ply %d %s", o.Ply, o.FEN)
		}
	}
	return b.String()
}

func turnStarted(g *match, side rules.Color) game.TurnStarted {
	return game.TurnStarted{Stamp: game.Stamp{At: g.at}, Ply: g.ply + 1, Side: side}
}

func clockWithoutMove(g *match, side rules.Color) game.ClockWithoutMove {
	return game.ClockWithoutMove{Stamp: game.Stamp{At: g.at}, Side: side, Clock: g.clockReading()}
}

func gesture(g *match, result string) game.ResultGesture {
	return game.ResultGesture{Stamp: game.Stamp{At: g.at}, Result: result, Gesture: "kings_centre"}
}

func mustTC(s string) clock.TimeControl { return clock.MustParse(s) }
