package obp

import (
	"os"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestDocExamples keeps docs/open-board-protocol.md in step with the
// code: every board line of its examples decodes (checksum included) and
// encodes back to the same text, and every host line is a command.
func TestDocExamples(t *testing.T) {
	b, err := os.ReadFile("../docs/open-board-protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	g := rules.Geometry{}
	boards, hosts := 0, 0
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "board  "):
			line := strings.Fields(strings.TrimPrefix(l, "board  "))
			// The example lines end where the annotations begin: at the
			// field holding the checksum.
			n := 0
			for n < len(line) && !strings.Contains(line[n], "*") {
				n++
			}
			text := strings.Join(line[:n+1], " ")
			m, err := Parse([]byte(text), g)
			if err != nil {
				t.Errorf("%q: %v", text, err)
				continue
			}
			if id, ok := m.(Ident); ok {
				g = id.Geo
			}
			if got := strings.TrimSuffix(string(m.AppendLine(nil, g)), "\n"); got != text {
				t.Errorf("%q encodes back as %q", text, got)
			}
			boards++
		case strings.HasPrefix(l, "host   ") && !strings.Contains(l, "empty line"):
			if _, err := ParseCommand([]byte(strings.TrimPrefix(l, "host   "))); err != nil {
				t.Errorf("%q: %v", l, err)
			}
			hosts++
		}
	}
	if boards < 15 || hosts < 3 {
		t.Errorf("found %d board and %d host lines: the examples moved?", boards, hosts)
	}
}
