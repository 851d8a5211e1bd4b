package adjudicator

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

func ptr[T any](v T) *T { return &v }

// Reinstating a position (7.5.1, 7.6) truncates the record and the
// repetition history and returns a Correction.
func TestCommandReinstate(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "", Options{})
	g.moves(knightDance + " Nf3 Nf6 Ng1")
	out := g.command(Command{Cmd: "reinstate", Ply: ptr(2)})
	var c *game.Correction
	for _, o := range out {
		if x, ok := o.(game.Correction); ok {
			c = &x
		}
	}
	if c == nil || c.Ply != 2 || c.Reason != game.Reinstatement || c.Position == nil || !strings.HasPrefix(c.Position.FEN(), "rnbqkb1r/pppppppp/5n2") {
		t.Fatalf("correction %+v", c)
	}
	// The repetitions after ply 2 are gone: Ng1 Ng8 now makes the second
	// occurrence of the start, not the third.
	g.pos = g.a.position()
	g.ply = 2
	if out := g.moves("Ng1 Ng8"); len(alerts(out, game.KindThreefold)) != 0 {
		t.Errorf("history not truncated: %s", describe(out))
	}
	if _, err := g.a.Command(Command{Cmd: "reinstate", Ply: ptr(9)}, g.at); !errors.Is(err, ErrBadCommand) {
		t.Errorf("ply beyond the record: %v", err)
	}
}

// set_result, adjust_clock, acknowledge and the errors of bad commands.
func TestCommands(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "5400+30", Options{})
	g.moves("e4 e5")
	out := g.command(Command{Cmd: "set_result", Result: "1-0", Termination: "resignation", Article: "5.1.2", By: "IA Smith"})
	r := results(out)
	if len(r) != 1 || r[0].Provisional || r[0].Result != "1-0" || g.a.Result().Termination != "resignation" {
		t.Errorf("set_result: %s", describe(out))
	}
	if rec := one(t, out, game.KindCommand); !strings.Contains(rec.Message, "IA Smith") {
		t.Errorf("record: %s", rec.Message)
	}
	out = g.command(Command{Cmd: "adjust_clock", WhiteMs: ptr(int64(600000)), BlackMs: ptr(int64(900000)), Running: "black"})
	cc := clockCommands(out)
	if len(cc) != 1 || cc[0].White != 10*time.Minute || cc[0].Black != 15*time.Minute || cc[0].Running != rules.Black {
		t.Errorf("adjust_clock: %s", describe(out))
	}
	g.w, g.b, g.run = 10*time.Minute, 15*time.Minute, rules.Black
	if out := g.reading(); len(alerts(out, game.KindClockSetting)) != 0 || len(alerts(out, game.KindClockDefect)) != 0 {
		t.Errorf("the adjusted clock was reported: %s", describe(out))
	}
	for _, tt := range []struct {
		c     Command
		err   error
		field string
	}{
		{Command{Cmd: "launch"}, ErrBadCommand, "cmd"},
		{Command{Cmd: "acknowledge"}, ErrBadCommand, "alert_id"},
		{Command{Cmd: "acknowledge", AlertID: "open2026.1.1.flag_fall.9.0"}, ErrUnknownAlert, "alert_id"},
		{Command{Cmd: "set_result", Result: "2-0"}, ErrBadCommand, "result"},
		{Command{Cmd: "adjust_clock", WhiteMs: ptr(int64(1))}, ErrBadCommand, "white_ms/black_ms"},
		{Command{Cmd: "apply_penalty", Side: "green", Penalty: "loss"}, ErrBadCommand, "side"},
		{Command{Cmd: "apply_penalty", Side: "white", Penalty: "fine"}, ErrBadCommand, "penalty"},
		{Command{Cmd: "claim", Side: "black", Claim: "fifty"}, ErrNotApplicable, "side"},
	} {
		_, err := g.a.Command(tt.c, g.at)
		var ce *CommandError
		if !errors.As(err, &ce) || !errors.Is(err, tt.err) || ce.Field != tt.field {
			t.Errorf("%+v: %v (field %q)", tt.c, err, tt.field)
		}
	}
}

