package demo

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestFeedLine: each published payload becomes one compact line; clock
// readings and foreign subjects are left out.
func TestFeedLine(t *testing.T) {
	at := time.Date(2026, 11, 22, 12, 1, 3, 0, time.UTC)
	g := game.ID{Event: "open2026", Round: 1, Board: 3}
	js := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	f := NewFeed(nil, FeedOptions{Prefix: "dgt", Location: time.UTC})
	for _, c := range []struct {
		name, subject string
		data          []byte
		want          string
		ok            bool
	}{
		{"white move", "dgt.game.open2026.1.3.move", js(game.MoveEvent{Game: g, Ply: 45, SAN: "Nf3", At: game.T(at),
			Clock: &game.ClockPair{WhiteMS: 5292000, BlackMS: 5380000}}),
			"12:01:03 open2026.1.3   23.    Nf3      (1:28:12 | 1:29:40)", true},
		{"black move without clock", "dgt.game.open2026.1.3.move", js(game.MoveEvent{Game: g, Ply: 46, SAN: "O-O", At: game.T(at)}),
			"12:01:03 open2026.1.3   23...  O-O", true},
		{"alert", "dgt.arbiter.open2026.1.3.alert", js(game.Alert{Game: g, Kind: "illegal_move", Severity: "crit",
			Article: "7.5.5", Message: "White's second illegal move", At: game.T(at)}),
			"12:01:03 open2026.1.3   ALERT crit illegal_move 7.5.5  White's second illegal move", true},
		{"result", "dgt.game.open2026.1.3.end", js(game.Result{Game: g, Result: "1-0", Termination: "checkmate", Article: "5.1.1",
			Provisional: true, At: game.T(at)}),
			"12:01:03 open2026.1.3   RESULT 1-0 checkmate 5.1.1 (provisional: the arbiter confirms)", true},
		{"correction", "dgt.game.open2026.1.3.correction", js(game.Correction{Game: g, Ply: 21, Reason: "reinstatement", At: game.T(at)}),
			"12:01:03 open2026.1.3   CORRECTION back to ply 21 (reinstatement)", true},
		{"announcement", "dgt.relay.open2026.1.3.announce", js(game.Announcement{Game: g, Ply: 1, Lang: "de", Text: "Springer Gustav eins – Felix drei",
			Kind: "move", At: game.T(at)}),
			`12:01:03 open2026.1.3   SAY (de) "Springer Gustav eins – Felix drei"`, true},
		{"clock reading", "dgt.game.open2026.1.3.clock", js(game.ClockEvent{Game: g, At: game.T(at)}), "", false},
		{"public copy", "dgt.public.open2026.1.3.move", js(game.MoveEvent{Game: g, Ply: 1, SAN: "e4", At: game.T(at)}), "", false},
		{"bad payload", "dgt.game.open2026.1.3.move", []byte("{"), "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := f.Line(c.subject, c.data)
			if ok != c.ok || got != c.want {
				t.Errorf("Line(%s)\n got %q %v\nwant %q %v", c.subject, got, ok, c.want, c.ok)
			}
		})
	}
}
