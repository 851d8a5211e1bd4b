package broadcast

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// growingStates returns the JSON of a game's states after each of plies
// moves, as the hall publishes them (moves, SAN, clocks and times used
// growing; FEN, clock, time changing; a PGN that grows before its result).
func growingStates(t testing.TB, plies int) [][]byte {
	t.Helper()
	st := game.GameState{Game: game.ID{Event: "open2026", Round: 3, Board: 7}, Event: "open2026", Round: 3, Board: 7,
		White: "Nguyễn, An \"Ace\"", Black: "Trần, Bình", Variant: "chess", Ruleset: "fide2018-standard", Result: "*", Status: "playing",
		EventName: "Open 2026", Site: "Hà Nội", TimeControl: "5400+30", Started: game.T(time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC))}
	var out [][]byte
	pgn := "[Event \"Open 2026\"]\n\n"
	for i := range plies {
		st.Moves = append(st.Moves, fmt.Sprintf("e%dg%d", i%8+1, (i+3)%8+1))
		st.SAN = append(st.SAN, fmt.Sprintf("N%c%d+", 'a'+i%8, i%8+1))
		st.Clocks = append(st.Clocks, 5400000-int64(i)*1000)
		st.EMT = append(st.EMT, int64(i%7)*1000+123)
		st.FEN = fmt.Sprintf("rnbqkbnr/pppppppp/8/8/%d/8/PPPPPPPP/RNBQKBNR w KQkq - 0 %d", i%8, i/2+1)
		st.Clock = &game.ClockPair{WhiteMS: 5400000 - int64(i)*1000, BlackMS: 5399000 - int64(i)*900}
		st.UpdatedAt = game.T(time.Date(2026, 2, 8, 8, 0, i, 0, time.UTC))
		pgn += fmt.Sprintf("%d. %s ", i+1, st.SAN[i])
		st.PGN = pgn + "*\n"
		if i == plies-1 {
			st.Result, st.Status, st.Termination = "1-0", "ended", "normal"
		}
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestJSONDelta: each state of a growing game is rebuilt byte for byte
// from the one before and its delta, and the delta stays the size of a
// move's change while the state grows with the game.
func TestJSONDelta(t *testing.T) {
	states := growingStates(t, 121)
	var sizes []int
	for i := 1; i < len(states); i++ {
		d, ok := jsonDelta(states[i-1], states[i])
		if !ok {
			t.Fatalf("state %d: no delta", i)
		}
		got, err := applyJSONDelta(states[i-1], d)
		if err != nil || !bytes.Equal(got, states[i]) {
			t.Fatalf("state %d: rebuilt %s (%v)\nwant %s", i, got, err, states[i])
		}
		sizes = append(sizes, len(d))
	}
	if sizes[len(sizes)-2] > sizes[9]+20 {
		t.Errorf("delta at ply 120 is %d bytes, at ply 10 %d: it grows with the game", sizes[len(sizes)-2], sizes[9])
	}
	if n := len(states[119]); sizes[118] > n/10 {
		t.Errorf("delta of %d bytes for a state of %d", sizes[118], n)
	}
	t.Logf("state at ply 120: %d bytes; its delta %d bytes (at ply 10: %d)", len(states[119]), sizes[118], sizes[9])
}

// TestJSONDeltaShapes: members added, removed, reordered, nested objects,
// strings holding commas, braces, quotes and escapes; and what is not a
// compact object has no delta.
func TestJSONDeltaShapes(t *testing.T) {
	pairs := [][2]string{
		{`{}`, `{"a":1}`},
		{`{"a":1}`, `{}`},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`},
		{`{"a":"x,y}","b":[1,{"c":"]"}]}`, `{"a":"x,y},z","b":[1,{"c":"]"},2]}`},
		{`{"s":"a\"b\\","t":{"u":{"v":1,"w":[1,2]},"x":"y"}}`, `{"s":"a\"b\\c","t":{"u":{"v":2,"w":[1,2,3]},"x":"y"}}`},
		{`{"k":null}`, `{"k":{"a":1}}`},
		{`{"\"":1}`, `{"\"":2,"\\":3}`},
	}
	for _, p := range pairs {
		d, ok := jsonDelta([]byte(p[0]), []byte(p[1]))
		if !ok {
			t.Errorf("%s → %s: no delta", p[0], p[1])
			continue
		}
		got, err := applyJSONDelta([]byte(p[0]), d)
		if err != nil || string(got) != p[1] {
			t.Errorf("%s → %s: got %s (%v)", p[0], p[1], got, err)
		}
	}
	for _, bad := range []string{``, `[]`, `{"a":1} `, `{ "a":1}`, `{"a":"}`, `{"a"}`, `{a:1}`, `"x"`} {
		if _, ok := jsonDelta([]byte(`{"a":1}`), []byte(bad)); ok {
			t.Errorf("a delta to %q", bad)
		}
	}
	// A delta applied to another base is refused or makes something else,
	// never a panic.
	d, _ := jsonDelta([]byte(`{"a":1,"b":2,"c":3}`), []byte(`{"a":1,"b":2,"c":4}`))
	if _, err := applyJSONDelta([]byte(`{"a":1}`), d); err == nil {
		t.Error("a delta applied to a base with fewer members")
	}
}

// FuzzJSONDelta: whatever two inputs, a delta made of them rebuilds the
// second exactly; applying any bytes as a delta never panics.
func FuzzJSONDelta(f *testing.F) {
	states := growingStates(f, 3)
	f.Add(states[0], states[1], []byte("o\x01\x00\x00"))
	f.Add([]byte(`{"a":[1,2],"b":{"c":"d"}}`), []byte(`{"b":{"c":"e"},"a":[1,2,3]}`), []byte("s"))
	f.Fuzz(func(t *testing.T, base, next, junk []byte) {
		if d, ok := jsonDelta(base, next); ok {
			got, err := applyJSONDelta(base, d)
			if err != nil || !bytes.Equal(got, next) {
				t.Fatalf("%q → %q: got %q (%v)", base, next, got, err)
			}
		}
		applyJSONDelta(base, junk)
		if strings.Count(string(base), "{") < 50 {
			applyJSONDelta(next, junk)
		}
	})
}

// BenchmarkJSONDelta: the delta of a state at ply 120 from the one before
// (what the outbox computes for each state it journals).
func BenchmarkJSONDelta(b *testing.B) {
	states := growingStates(b, 121)
	b.SetBytes(int64(len(states[120])))
	for b.Loop() {
		if _, ok := jsonDelta(states[119], states[120]); !ok {
			b.Fatal("no delta")
		}
	}
}
