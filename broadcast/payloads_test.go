package broadcast

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestMoveEventWire(t *testing.T) {
	ev := MoveEvent{
		Game: testGame, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: "f",
		Clock: &ClockPair{5400000, 5400000}, EMTMS: 3000,
		At: T(time.Date(2026, 2, 8, 9, 1, 2, 345678e3, time.FixedZone("CET", 3600))),
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"game":"open2026.1.1","ply":1,"san":"e4","uci":"e2e4","fen":"f",` +
		`"clock":{"white_ms":5400000,"black_ms":5400000},"emt_ms":3000,` +
		`"at":"2026-02-08T08:01:02.345Z","revision":0}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	ev.Clock = nil
	b, _ = json.Marshal(ev)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if v, ok := m["clock"]; !ok || v != nil {
		t.Errorf("no clock must be null, got %v", v)
	}
}

// TestPayloadFields checks every payload's field names against §3.
func TestPayloadFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want []string
	}{
		{"correction", Correction{}, []string{"game", "ply", "fen", "moves", "reason", "at", "revision"}},
		{"clock", ClockEvent{}, []string{"game", "white_ms", "black_ms", "running", "at"}},
		{"result", Result{}, []string{"game", "result", "termination", "article", "provisional", "at", "revision"}},
		{"state", GameState{}, []string{"game", "event", "round", "board", "white", "black", "variant", "ruleset",
			"fen", "moves", "san", "clock", "result", "status", "pgn", "revision", "updated_at"}},
		{"announcement", Announcement{}, []string{"game", "ply", "lang", "text", "uci", "kind", "at"}},
		{"status", BoardStatus{}, []string{"board_id", "port", "connected", "bus_address", "version", "serial", "clock", "last_seen", "error", "at"}},
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
	at := T(time.Date(2026, 2, 8, 8, 1, 2, 345e6, time.UTC))
	for _, v := range []any{
		&MoveEvent{Game: testGame, Ply: 3, SAN: "Nf3", At: at, Revision: 2, Notation: "M2.3"},
		&Correction{Game: testGame, Ply: 2, Moves: []string{"e2e4", "e7e5"}, Reason: "takeback", At: at, Revision: 1},
		&ClockEvent{Game: testGame, WhiteMS: 1, BlackMS: 2, Running: RunningBlack, At: at},
		&Result{Game: testGame, Result: "1/2-1/2", Termination: "fivefold", Article: "9.6.1", Provisional: true, At: at},
		&GameState{Game: testGame, Event: "open2026", Round: 1, Board: 1, Moves: []string{"e2e4"}, SAN: []string{"e4"}, UpdatedAt: at},
		&Announcement{Game: testGame, Ply: 1, Lang: "de", Text: "Emil vier", Kind: AnnounceMove, At: at},
		&BoardStatus{BoardID: "b1", Connected: true, LastSeen: at},
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

func TestTimeNullAndZone(t *testing.T) {
	b, _ := json.Marshal(struct {
		A Time `json:"a"`
	}{})
	if string(b) != `{"a":null}` {
		t.Errorf("zero time: %s", b)
	}
	var x struct {
		A Time `json:"a"`
	}
	if err := json.Unmarshal([]byte(`{"a":"2026-02-08T09:01:02.5+01:00"}`), &x); err != nil {
		t.Fatal(err)
	}
	if !x.A.Equal(time.Date(2026, 2, 8, 8, 1, 2, 5e8, time.UTC)) {
		t.Errorf("parsed %v", x.A)
	}
	if Millis(1500*time.Microsecond) != 1 {
		t.Errorf("Millis truncates to whole ms")
	}
}
