package board

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// captureGaps are the times assumed between two messages of a capture
// (they carry no timestamps): 700 ms is longer than the settle window, so
// every message is judged, and shorter than the hold, so pieces in the air
// are never reported; 100 ms judges only at rest and lever presses; 3 s
// reports every hand in the air. Completion is the clock lever, read from
// the clock messages. The games must come out the same every way.
var captureGaps = []time.Duration{700 * time.Millisecond, 100 * time.Millisecond, 3 * time.Second}

// expectedMoves reads 1.uci / 2.uci ("1. e2e4 e7e5" lines) or a PGN's SAN
// movetext, as UCI.
func expectedMoves(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(dgttest.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	text = regexp.MustCompile(`(?s)\[[^\]]*\]`).ReplaceAllString(text, " ")
	text = regexp.MustCompile(`(?s)\{[^}]*\}`).ReplaceAllString(text, " ")
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var out []string
	for _, tok := range strings.Fields(text) {
		if strings.HasSuffix(tok, ".") || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*" {
			continue
		}
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			tok = tok[i+1:]
		}
		m, err := pos.ParseMove(tok)
		if err != nil {
			t.Fatalf("%s: move %q: %v", name, tok, err)
		}
		out = append(out, pos.UCI(m))
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// replayCapture feeds a capture to a tracker and returns all events.
func replayCapture(t testing.TB, msgs []dgt.Message, gap time.Duration, opts TrackerOptions) ([]game.Event, *Tracker) {
	tr, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	at := t0
	var evs []game.Event
	for _, m := range msgs {
		at = at.Add(gap)
		evs = append(evs, feed(tr, at, m)...)
	}
	evs = append(evs, tr.Finish(at.Add(time.Minute))...)
	return evs, tr
}

func captureOptions() TrackerOptions {
	return TrackerOptions{
		Start:           chess.StartPosition(chess.Standard),
		AutoOrientation: true,
		KingsCentre:     true,
		Setup:           ChessSetup(chess.Standard),
		Reread:          true,
	}
}

func TestRealCaptures(t *testing.T) {
	for _, c := range []struct{ in, want, result string }{
		{"1.inbytes", "1.uci", ""},
		{"2.inbytes", "2.uci", ""},
		{"johan.inbytes", "johan.pgn", "1-0"},
	} {
		for _, gap := range captureGaps {
			t.Run(c.in+"/"+gap.String(), func(t *testing.T) {
				msgs := dgttest.Messages(t, strings.TrimSuffix(c.in, ".inbytes"))
				want := expectedMoves(t, c.want)
				evs, tr := replayCapture(t, msgs, gap, captureOptions())
				got := ucis(evs)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					for _, e := range evs {
						switch e.(type) {
						case game.ClockChanged, game.TurnStarted:
							continue
						}
						t.Logf("%v %T %+v", e.When().Sub(t0), e, e)
					}
					t.Fatalf("moves\n got %v\nwant %v", got, want)
				}
				var gestures []string
				counts := map[string]int{}
				for _, e := range evs {
					counts[strings.TrimPrefix(fmt.Sprintf("%T", e), "*board.")]++
					if g, ok := e.(game.ResultGesture); ok {
						gestures = append(gestures, g.Result)
					}
					if il, ok := e.(game.IllegalMove); ok && il.Completed {
						t.Errorf("completed illegal move %+v", il)
					}
				}
				if c.result != "" && (len(gestures) != 1 || gestures[0] != c.result) {
					t.Errorf("result gestures %v, want [%s]", gestures, c.result)
				}
				if c.result == "" && len(gestures) != 0 {
					t.Errorf("result gestures %v, want none", gestures)
				}
				t.Logf("%s: %d messages, %d plies, rotated %v, events %v", c.in, len(msgs), tr.Completed(), tr.Rotated(), counts)
			})
		}
	}
}
