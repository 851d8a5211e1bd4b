package hall

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// teamHarness drives the two sessions of a team-drop match with what the
// boards and clocks report: square changes one by one (lifts before
// placements), then the mover's clock press; both clocks run at once.
type teamHarness struct {
	t   *testing.T
	s   [2]*session.Session
	at  time.Time
	clk [2][2]time.Duration // remaining, [board][colour]
	run [2]rules.Color      // running side per board (NoColor before the start)
	out [2][]game.Payload
}

// teamOptions returns the options of the two boards of a match in round 1
// (boards 1 and 2, open2026) under bgo2026-team.
func teamOptions(t testing.TB) (session.SessionOptions, session.SessionOptions) {
	rs, err := ruleset.Lookup(ruleset.BGO2026Team)
	if err != nil {
		t.Fatal(err)
	}
	tc := clock.MustParse("300")
	mk := func(board, partner int, w, b string) session.SessionOptions {
		id := game.ID{Event: "open2026", Round: 1, Board: board}
		return session.SessionOptions{Info: gamerecord.Info{Game: id, White: w, Black: b, WhiteTeam: "Hà Nội", BlackTeam: "Sài Gòn", Variant: "team-drop",
			Ruleset: rs.Name, TimeControl: "300"}, RuleSet: rs, TimeControl: tc, Tracker: session.DefaultTrackerOptions(),
			Partner: game.ID{Event: "open2026", Round: 1, Board: partner}}
	}
	a := mk(1, 2, "An", "Bình")
	b := mk(2, 1, "Chi", "Dũng")
	b.Info.WhiteTeam, b.Info.BlackTeam = "Sài Gòn", "Hà Nội"
	return a, b
}

func newTeamHarness(t *testing.T, reca, recb *gamerecord.Record) *teamHarness {
	t.Helper()
	oa, ob := teamOptions(t)
	ss, err := session.NewTeamSessions(oa, ob, reca, recb, t0)
	if err != nil {
		t.Fatal(err)
	}
	h := &teamHarness{t: t, s: ss, at: t0, run: [2]rules.Color{rules.NoColor, rules.NoColor}}
	for b := range h.clk {
		h.clk[b] = [2]time.Duration{5 * time.Minute, 5 * time.Minute}
		if reca != nil {
			h.run[b] = h.s[b].Tracker().Position().Turn()
		}
	}
	return h
}

// take collects a step of board b and what it did to the partner board.
func (h *teamHarness) take(b int, st session.Step) {
	h.out[b] = append(h.out[b], st.Out...)
	for range 4 {
		pa, pb := h.s[0].TakePartner(), h.s[1].TakePartner()
		if pa.Empty() && pb.Empty() {
			return
		}
		h.out[0] = append(h.out[0], pa.Out...)
		h.out[1] = append(h.out[1], pb.Out...)
	}
}

// wait lets d pass on both boards (their clocks run).
func (h *teamHarness) wait(d time.Duration) {
	for d > 0 {
		step := min(d, 100*time.Millisecond)
		d -= step
		h.at = h.at.Add(step)
		for b := range 2 {
			if c := h.run[b]; c != rules.NoColor {
				h.clk[b][c] = max(h.clk[b][c]-step, 0)
			}
			h.take(b, h.s[b].Tick(h.at))
		}
	}
}

// face is board b's clock as it reads now (White on the left).
func (h *teamHarness) face(b int) game.ClockFace {
	f := game.ClockFace{Left: h.clk[b][rules.White], Right: h.clk[b][rules.Black], LeftIs: rules.White}
	switch h.run[b] {
	case rules.White:
		f.Running = game.LeftDisplay
	case rules.Black:
		f.Running = game.RightDisplay
	}
	return f
}

// press is the press of the side c on board b: the other side's clock runs.
func (h *teamHarness) press(b int, c rules.Color) {
	h.run[b] = c.Other()
	h.take(b, h.s[b].Sense(h.at, h.face(b)))
}

// start starts both clocks (Black presses, White's clock runs).
func (h *teamHarness) start() {
	h.press(0, rules.Black)
	h.press(1, rules.Black)
	h.wait(time.Second)
}

