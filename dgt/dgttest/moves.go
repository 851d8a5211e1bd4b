package dgttest

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// tagsAndComments matches PGN tag pairs and brace comments.
var tagsAndComments = regexp.MustCompile(`(?s)\[[^\]]*\]|\{[^}]*\}`)

// Moves returns the game played in capture name ([Game1], [Game2],
// [GameJohan]) as UCI moves from the standard start: read from <name>.uci
// ("1. e2e4 e7e5" lines) when it exists, else from <name>.pgn (SAN
// movetext; tags, comments, move numbers and the result are left out).
// Every move is parsed and played, so a move that is not legal in its
// position fails the test (naming file and move); the folder missing skips
// it like [Dir].
func Moves(tb testing.TB, name string) []string {
	tb.Helper()
	file := Path(tb, name+".uci")
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		file = Path(tb, name+".pgn")
		b, err = os.ReadFile(file)
	}
	if err != nil {
		tb.Fatalf("dgttest: %v", err)
	}
	text := tagsAndComments.ReplaceAllString(string(b), " ")
	pos := rules.Position(chess.StartPosition(chess.Standard))
	var out []string
	for _, tok := range strings.Fields(text) {
		if strings.HasSuffix(tok, ".") || tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*" {
			continue
		}
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			tok = tok[i+1:] // "1.e4"
		}
		m, err := pos.ParseMove(tok)
		if err != nil {
			tb.Fatalf("dgttest: %s: move %d %q: %v", file, len(out)+1, tok, err)
		}
		out = append(out, pos.UCI(m))
		if pos, err = pos.Play(m); err != nil {
			tb.Fatalf("dgttest: %s: move %d %q: %v", file, len(out), tok, err)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("dgttest: %s holds no moves", file)
	}
	return out
}
