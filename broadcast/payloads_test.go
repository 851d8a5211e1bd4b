package broadcast

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestPayloadFields checks the field names of the payloads defined here
// against contract §3 (the game's payloads are checked in rules/game).
func TestPayloadFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want []string
	}{
		{"state", game.GameState{}, []string{"game", "event", "round", "board", "white", "black", "variant", "ruleset",
			"fen", "moves", "san", "clock", "result", "status", "pgn", "revision", "updated_at"}},
		{"status", game.BoardStatus{}, []string{"board_id", "port", "connected", "bus_address", "version", "serial", "clock", "last_seen", "error", "at"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if len(m) != len(tc.want) {
				t.Errorf("%d fields, want %d: %s", len(m), len(tc.want), b)
			}
			for _, k := range tc.want {
				if _, ok := m[k]; !ok {
					t.Errorf("field %q missing in %s", k, b)
				}
			}
		})
	}
}

func TestPayloadRoundTrip(t *testing.T) {
	at := game.T(time.Date(2026, 2, 8, 8, 1, 2, 345e6, time.UTC))
	for _, v := range []any{
		&game.GameState{Game: testGame, Event: "open2026", Round: 1, Board: 1, Moves: []string{"e2e4"}, SAN: []string{"e4"}, UpdatedAt: at},
		&game.BoardStatus{BoardID: "b1", Connected: true, LastSeen: at},
	} {
		t.Run(reflect.TypeOf(v).Elem().Name(), func(t *testing.T) {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			back := reflect.New(reflect.TypeOf(v).Elem()).Interface()
			if err := json.Unmarshal(b, back); err != nil {
				t.Fatal(err)
			}
			b2, _ := json.Marshal(back)
			if string(b) != string(b2) {
				t.Errorf("round trip changed\n%s\n%s", b, b2)
			}
		})
	}
}
