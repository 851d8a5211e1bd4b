package board_test

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// live drives a real board.Tracker with sensed squares and clock
// readings, and the adjudicator with whatever the tracker emits.
type live struct {
	t    *testing.T
	tr   *board.Tracker
	a    *adjudicator.Adjudicator
	at   time.Time
	w, b time.Duration
	run  rules.Color
	out  []game.Verdict
}

func newLive(t *testing.T, rsName string) *live {
	rs, err := ruleset.Lookup(rsName)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := board.New(board.TrackerOptions{Start: chess.StartPosition(chess.Standard), IllegalStands: rs.IllegalMovesStand()})
	if err != nil {
		t.Fatal(err)
	}
	l := &live{t: t, tr: tr, a: adjudicator.New(adjudicator.GameInfo{ID: gid("live.1.1")}, rs, adjudicator.Options{TimeControl: mustTC("180+2")}), at: t0,
		w: 182 * time.Second, b: 182 * time.Second, run: rules.White}
	l.feed(l.tr.Clock(l.at, l.reading()))
	return l
}

func (l *live) reading() game.ClockReading {
	return game.ClockReading{White: l.w, Black: l.b, Running: l.run}
}

func (l *live) feed(evs []game.Event) {
	for _, ev := range evs {
		l.out = append(l.out, l.a.Handle(ev)...)
	}
}

// step lets time pass (the running clock with it) and sets square sq to pc.
func (l *live) step(d time.Duration, sq string, pc rules.Piece) {
	l.at = l.at.Add(d)
	if l.run == rules.White {
		l.w -= d
	} else {
		l.b -= d
	}
	s, err := rules.Chess8x8.ParseSquare(sq)
	if err != nil {
		l.t.Fatal(err)
	}
	l.feed(l.tr.Squares(l.at, []game.SquareChange{{Square: s, Piece: pc}}))
}

// move lifts from and places pc on to, then presses the clock.
func (l *live) move(from, to string, pc rules.Piece) {
	l.step(time.Second, from, rules.NoPiece)
	l.step(time.Second, to, pc)
	l.at = l.at.Add(time.Second)
	if l.run == rules.White {
		l.w += 2*time.Second - time.Second
	} else {
		l.b += 2*time.Second - time.Second
	}
	l.run = l.run.Other()
	l.feed(l.tr.Clock(l.at, l.reading()))
	l.at = l.at.Add(2 * time.Second)
	if l.run == rules.White {
		l.w -= 2 * time.Second
	} else {
		l.b -= 2 * time.Second
	}
	l.feed(l.tr.Squares(l.at, nil))
}

// TestTrackerIllegalStands: the board tracker sees Black's knight jump
// b8-b6 and the clock pressed: a completed illegal move (7.5.1) with the
// blitz award (B.2); White replies without anyone acting, so it stands
// (A.4.2, B.4) and does not count.
func TestTrackerIllegalStands(t *testing.T) {
	l := newLive(t, "fide2018-blitz")
	wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
	bn := rules.Piece{Color: rules.Black, Kind: rules.Knight}
	l.move("e2", "e4", wp)
	l.move("b8", "b6", bn)
	al := one(t, l.out, game.KindIllegalMove)
	if al.Severity != game.Crit || al.Side != "black" || al.Ply != 2 || al.Proposal["time_add_ms"] != int64(60000) {
		t.Fatalf("%s %s %d %v", al.Severity, al.Side, al.Ply, al.Proposal)
	}
	l.out = nil
	l.move("d2", "d4", wp)
	st := one(t, l.out, game.KindIllegalMove)
	if st.Severity != game.Info || st.Proposal["stands"] != true || st.Proposal["alert"] != al.ID {
		t.Errorf("stands: %s %v %+v", st.Severity, st.Proposal, l.out)
	}
	if l.a.Ply() != 3 {
		t.Errorf("plies %d", l.a.Ply())
	}
}
