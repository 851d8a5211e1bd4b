package dgt

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// captureDir is where the shared real captures live, relative to this
// package (AGPL data: read in place, never copied into the repo).
const captureDir = "../../shared/data/dgt-captures"

// captureNames are the captures with expected decodes.
var captureNames = []string{"1", "2", "johan"}

// loadCapture returns the messages of a capture (one base64 message per
// line) and the expected decodes (one JSON object per line). It skips
// the test when the captures are absent.
func loadCapture(t testing.TB, name string) (msgs [][]byte, want []map[string]any) {
	t.Helper()
	if _, err := os.Stat(captureDir); errors.Is(err, os.ErrNotExist) {
		t.Skipf("shared captures not present at %s", captureDir)
	}
	f, err := os.Open(filepath.Join(captureDir, name+".inbytes"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		b, err := base64.StdEncoding.DecodeString(sc.Text())
		if err != nil {
			t.Fatalf("%s.inbytes line %d: %v", name, len(msgs)+1, err)
		}
		msgs = append(msgs, b)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	j, err := os.Open(filepath.Join(captureDir, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	sc = bufio.NewScanner(j)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s.json line %d: %v", name, len(want)+1, err)
		}
		want = append(want, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != len(want) {
		t.Fatalf("%s: %d messages but %d expected decodes", name, len(msgs), len(want))
	}
	return msgs, want
}

// decodeAll feeds stream to a fresh decoder in chunks of chunk bytes and
// returns every message; any error fails the test.
func decodeAll(t *testing.T, stream []byte, chunk int) []Message {
	t.Helper()
	d := NewDecoder(SingleBoard)
	var out []Message
	for len(stream) > 0 {
		n := min(chunk, len(stream))
		d.Feed(stream[:n])
		stream = stream[n:]
		for {
			m, err := d.Next()
			if errors.Is(err, ErrNeedMore) {
				break
			}
			if err != nil {
				t.Fatalf("offset %d: %v", d.Offset(), err)
			}
			out = append(out, m)
		}
	}
	if d.Buffered() != 0 {
		t.Fatalf("%d bytes left over", d.Buffered())
	}
	return out
}

func TestCapturesGolden(t *testing.T) {
	for _, name := range captureNames {
		t.Run(name, func(t *testing.T) {
			raw, want := loadCapture(t, name)
			var stream []byte
			for _, r := range raw {
				stream = append(stream, r...)
			}
			for _, chunk := range []int{len(stream), 1, 3, 7, 64} {
				got := decodeAll(t, stream, chunk)
				if len(got) != len(want) {
					t.Fatalf("chunk %d: decoded %d messages, want %d", chunk, len(got), len(want))
				}
				for i := range got {
					if err := compareJSON(got[i], want[i]); err != nil {
						t.Fatalf("chunk %d, message %d (% x): %v", chunk, i+1, raw[i], err)
					}
				}
			}
		})
	}
}

// compareJSON checks every field of the expected decode against m.
func compareJSON(m Message, w map[string]any) error {
	mismatch := func(key string, got, want any) error {
		return errorf("%s: got %v, want %v", key, got, want)
	}
	switch {
	case w["board"] != nil:
		d, ok := m.(BoardDump)
		if !ok {
			return errorf("got %T, want a board dump", m)
		}
		letters := w["board"].([]any)
		if len(letters) != NumFields {
			return errorf("expected board has %d squares", len(letters))
		}
		for i, l := range letters {
			if got := d.Fields[i].String(); got != l.(string) {
				return mismatch("board["+Field(i).Name()+"]", got, l)
			}
		}
		if len(w) != 1 {
			return errorf("unchecked keys in %v", w)
		}
	case w["field"] != nil:
		u, ok := m.(FieldUpdate)
		if !ok {
			return errorf("got %T, want a field update", m)
		}
		if got := u.Field.Name(); got != w["field"] {
			return mismatch("field", got, w["field"])
		}
		if got := u.Piece.String(); got != w["piece"] {
			return mismatch("piece", got, w["piece"])
		}
		if u.Extra != 0 {
			return mismatch("extra bits", u.Extra, 0)
		}
		if len(w) != 2 {
			return errorf("unchecked keys in %v", w)
		}
	case w["left_clock"] != nil:
		c, ok := m.(ClockTimes)
		if !ok {
			return errorf("got %T, want clock times", m)
		}
		for _, side := range []struct {
			key string
			s   ClockSide
		}{{"left_clock", c.Left}, {"right_clock", c.Right}} {
			ws := w[side.key].(map[string]any)
			for k, got := range map[string]any{
				"hours": float64(side.s.Hours), "minutes": float64(side.s.Minutes), "seconds": float64(side.s.Seconds),
				"final_flag": side.s.FinalFlag, "flag": side.s.Flag, "time_per_move": side.s.TimePerMove,
			} {
				if ws[k] != got {
					return mismatch(side.key+"."+k, got, ws[k])
				}
			}
			if len(ws) != 6 {
				return errorf("unchecked keys in %v", ws)
			}
		}
		for k, got := range map[string]bool{
			"clock_running": c.Status.Running(), "right_high": c.Status.RightHigh(),
			"battery_indicator": c.Status.BatteryLow(), "left_turn": c.Status.LeftTurn(),
			"right_turn": c.Status.RightTurn(), "no_clock": c.Status.NoClock(),
		} {
			if w[k] != got {
				return mismatch(k, got, w[k])
			}
		}
		if len(w) != 8 {
			return errorf("unchecked keys in %v", w)
		}
	default:
		return errorf("unknown expected decode %v", w)
	}
	return nil
}

// TestCapturesRunningSide checks the derived running side against
// the times themselves: whenever a display counts down between two
// readings of a running clock, it is the side RunningSide names.
func TestCapturesRunningSide(t *testing.T) {
	for _, name := range captureNames {
		t.Run(name, func(t *testing.T) {
			raw, _ := loadCapture(t, name)
			var prev *ClockTimes
			checked := 0
			for i, r := range raw {
				m, _, err := ParseMessage(SingleBoard, r)
				if err != nil {
					t.Fatalf("message %d: %v", i+1, err)
				}
				c, ok := m.(ClockTimes)
				if !ok {
					continue
				}
				if prev != nil && prev.RunningSide() == c.RunningSide() && c.RunningSide() != NoSide {
					l := c.Left.Duration() < prev.Left.Duration()
					r := c.Right.Duration() < prev.Right.Duration()
					if l && r {
						t.Fatalf("message %d: both sides counted down", i+1)
					}
					if l && c.RunningSide() != LeftSide || r && c.RunningSide() != RightSide {
						t.Fatalf("message %d: %v counted down but RunningSide is %v", i+1, map[bool]string{true: "left", false: "right"}[l], c.RunningSide())
					}
					if l || r {
						checked++
					}
				}
				prev = &c
			}
			if checked < 100 {
				t.Fatalf("only %d countdowns checked", checked)
			}
		})
	}
}
