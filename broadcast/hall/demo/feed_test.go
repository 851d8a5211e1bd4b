package demo

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/arbiter"
)

// TestFeedLine: each published payload becomes one compact line; clock
// readings and foreign subjects are left out.
func TestFeedLine(t *testing.T) {
	at := time.Date(2026, 11, 22, 12, 1, 3, 0, time.UTC)
	g := broadcast.GameID{Event: "open2026", Round: 1, Board: 3}
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
		{"white move", "dgt.game.open2026.1.3.move", js(broadcast.MoveEvent{Game: g, Ply: 45, SAN: "Nf3", At: broadcast.T(at),
			Clock: &broadcast.ClockPair{WhiteMS: 5292000, BlackMS: 5380000}}),
			"12:01:03 open2026.1.3   23.    Nf3      (1:28:12 | 1:29:40)", true},
		{"black move without clock", "dgt.game.open2026.1.3.move", js(broadcast.MoveEvent{Game: g, Ply: 46, SAN: "O-O", At: broadcast.T(at)}),
			"12:01:03 open2026.1.3   23...  O-O", true},
		{"alert", "dgt.arbiter.open2026.1.3.alert", js(arbiter.Alert{Game: g.String(), Kind: "illegal_move", Severity: "crit",
			Article: "7.5.5", Message: "White's second illegal move", At: at}),
			"12:01:03 open2026.1.3   ALERT crit illegal_move 7.5.5  White's second illegal move", true},
		{"result", "dgt.game.open2026.1.3.end", js(broadcast.Result{Game: g, Result: "1-0", Termination: "checkmate", Article: "5.1.1",
			Provisional: true, At: broadcast.T(at)}),
			"12:01:03 open2026.1.3   RESULT 1-0 checkmate 5.1.1 (provisional: the arbiter confirms)", true},
		{"correction", "dgt.game.open2026.1.3.correction", js(broadcast.Correction{Game: g, Ply: 21, Reason: "reinstatement", At: broadcast.T(at)}),
			"12:01:03 open2026.1.3   CORRECTION back to ply 21 (reinstatement)", true},
		{"announcement", "dgt.relay.open2026.1.3.announce", js(broadcast.Announcement{Game: g, Ply: 1, Lang: "de", Text: "Springer Gustav eins – Felix drei",
			Kind: "move", At: broadcast.T(at)}),
			`12:01:03 open2026.1.3   SAY (de) "Springer Gustav eins – Felix drei"`, true},
		{"clock reading", "dgt.game.open2026.1.3.clock", js(broadcast.ClockEvent{Game: g, At: broadcast.T(at)}), "", false},
		{"public copy", "dgt.public.open2026.1.3.move", js(broadcast.MoveEvent{Game: g, Ply: 1, SAN: "e4", At: broadcast.T(at)}), "", false},
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