// Claims (9.2, 9.3, 9.5): the daemon verifies; uphold draws; reject gives
// the opponent the award, and in 2001 cuts the claimant (9.5(b)).
func TestCommandClaims(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "", Options{})
	g.moves(knightDance + " Nf3 Nf6 Ng1")
	// Black claims with the intended move Ng8 (9.2.1.1): correct.
	out := g.command(Command{Cmd: "claim", Side: "black", Claim: "threefold", Move: "Ng8"})
	al := one(t, out, game.KindClaim)
	if al.Proposal["result"] != Draw || !strings.Contains(al.Message, "correct") {
		t.Fatalf("%v %s", al.Proposal, al.Message)
	}
	out = g.command(Command{Cmd: "uphold_claim", AlertID: al.ID})
	if r := results(out); len(r) != 1 || r[0].Result != Draw || r[0].Provisional || r[0].Article != "9.2" {
		t.Errorf("uphold: %s", describe(out))
	}
	// A wrong 50-move claim.
	g = newGame(t, "fide2018-standard", "", "", Options{})
	g.moves("e4")
	al = one(t, g.command(Command{Cmd: "claim", Side: "black", Claim: "fifty"}), game.KindClaim)
	if al.Proposal["time_add_ms"] != int64(120000) || al.Proposal["side"] != "white" || al.Article != "9.5.3" {
		t.Errorf("wrong claim: %v %s", al.Proposal, al.Article)
	}

	for _, tt := range []struct {
		rs           string
		white, black time.Duration
	}{
		// Black (claimant) thought 10 s: 5400+30-10 → +0; White +2 min.
		{"fide2018-standard", 5420*time.Second + 2*time.Minute, 5390 * time.Second},
		// 2001: White +3 min; Black's 5390 s cut by at most 3 min.
		{"fide2001-standard", 5420*time.Second + 3*time.Minute, 5390*time.Second - 3*time.Minute},
	} {
		g := newGame(t, tt.rs, "", "5400+30", Options{Penalties: PenaltiesAuto})
		g.moves("e4")
		g.spend(10 * time.Second)
		g.reading()
		al := one(t, g.command(Command{Cmd: "claim", Side: "black", Claim: "threefold"}), game.KindClaim)
		out := g.command(Command{Cmd: "reject_claim", AlertID: al.ID})
		cc := clockCommands(out)
		if len(cc) != 1 || cc[0].White != tt.white || cc[0].Black != tt.black {
			t.Errorf("%s: %s", tt.rs, describe(out))
		}
	}
}

func TestCutClaimant(t *testing.T) {
	m := time.Minute
	for in, want := range map[time.Duration]time.Duration{
		10 * m: 7 * m, 4 * m: 2 * m, 150 * time.Second: 75 * time.Second, 90 * time.Second: m, 50 * time.Second: 50 * time.Second,
	} {
		if got := CutClaimant(in); got != want {
			t.Errorf("CutClaimant(%v) = %v, want %v", in, got, want)
		}
	}
}

// Alerts marshal exactly as docs/contract.md §3.4 shows: snake_case,
// RFC 3339 times with milliseconds, proposal and evidence objects.
func TestAlertJSON(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "", Options{})
	g.moves("e4")
	g.at = g.at.Add(345 * time.Millisecond)
	g.a.illegal[1] = 1
	al := one(t, g.illegal("e7e4", true), game.KindIllegalMove)
	b, err := json.Marshal(al)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "game", "kind", "severity", "article", "side", "ply", "message", "proposal", "evidence", "at"} {
		if _, ok := m[k]; !ok {
			t.Errorf("field %q missing in %s", k, b)
		}
	}
	if m["at"] != "2026-02-08T08:00:20.345Z" || m["id"] != "open2026.1.1.illegal_move.2.0" || m["side"] != "black" {
		t.Errorf("at %v id %v side %v", m["at"], m["id"], m["side"])
	}
	if p := m["proposal"].(map[string]any); p["result"] != "1-0" {
		t.Errorf("proposal %v", p)
	}
	if ev := m["evidence"].([]any)[0].(map[string]any); ev["at"] != "2026-02-08T08:00:18.345Z" || ev["square"] != "e7" || ev["piece"] != "p" || ev["event"] != "lift" {
		t.Errorf("evidence %v", ev)
	}
	r, _ := json.Marshal(game.Result{Game: game.ID{Event: "g", Round: 1, Board: 1}, Result: Draw, Termination: "stalemate", Article: "5.2.1", Provisional: true, At: game.T(t0)})
	if string(r) != `{"game":"g.1.1","result":"1/2-1/2","termination":"stalemate","article":"5.2.1","provisional":true,"at":"2026-02-08T08:00:00.000Z","revision":0}` {
		t.Errorf("result JSON %s", r)
	}
	var c Command
	if err := json.Unmarshal([]byte(`{"cmd":"reinstate","ply":22,"by":"IA"}`), &c); err != nil || *c.Ply != 22 {
		t.Errorf("command JSON: %v %+v", err, c)
	}
}

