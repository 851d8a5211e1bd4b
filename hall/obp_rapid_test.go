package hall

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/nats-io/nats.go"
)

// TestOBPRapidPalace: a rapid game (xiangqi-vn2004-rapid) on an OBP board
// on a pseudo-terminal, through a real NATS server. Red moves his advisor
// out of the palace (f0g1) and presses: the illegal move's alert proposes
// Black's win on his claim (RB 4.2) and the TE's 2 minutes (RB 5). Black
// does not claim: he plays H2+3 and presses. The illegal move stands (RB
// 4.3: the record holds f0g1 and h9g7, info "stands"), but the advisor
// outside the palace must be put back: a crit illegal_position alert names
// g1 and f0 (RB 4.3). No result is set.
func TestOBPRapidPalace(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	b := newOBPPTY(t, emu.Options{Serial: "XQ-RB43", Base: 15 * time.Minute, Increment: 5 * time.Second})
	red, black := rules.White, rules.Black
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	s := emu.Script{
		{At: 0, Action: emu.Lever{Side: black}}, // Red's clock starts
		{At: sec(1), Action: emu.Lift{Square: xqSquare(t, "f0")}},
		{At: sec(1.5), Action: emu.Put{Square: xqSquare(t, "g1"), Piece: rules.Piece{Color: red, Kind: rules.Advisor}}},
		{At: sec(2.2), Action: emu.Lever{Side: red}},
		{At: sec(5), Action: emu.Lift{Square: xqSquare(t, "h9")}},
		{At: sec(5.6), Action: emu.Put{Square: xqSquare(t, "g7"), Piece: rules.Piece{Color: black, Kind: rules.Knight}}},
		{At: sec(6.3), Action: emu.Lever{Side: black}},
	}
	g := game.ID{Event: "open2026", Round: 1, Board: 11}
	hb := obpBoardFor(t, "xq11", g, ruleset.XiangqiVN2004Rapid, "", "900+5", b.Open)
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	alerts := subscribe(t, arb, testPrefix+".arbiter."+g.String()+".alert")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, hb)
	waitConnected(t, d.h)
	b.e.Schedule(time.Now().Add(500*time.Millisecond), s)

	var seen []game.Alert
	keep := func(a game.Alert) { seen = append(seen, a) }
	awaitAlert(t, alerts, 30*time.Second, "the illegal move", keep, func(a game.Alert) bool {
		return a.Kind == game.KindIllegalMove && a.Severity == game.Crit && a.Side == "white" && a.Ply == 1 &&
			a.Proposal["result"] == "0-1" && a.Proposal["on_claim_by"] == "black" && a.Proposal["time_add_ms"] == float64(120000)
	})
	awaitAlert(t, alerts, 30*time.Second, "the palace correction", keep, func(a game.Alert) bool {
		return a.Kind == game.KindIllegalPosition && a.Severity == game.Crit && a.Side == "white" && a.Article == "RB 4.3" &&
			a.Proposal["correct"] == "g1" && a.Proposal["back_to"] == "f0" && strings.Contains(a.Message, "outside its palace")
	})
	stands := false
	for _, a := range seen {
		stands = stands || a.Kind == game.KindIllegalMove && a.Severity == game.Info && a.Proposal["stands"] == true
	}
	if !stands {
		t.Errorf("no alert that the illegal move stands: %+v", seen)
	}
	waitFor(t, 20*time.Second, "the record", func() bool { r, _ := d.h.Record(g); return len(r.Moves) == 2 })
	r, _ := d.h.Record(g)
	if r.Moves[0].UCI != "f0g1" || r.Moves[1].UCI != "h9g7" || (r.Result != "" && r.Result != "*") {
		t.Errorf("record %+v result %q", r.Moves, r.Result)
	}
}
