package pgn

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzReader checks that reading any input never panics and always ends:
// every call to Next either returns io.EOF or consumes input, so a stream
// of n bytes yields at most n+1 results. A game that reads without error
// (parse-only or replayed) must survive a write and read back with the
// same moves and clocks.
func FuzzReader(f *testing.F) {
	seeds := []string{
		"[Event \"E\"]\n\n1. e4 {c} e5 (1... c5 $1 (1... e6)) 2. Nf3! *",
		"1. e4 {[%clk 0:00:03.4] [%emt 1:00:00]} ; x\n e5 1-0\n[Event",
		"{ unterminated\n[Event \"x\"]\n1. d4 *",
		"% escape\n[A \"\\\"\\\\\"]\n1.e4 e5 2.Nf3 Nc6 1/2-1/2",
		"((((", "))))", "$$$", "[[[", "\"", "1...", "<<<", "\ufeff",
		"[FEN \"8/8/8/8/8/8/k7/K7 b - - 3 41\"]\n41... Ka3 *",
		"[Variant \"Xiangqi\"]\n1. C2.5 {[%iccs h2e2]} H8+7 {[%iccs h9g7]} 2. R+.3 C2=5 h0g2 1-0",
	}
	for _, s := range seeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, replay bool) {
		opts := ReaderOptions{ParseOnly: !replay}
		r := NewReader(bytes.NewReader(data), opts)
		for calls := 0; ; calls++ {
			if calls > len(data)+1 {
				t.Fatalf("more than %d results from %d bytes", calls, len(data))
			}
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			var se *SyntaxError
			var me *MoveError
			if err != nil && !errors.As(err, &se) && !errors.As(err, &me) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			if err != nil {
				continue
			}
			var b strings.Builder
			if werr := Write(&b, g, WriteOptions{}); werr != nil {
				t.Fatal(werr)
			}
			back, err := NewReader(strings.NewReader(b.String()), opts).Next()
			if err != nil {
				t.Fatalf("written game does not read back: %v\n%s", err, b.String())
			}
			if len(back.Moves) != len(g.Moves) {
				t.Fatalf("round trip changed %d moves to %d\n%s", len(g.Moves), len(back.Moves), b.String())
			}
			for i := range g.Moves {
				if back.Moves[i].SAN != g.Moves[i].SAN || back.Moves[i].Clock != g.Moves[i].Clock {
					t.Fatalf("move %d: %q %v became %q %v", i, g.Moves[i].SAN, g.Moves[i].Clock, back.Moves[i].SAN, back.Moves[i].Clock)
				}
			}
		}
	})
}