// place senses one square change on board b.
func (h *teamHarness) place(b int, sq string, pc rules.Piece) {
	s, err := rules.Chess8x8.ParseSquare(sq)
	if err != nil {
		h.t.Fatal(err)
	}
	h.take(b, h.s[b].Sense(h.at, game.SquareChange{Square: s, Piece: pc}))
}

// play makes move uci on board b as a hand does (think 1 s, lifts 150 ms
// apart, then placements, the press 400 ms after the last one) and lets
// 700 ms pass. The move is read in the match's position, fed with the
// dropped piece when the pocket lacks it (an illegal drop is a hand too).
func (h *teamHarness) play(b int, uci string) {
	h.t.Helper()
	pos := h.s[b].TeamPosition()
	mover := pos.Turn()
	mv, err := pos.ParseMove(uci)
	if err != nil {
		if mv, err = feedPosition(pos, uci); err != nil {
			h.t.Fatalf("board %d: %s: %v", b+1, uci, err)
		}
	}
	after, err := pos.PlayIllegal(mv)
	if err != nil {
		fed := pos.WithPocket(mover, mv.Drop, 1)
		if after, err = fed.PlayIllegal(mv); err != nil {
			h.t.Fatalf("board %d: %s: %v", b+1, uci, err)
		}
	}
	h.wait(time.Second)
	before, now := pos.Placement(), after.Placement()
	for s := rules.Square(0); s < 64; s++ {
		if !before.Sq[s].IsEmpty() && before.Sq[s] != now.Sq[s] {
			h.place(b, rules.Chess8x8.Name(s), rules.NoPiece)
			h.wait(150 * time.Millisecond)
		}
	}
	for s := rules.Square(0); s < 64; s++ {
		if !now.Sq[s].IsEmpty() && before.Sq[s] != now.Sq[s] {
			h.place(b, rules.Chess8x8.Name(s), now.Sq[s])
			h.wait(150 * time.Millisecond)
		}
	}
	h.wait(400 * time.Millisecond)
	h.press(b, mover)
	h.wait(700 * time.Millisecond)
}

// feedPosition resolves a drop the pocket lacks.
func feedPosition(pos interface {
	ParseMove(string) (rules.Move, error)
}, uci string) (rules.Move, error) {
	if len(uci) == 4 && uci[1] == '@' {
		k, ok := rules.KindFromLetter(uci[0])
		sq, err := rules.Chess8x8.ParseSquare(uci[2:])
		if ok && err == nil {
			return rules.Move{From: rules.NoSquare, To: sq, Drop: k}, nil
		}
	}
	return pos.ParseMove(uci)
}

// alerts returns board b's alerts of kind (all kinds for "").
func (h *teamHarness) alerts(b int, kind string) []game.Alert {
	var out []game.Alert
	for _, p := range h.out[b] {
		if a, ok := p.(game.Alert); ok && (kind == "" || a.Kind == kind) {
			out = append(out, a)
		}
	}
	return out
}

// moves returns board b's MoveEvents.
func (h *teamHarness) moves(b int) []game.MoveEvent { return moveEvents(h.out[b]) }

// results returns board b's Results.
func (h *teamHarness) results(b int) []game.Result {
	var out []game.Result
	for _, p := range h.out[b] {
		if r, ok := p.(game.Result); ok {
			out = append(out, r)
		}
	}
	return out
}

// serious returns board b's crit and warn alerts.
func (h *teamHarness) serious(b int) []game.Alert {
	var out []game.Alert
	for _, a := range h.alerts(b, "") {
		if a.Severity != game.Info {
			out = append(out, a)
		}
	}
	return out
}

// reconnect is both boards answering again after a restart: a full read
// of what they show and a clock reading.
func (h *teamHarness) reconnect() {
	for b, s := range h.s {
		pl := s.TeamPosition().Placement()
		h.take(b, s.Sense(h.at, game.FullRead{Placement: pl}))
		h.take(b, s.Sense(h.at, h.face(b)))
	}
	h.wait(time.Second)
}
