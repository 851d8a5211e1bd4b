package game

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestMoveEventWire(t *testing.T) {
	ev := MoveEvent{
		Game: testID, Ply: 1, SAN: "e4", UCI: "e2e4", FEN: "f",
		Clock: &ClockPair{WhiteMS: 5400000, BlackMS: 5400000}, EMTMS: 3000,
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

// TestPayloadFields checks every payload's field names against the
// contract (docs/contract.md §3).
func TestPayloadFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want []string
	}{
		{"move", MoveEvent{}, []string{"game", "ply", "san", "uci", "fen", "clock", "emt_ms", "at", "revision"}},
		{"correction", Correction{}, []string{"game", "ply", "fen", "moves", "reason", "at", "revision"}},
		{"clock", ClockEvent{}, []string{"game", "white_ms", "black_ms", "running", "at"}},
		{"result", Result{}, []string{"game", "result", "termination", "article", "provisional", "at", "revision"}},
		{"announcement", Announcement{}, []string{"game", "ply", "lang", "text", "uci", "kind", "at"}},
		{"alert", Alert{}, []string{"id", "game", "kind", "severity", "article", "ply", "message", "at"}},
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
	for _, v := range []Payload{
		MoveEvent{Game: testID, Ply: 3, SAN: "Nf3", At: at, Revision: 2, Notation: "M2.3"},
		Correction{Game: testID, Ply: 2, Moves: []string{"e2e4", "e7e5"}, Reason: Takeback, At: at, Revision: 1},
		ClockEvent{Game: testID, WhiteMS: 1, BlackMS: 2, Running: RunningBlack, At: at},
		Result{Game: testID, Result: "1/2-1/2", Termination: "fivefold", Article: "9.6.1", Provisional: true, At: at},
		Announcement{Game: testID, Ply: 1, Lang: "de", Text: "Emil vier", Kind: AnnounceMove, At: at},
		Alert{ID: "open2026.1.1.touch_move.3.0", Game: testID, Kind: KindTouchMove, Severity: Warn, Ply: 3,
			Proposal: map[string]any{"touched": []any{"g1"}}, Evidence: []Evidence{{At: at, Square: "g1", Piece: "N", Event: "lift"}}, At: at},
	} {
		t.Run(reflect.TypeOf(v).Name(), func(t *testing.T) {
			if v.GameID() != testID {
				t.Errorf("GameID %v", v.GameID())
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			back := reflect.New(reflect.TypeOf(v)).Interface()
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
