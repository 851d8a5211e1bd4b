package lichess

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// What Lichess does with a pushed game (its broadcast push): it drops a
// game whose player has neither a usable name nor a FIDE id, removes
// one-letter and "unknown" names, orders boards by Round "r.b", and keeps
// clocks only from moves that carry [%clk]. The pusher sends every game so
// that Lichess keeps it: [prepareGame].

var tagRE = regexp.MustCompile(`^\[([A-Za-z0-9_]+) "(.*)"\]\s*$`)

// splitGames splits a multi-game PGN (each game starting with its tag
// section after a blank line) into its games; a comment is never cut.
func splitGames(pgn string) []string {
	var out []string
	rest := strings.TrimLeft(pgn, "\r\n")
	from, comment := 0, false
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '{':
			comment = true
		case c == '}':
			comment = false
		case c == '\n' && !comment && strings.HasPrefix(rest[i:], "\n\n[Event "):
			out = append(out, strings.TrimRight(rest[from:i], "\r\n")+"\n")
			from = i + 2
		}
	}
	if from < len(rest) {
		out = append(out, strings.TrimRight(rest[from:], "\r\n")+"\n")
	}
	return out
}

// joinGames is the inverse of splitGames: games separated by a blank line.
func joinGames(games []string) string { return strings.Join(games, "\n") }

// usableName reports whether Lichess keeps a player's name.
func usableName(s string) bool {
	s = strings.TrimSpace(s)
	return utf8.RuneCountInString(s) > 1 && !strings.EqualFold(s, "unknown") && s != "??"
}

// preparedGame is a game as it is pushed and what was done to it.
type preparedGame struct {
	text string
	// named is the sides given a placeholder name ("Board 3 White"): no
	// usable name and no FIDE id in the public copy.
	named []string
	// moves and unclocked count the moves and those without [%clk].
	moves, unclocked int
	round            string // the Round tag as pushed
}

// prepareGame gives both players a name Lichess keeps when the game has
// neither a name nor a FIDE id for them (a placeholder naming the board:
// a game Lichess would drop is pushed rather than lost), writes Round
// "r.b" from the GameId when the Round tag lacks the board, and counts the
// moves without a clock reading.
func prepareGame(g string) preparedGame {
	head, body, _ := strings.Cut(g, "\n\n")
	lines := strings.Split(head, "\n")
	tags := map[string]string{}
	at := map[string]int{}
	for i, l := range lines {
		if m := tagRE.FindStringSubmatch(l); m != nil {
			tags[m[1]] = m[2]
			at[m[1]] = i
		}
	}
	p := preparedGame{}
	round := tags["Round"]
	if !strings.Contains(round, ".") {
		if parts := strings.Split(tags["GameId"], "."); len(parts) == 3 {
			round = parts[1] + "." + parts[2]
			set(&lines, at, "Round", round)
		}
	}
	p.round = round
	board := round
	if _, b, ok := strings.Cut(round, "."); ok {
		board = b
	}
	for _, side := range []string{"White", "Black"} {
		fide := strings.TrimSpace(tags[side+"FideId"])
		if usableName(tags[side]) || fide != "" && fide != "0" {
			continue
		}
		set(&lines, at, side, fmt.Sprintf("Board %s %s", board, side))
		p.named = append(p.named, side)
	}
	p.text = strings.Join(lines, "\n") + "\n\n" + body
	p.moves, p.unclocked = countMoves(body)
	return p
}

// set writes tag k's value in the tag lines (adding it before the blank
// line when absent).
func set(lines *[]string, at map[string]int, k, v string) {
	l := fmt.Sprintf("[%s %q]", k, v)
	if i, ok := at[k]; ok {
		(*lines)[i] = l
		return
	}
	*lines = append(*lines, l)
	at[k] = len(*lines) - 1
}

// countMoves counts the moves of a movetext and those not followed by a
// comment holding [%clk].
func countMoves(body string) (moves, unclocked int) {
	clocked := true // the last move had its clock
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '{':
			j := strings.IndexByte(body[i:], '}')
			if j < 0 {
				j = len(body) - i - 1
			}
			if strings.Contains(body[i:i+j], "[%clk") && !clocked {
				clocked = true
				unclocked--
			}
			i += j + 1
			continue
		case c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '(' || c == ')':
			i++
			continue
		}
		j := i
		for j < len(body) && !strings.ContainsRune(" \n\r\t{()", rune(body[j])) {
			j++
		}
		tok := body[i:j]
		i = j
		switch tok {
		case "*", "1-0", "0-1", "1/2-1/2":
			continue
		}
		k := 0 // a move number, "12." or "12...", maybe glued to its move
		for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
			k++
		}
		if k > 0 && k < len(tok) && tok[k] == '.' {
			tok = strings.TrimLeft(tok[k:], ".")
		}
		if tok == "" || tok[0] == '$' {
			continue
		}
		moves++
		unclocked++
		clocked = false
	}
	return moves, unclocked
}