// Replaying the same events gives the same alert ids (Nats-Msg-Id).
func TestDeterministicIDs(t *testing.T) {
	play := func() []string {
		g := newGame(t, "fide2018-rapid", "", "600+5", Options{})
		g.moves(knightDance)
		g.illegal("e2e5", true)
		g.moves(knightDance + " Nf3 Nf6 Ng1 Ng8")
		g.spend(700 * time.Second)
		g.reading()
		var ids []string
		for _, al := range alerts(g.out, "") {
			ids = append(ids, al.ID)
		}
		return ids
	}
	a, b := play(), play()
	if len(a) < 4 || !reflect.DeepEqual(a, b) {
		t.Errorf("ids differ or too few:\n%v\n%v", a, b)
	}
	seen := map[string]bool{}
	for _, id := range a {
		if seen[id] {
			t.Errorf("duplicate id %s", id)
		}
		seen[id] = true
	}
}

func BenchmarkHandleMove(b *testing.B) {
	g := newGame(b, "fide2018-standard", "", "5400+30", Options{})
	for b.Loop() {
		g.moves("Nf3 Nf6 Ng1 Ng8")
		if g.a.Result() != nil {
			g = newGame(b, "fide2018-standard", "", "5400+30", Options{})
		}
	}
}

// FIDE 6.8, A.4.3; 2001 B7: a claim that the opponent's
// flag is down.
func TestTimeWinClaim(t *testing.T) {
	tests := []struct {
		name, rs, fen, want string
		bothDown            bool
	}{
		{"A.4.3 win", "fide2018-rapid", "", "0-1", false},
		{"A.4.3 claimant cannot mate: draw", "fide2018-rapid", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Draw, false},
		{"2001 B7 both flags: no win", "fide2001-rapid", "", Draw, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, tt.rs, tt.fen, "600", Options{}) // Black claims White's flag

			g.spend(601 * time.Second)
			g.w = 0
			if tt.bothDown {
				g.b = 0
			}
			g.run = rules.NoColor
			g.reading()
			al := one(t, g.command(Command{Cmd: "claim", Side: "black", Claim: "time_win"}), game.KindClaim)
			if al.Proposal["result"] != tt.want {
				t.Fatalf("%v %s", al.Proposal, al.Message)
			}
			out := g.command(Command{Cmd: "uphold_claim", AlertID: al.ID})
			if r := results(out); len(r) != 1 || r[0].Result != tt.want || r[0].Provisional {
				t.Errorf("uphold: %s", describe(out))
			}
		})
	}
	// The opponent's flag is up: the claim is wrong and cannot be upheld.
	g := newGame(t, "fide2018-rapid", "", "600", Options{})
	g.spend(10 * time.Second)
	g.reading()
	al := one(t, g.command(Command{Cmd: "claim", Side: "black", Claim: "time_win"}), game.KindClaim)
	if _, err := g.a.Command(Command{Cmd: "uphold_claim", AlertID: al.ID}, g.at); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("uphold a wrong claim: %v", err)
	}
}

// FIDE 9.1.2.1, 5.2.3: a draw offer entered by the arbiter is
// rejected when the opponent touches a piece.
func TestDrawOffer(t *testing.T) {
	g := newGame(t, "fide2018-standard", "", "", Options{})
	rec := one(t, g.command(Command{Cmd: "draw_offer", Side: "white"}), game.KindCommand)
	if !strings.Contains(rec.Message, "at least 1 move") {
		t.Errorf("%s", rec.Message)
	}
	g.moves("e4")
	al := one(t, g.handle(turnStarted(g, rules.Black)), game.KindDrawOffer)
	if al.Side != "black" || !strings.Contains(al.Message, "rejected") {
		t.Errorf("%s %s", al.Side, al.Message)
	}
	if out := g.handle(turnStarted(g, rules.Black)); len(out) != 0 {
		t.Errorf("rejected twice: %s", describe(out))
	}
}
