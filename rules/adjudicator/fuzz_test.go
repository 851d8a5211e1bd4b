package adjudicator

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// FuzzCommand: arbiter commands arrive as JSON from NATS, so any sequence
// of them must be answered without a panic; a refused command returns a
// *CommandError and changes nothing the adjudicator reports. An alert_id
// "#n" names the n-th alert emitted so far, so that the fuzzer reaches
// the alert paths (penalties, claims) too.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		`{"cmd":"acknowledge","alert_id":"#0"}`,
		`{"cmd":"apply_penalty","alert_id":"#0"}` + "\n" + `{"cmd":"apply_penalty","alert_id":"#0"}`,
		`{"cmd":"reject","alert_id":"#0"}`,
		`{"cmd":"apply_penalty","penalty":"time_add","side":"white","time_add_ms":120000}`,
		`{"cmd":"apply_penalty","penalty":"illegal_move","side":"black"}`,
		`{"cmd":"apply_penalty","penalty":"technical_error","side":"white"}`,
		`{"cmd":"reinstate","ply":2}`,
		`{"cmd":"reinstate","ply":-1}`,
		`{"cmd":"set_result","result":"1-0"}` + "\n" + `{"cmd":"set_result","result":"*"}`,
		`{"cmd":"adjust_clock","white_ms":1000,"black_ms":0,"running":"black"}`,
		`{"cmd":"claim","side":"white","claim":"threefold","move":"Nf3"}` + "\n" + `{"cmd":"uphold_claim","alert_id":"#1"}`,
		`{"cmd":"claim","side":"white","claim":"fifty"}` + "\n" + `{"cmd":"reject_claim","alert_id":"#1"}`,
		`{"cmd":"claim","side":"black","claim":"time_win"}` + "\n" + `{"cmd":"apply_penalty","alert_id":"#1"}`,
		`{"cmd":"draw_offer","side":"black"}`,
		`{"cmd":"nonsense"}`,
		`not json`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		g := newGame(t, "fide2018-rapid", "", "900+10", Options{Penalties: PenaltiesAuto})
		g.moves("e4 e5 Nf3")
		g.illegal("b8b6", true)
		at := g.at
		for _, line := range strings.Split(script, "\n") {
			var c Command
			if json.Unmarshal([]byte(line), &c) != nil {
				continue
			}
			if n, ok := strings.CutPrefix(c.AlertID, "#"); ok {
				ids := g.alertIDs()
				if i, err := strconv.Atoi(n); err == nil && i >= 0 && i < len(ids) {
					c.AlertID = ids[i]
				}
			}
			at = at.Add(time.Second)
			before := g.a.Ply()
			out, err := g.a.Command(c, at)
			if err != nil {
				var ce *CommandError
				if !errors.As(err, &ce) || len(out) != 0 || g.a.Ply() != before {
					t.Fatalf("%s: refused with %T %v, %d outputs, ply %d → %d", line, err, err, len(out), before, g.a.Ply())
				}
				continue
			}
			g.out = append(g.out, out...)
		}
	})
}

// alertIDs returns the ids of the alerts emitted so far, in order.
func (g *match) alertIDs() []string {
	var ids []string
	for _, o := range g.out {
		if al, ok := o.(game.Alert); ok {
			ids = append(ids, al.ID)
		}
	}
	return ids
}
