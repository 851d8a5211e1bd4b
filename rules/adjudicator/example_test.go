package adjudicator_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// The wiring (dgtbridge run, replay) feeds every tracker event to the
// game's adjudicator and publishes what comes back: alerts on
// <p>.arbiter.<g>.alert, results on <p>.game.<g>.end, corrections on
// <p>.game.<g>.correction, and clock commands as SetNRun to the DGT 3000.
func Example() {
	rs, err := ruleset.Lookup("fide2018-blitz")
	if err != nil {
		panic(err)
	}
	a := adjudicator.New(adjudicator.GameInfo{ID: game.ID{Event: "open2026", Round: 1, Board: 1}}, rs, adjudicator.Options{})
	at := time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)
	pos := rules.Position(chess.StartPosition(chess.Standard))
	a.Handle(game.SetupDetected{Stamp: game.Stamp{At: at}, Position: pos, N960: -1})
	for i, san := range []string{"f3", "e5", "g4", "Qh4#"} {
		m, _ := pos.ParseMove(san)
		next, _ := pos.Play(m)
		at = at.Add(3 * time.Second)
		for _, out := range a.Handle(game.MoveCompleted{Stamp: game.Stamp{At: at}, Ply: i + 1, Side: pos.Turn(),
			Move: m, SAN: san, UCI: pos.UCI(m), Position: next, MadeAt: at}) {
			b, _ := json.Marshal(out)
			fmt.Printf("%T %s\n", out, b)
		}
		pos = next
	}
	// Output:
	// game.Result {"game":"open2026.1.1","result":"0-1","termination":"checkmate","article":"5.1.1","provisional":true,"at":"2026-02-08T08:00:12.000Z","revision":0}
	// game.Alert {"id":"open2026.1.1.checkmate.4.0","game":"open2026.1.1","kind":"checkmate","severity":"crit","article":"5.1.1","side":"black","ply":4,"message":"2... Qh4# checkmates: Black wins. Provisional until the arbiter confirms.","proposal":{"result":"0-1"},"at":"2026-02-08T08:00:12.000Z"}
}
