package pgn

import (
	"bytes"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// attachComment adds a comment after a move, taking out its clock
// commands.
func (r *Reader) attachComment(n *MoveNode, text []byte) {
	r.sink = commandSink{}
	rest := extractCommands(text, &r.sink, r.scratch)
	r.scratch = rest[:0]
	if r.sink.hasClock {
		n.Clock, n.HasClock = r.sink.clock, true
	}
	if r.sink.hasEMT {
		n.EMT, n.HasEMT = r.sink.emt, true
	}
	if r.sink.hasPockets {
		n.Pockets, n.HasPockets = r.sink.pockets, true
	}
	if r.sink.lift != "" {
		n.Lift = r.sink.lift
	}
	if len(rest) > 0 {
		n.Comment = joinCommentBytes(n.Comment, rest)
	}
}

func appendComment(dst, text []byte) []byte {
	text = collapseSpace(text)
	if len(text) == 0 {
		return dst
	}
	if len(dst) > 0 {
		dst = append(dst, ' ')
	}
	return append(dst, text...)
}

func joinComment(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + " " + b
}

func joinCommentBytes(a string, b []byte) string {
	b = collapseSpace(b)
	if len(b) == 0 {
		return a
	}
	if a == "" {
		return string(b)
	}
	return a + " " + string(b)
}

// collapseSpace rewrites b in place with every run of white space
// (newlines included) turned into one space and none at the ends: comment
// text is stored that way since the writer wraps lines anew.
func collapseSpace(b []byte) []byte {
	out := b[:0]
	space := false
	for _, c := range b {
		if isSpace(c) {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
	}
	return out
}

// commandSink receives the clock commands found in a comment.
type commandSink struct {
	clock, emt       time.Duration
	hasClock, hasEMT bool
	pockets          Pockets
	hasPockets       bool
	lift             string
	iccs             string // a xiangqi move's [%iccs h2e2]
}

// extractCommands removes the [%clk …], [%emt …], [%pocket …], [%lift …]
// and [%iccs …] commands with a valid value from text, records them in sink, and returns the rest with
// surrounding white space trimmed and the white space at a removed command
// collapsed. A command with a value that does not parse stays in the text
// (nothing is lost). out is reused scratch space.
func extractCommands(text []byte, sink *commandSink, out []byte) []byte {
	out = out[:0]
	rest := text
	for {
		k := bytes.Index(rest, []byte("[%"))
		if k < 0 {
			out = append(out, rest...)
			break
		}
		out = append(out, rest[:k]...)
		cmd := rest[k+2:]
		end := bytes.IndexByte(cmd, ']')
		if end < 0 {
			out = append(out, rest[k:]...)
			break
		}
		body := cmd[:end]
		name, value := body, []byte(nil)
		if j := bytes.IndexAny(body, " \t\r\n"); j >= 0 {
			name, value = body[:j], bytes.TrimSpace(body[j:])
		}
		taken := false
		switch string(name) {
		case "clk":
			if d, ok := parseClock(value); ok {
				sink.clock, sink.hasClock, taken = d, true, true
			}
		case "emt":
			if d, ok := parseClock(value); ok {
				sink.emt, sink.hasEMT, taken = d, true, true
			}
		case "pocket":
			if p, ok := ParsePockets(string(value)); ok {
				sink.pockets, sink.hasPockets, taken = p, true, true
			}
		case "lift":
			if _, err := rules.Chess8x8.ParseSquare(string(value)); err == nil {
				sink.lift, taken = string(value), true
			}
		case "iccs":
			if validICCS(value) {
				sink.iccs, taken = string(value), true
			}
		}
		after := cmd[end+1:]
		if taken {
			// Drop the command and the white space after it.
			for len(after) > 0 && isSpace(after[0]) {
				after = after[1:]
			}
		} else {
			out = append(out, rest[k:k+2+end+1]...)
		}
		rest = after
	}
	return bytes.TrimSpace(out)
}
