package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestRuleOverridesReachTheArbiter loads a configuration whose event says
// illegal_loss_at: 3 (the FIDE 2018 standard preset loses at the second),
// builds the daemon's boards from it, and feeds the board's adjudicator
// completed illegal moves: with the override the second illegal move
// proposes a time award and no result, the third the loss; without it the
// second already proposes the loss. A board's own rules win over the event's.
func TestRuleOverridesReachTheArbiter(t *testing.T) {
	tests := []struct {
		name   string
		event  string
		board  string
		lossAt int // the illegal move that proposes 1-0
	}{
		{"preset", "", "", 2},
		{"event override", ", rules: {illegal_loss_at: 3}", "", 3},
		{"board wins", ", rules: {illegal_loss_at: 3}", ", rules: {illegal_loss_at: 4}", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "c.yaml")
			body := fmt.Sprintf("event: {id: cup, ruleset: fide2018-standard, time_control: \"5400+30\"%s}\nboards:\n  - {port: /dev/null, round: 1, board: 1%s}\n",
				tt.event, tt.board)
			if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := config.Load(config.LoadOptions{File: file})
			if err != nil {
				t.Fatalf("%v\n%s", err, body)
			}
			hbs, err := HallBoards(&cfg, func(config.Board) (hall.Board, error) { return hall.Board{}, nil })
			if err != nil || len(hbs) != 1 {
				t.Fatalf("boards %d: %v", len(hbs), err)
			}
			rs := hbs[0].Session.RuleSet
			a := adjudicator.New(adjudicator.GameInfo{ID: game.ID{Event: "cup", Round: 1, Board: 1}}, rs, adjudicator.Options{})
			at := time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)
			start := rules.Position(chess.StartPosition(chess.Standard))
			a.Handle(game.SetupDetected{Stamp: game.Stamp{At: at}, Position: start, N960: -1})
			// White's rook a1 jumps to a3 through its own pawn, again and
			// again (the arbiter reinstates the start each time).
			m := rules.Move{From: square(t, "a1"), To: square(t, "a3"), Promo: rules.NoKind, Drop: rules.NoKind}
			after, err := start.PlayIllegal(m)
			if err != nil {
				t.Fatal(err)
			}
			for n := 1; n <= tt.lossAt; n++ {
				at = at.Add(10 * time.Second)
				var al *game.Alert
				for _, o := range a.Handle(game.IllegalMove{Stamp: game.Stamp{At: at}, Ply: 1, Side: rules.White, Attempt: m,
					Text: "Ra1-a3", Reason: rules.ReasonBlocked, Completed: true, Position: after}) {
					if x, ok := o.(game.Alert); ok && x.Kind == game.KindIllegalMove {
						al = &x
					}
				}
				if al == nil {
					t.Fatalf("illegal move %d: no illegal_move alert", n)
				}
				if res := al.Proposal["result"]; (res == "0-1") != (n == tt.lossAt) {
					t.Errorf("illegal move %d: proposal %v (loss expected at %d): %s", n, al.Proposal, tt.lossAt, al.Message)
				}
			}
		})
	}
}

func square(t *testing.T, s string) rules.Square {
	t.Helper()
	sq, err := rules.Chess8x8.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}
