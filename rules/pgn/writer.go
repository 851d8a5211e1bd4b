package pgn

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dgtbridge/dgtbridge/rules"
)

// WriteOptions configure Write. The zero value writes everything the game
// holds with lines of at most 80 characters.
type WriteOptions struct {
	// Width is the maximum line length of the movetext (a single longer
	// token gets a line of its own); 0 means 80, the PGN export format's
	// limit.
	Width int
	// NoVariations leaves variations out.
	NoVariations bool
	// NoComments leaves comments and NAGs out (clock commands are still
	// written unless NoClocks).
	NoComments bool
	// NoClocks leaves the [%clk] and [%emt] commands out.
	NoClocks bool
}

// rosterTags are the Seven Tag Roster in export order with the value
// written when a game lacks one (PGN standard §8.1.1).
var rosterTags = [...]Tag{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"White", "?"}, {"Black", "?"}, {"Result", "*"},
}

// setupTags are written by Write from g.Start when it is set.
var setupTags = [...]string{"Variant", "SetUp", "FEN"}

// Write writes g in PGN export format followed by a blank line, so that
// games written one after another make a multi-game file:
//
//   - the Seven Tag Roster first, in its order ("?" for missing values,
//     held values kept even when empty; Result is g.Result), then
//     Variant/SetUp/FEN, then the other tags in the order they are held
//     (Round "r.b", WhiteFideId, BlackFideId, TimeControl, GameId … as the
//     Lichess broadcast convention wants);
//   - when g.Start is set, Variant (Lichess spelling, e.g. "Chess960";
//     none for standard chess), SetUp "1" and FEN are derived from it
//     (a Chess960 game always gets its FEN), overriding those tags; without
//     Start they are written as held;
//   - the movetext wrapped at WriteOptions.Width with move numbers, SAN
//     (when g.Start is set, the moves are played from it and written in
//     the SAN the position formats, whatever MoveNode.SAN holds, so a game
//     built in code needs only MoveNode.Move; without Start, MoveNode.SAN
//     as held), NAGs
//     as $n, comments as { … } with [%clk h:mm:ss] and [%emt h:mm:ss]
//     after every move that has them (and in team-drop games [%pocket W/B]
//     and [%lift e5], written even with NoComments and NoClocks, since the
//     game does not replay without them), variations in parentheses, and
//     the result.
//
// A '}' inside comment text would end the comment early, so it is written
// as ')'. Newlines in tag values become spaces. A move that does not play
// from Start (main line or variation) is a *MoveError wrapping ErrBadMove,
// and then nothing is written.
func Write(w io.Writer, g *Game, opts WriteOptions) error {
	var buf bytes.Buffer
	bw := bufio.NewWriterSize(&buf, 4096)
	writeTags(bw, g)
	bw.WriteByte('\n')
	mw := &movetextWriter{w: bw, width: opts.Width, opts: opts, game: g}
	if mw.width <= 0 {
		mw.width = 80
	}
	number, turn := g.startNumber()
	force := false
	if g.Comment != "" && !opts.NoComments {
		mw.comment(g.Comment, nil, "")
		force = true
	}
	if err := mw.line(g.Moves, movetextPosition(g.Start), number, turn, force, false); err != nil {
		return err
	}
	mw.token(g.result())
	bw.WriteString("\n\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// String returns g in PGN as Write writes it with default options.
func (g *Game) String() string {
	var b strings.Builder
	_ = Write(&b, g, WriteOptions{})
	return b.String()
}

func (g *Game) result() string {
	if g.Result != "" {
		return g.Result
	}
	if r, ok := g.Lookup("Result"); ok && isResult(r) {
		return r
	}
	return "*"
}

func writeTags(w *bufio.Writer, g *Game) {
	for _, t := range rosterTags {
		v, ok := g.Lookup(t.Name)
		if t.Name == "Result" {
			v, ok = g.result(), true
		}
		if !ok {
			v = t.Value
		}
		writeTag(w, t.Name, v)
	}
	derived := g.Start != nil
	if derived {
		variant := g.Start.Variant()
		if vt := VariantTag(variant); vt != "" {
			writeTag(w, "Variant", vt)
		}
		if fen := g.Start.FEN(); variant == "chess960" || !isStandardStart(g.Start) {
			writeTag(w, "SetUp", "1")
			writeTag(w, "FEN", fen)
		}
	}
outer:
	for _, t := range g.Tags {
		for _, r := range rosterTags {
			if t.Name == r.Name {
				continue outer
			}
		}
		if derived {
			for _, s := range setupTags {
				if t.Name == s {
					continue outer
				}
			}
		}
		writeTag(w, t.Name, t.Value)
	}
}

// isStandardStart reports whether pos is its variant's usual start.
func isStandardStart(pos rules.Position) bool {
	std, err := Position(pos.Variant(), "")
	return err == nil && std.FEN() == pos.FEN()
}

func writeTag(w *bufio.Writer, name, value string) {
	w.WriteByte('[')
	w.WriteString(name)
	w.WriteString(` "`)
	for i := 0; i < len(value); i++ {
		switch c := value[i]; c {
		case '"', '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case '\n', '\r':
			w.WriteByte(' ')
		default:
			w.WriteByte(c)
		}
	}
	w.WriteString("\"]\n")
}

// startNumber returns the move number and side to move before the first
// move: from Start, else from the FEN tag, else 1 and White.
func (g *Game) startNumber() (int, rules.Color) {
	if g.Start != nil {
		return g.Start.FullmoveNumber(), g.Start.Turn()
	}
	fields := strings.Fields(g.Tag("FEN"))
	number, turn := 1, rules.White
	if len(fields) >= 2 && fields[1] == "b" {
		turn = rules.Black
	}
	if len(fields) >= 6 {
		if n, err := strconv.Atoi(fields[5]); err == nil && n > 0 {
			number = n
		}
	}
	return number, turn
}

// movetextWriter writes tokens separated by single spaces, breaking lines
// before a token that would pass the width.
type movetextWriter struct {
	w       *bufio.Writer
	width   int
	opts    WriteOptions
	lineLen int
	glue    bool // the next token follows the last one without a space
	// inComment is set between { and }: a word that looks like the start
	// of a tag pair is then never put at the start of a line, where the
	// reader would take it for the next game's tag section.
	inComment bool
	scratch   []byte
	words     []string
	game      *Game
}

func (m *movetextWriter) token(t string) {
	n := utf8.RuneCountInString(t)
	switch {
	case m.lineLen == 0:
	case m.glue:
		if m.lineLen+n > m.width {
			m.w.WriteByte('\n')
			m.lineLen = 0
		}
	case m.lineLen+1+n > m.width && !(m.inComment && startsTag(t)):
		m.w.WriteByte('\n')
		m.lineLen = 0
	default:
		m.w.WriteByte(' ')
		m.lineLen++
	}
	m.glue = false
	m.w.WriteString(t)
	m.lineLen += n
}

// startsTag reports whether t begins like a tag pair: [ and a letter.
func startsTag(t string) bool { return len(t) > 1 && t[0] == '[' && isLetter(t[1]) }

// comment writes { text commands… }. A comment that fits on one line is
// kept on one line; a longer one breaks between words.
func (m *movetextWriter) comment(text string, n *MoveNode, iccs string) {
	words := m.words[:0]
	words = append(words, "{")
	for _, word := range strings.Fields(text) {
		words = append(words, strings.ReplaceAll(word, "}", ")"))
	}
	if iccs != "" {
		words = append(words, "[%iccs "+iccs+"]")
	}
	if n != nil && !m.opts.NoClocks {
		if n.HasClock {
			words = append(words, string(appendClock(append(m.scratch[:0], "[%clk "...), n.Clock))+"]")
		}
		if n.HasEMT {
			words = append(words, string(appendClock(append(m.scratch[:0], "[%emt "...), n.EMT))+"]")
		}
	}
	if n != nil && n.HasPockets {
		words = append(words, "[%pocket "+n.Pockets.String()+"]")
	}
	if n != nil && n.Lift != "" {
		words = append(words, "[%lift "+n.Lift+"]")
	}
	words = append(words, "}")
	m.words = words
	total := len(words) - 1
	for _, w := range words {
		total += utf8.RuneCountInString(w)
	}
	if m.lineLen > 0 && !m.glue && total <= m.width && m.lineLen+1+total > m.width {
		m.w.WriteByte('\n')
		m.lineLen = 0
	}
	for i, w := range words {
		m.inComment = i > 0 && i < len(words)-1
		m.token(w)
	}
	m.inComment = false
}

// line writes a line of moves starting at move number and side turn;
// force writes the number before a Black first move. With a position, the
// moves are played from it and their SAN is the position's.
func (m *movetextWriter) line(nodes []MoveNode, pos rules.Position, number int, turn rules.Color, force, variation bool) error {
	for i := range nodes {
		n := &nodes[i]
		san := n.SAN
		var prev rules.Position
		iccs := iccsOf(pos, n.Move)
		if pos != nil {
			before := feedDrop(pos, n.Move)
			next, err := before.Play(n.Move)
			if err == nil {
				san = before.SAN(n.Move)
				next, err = afterNode(next, n)
			}
			if err != nil {
				return &MoveError{Game: m.game.Ref(), Ply: i + 1, Number: number, Turn: turn, Variation: variation,
					Text: pos.UCI(n.Move), Err: fmt.Errorf("%w: %w", ErrBadMove, err)}
			}
			prev, pos = before, next
		}
		if n.PreComment != "" && !m.opts.NoComments {
			m.comment(n.PreComment, nil, "")
			force = true
		}
		if turn == rules.White {
			m.token(strconv.Itoa(number) + ".")
		} else if force || i == 0 {
			m.token(strconv.Itoa(number) + "...")
		}
		m.token(san)
		force = false
		if !m.opts.NoComments {
			for _, nag := range n.NAGs {
				m.token("$" + strconv.Itoa(nag))
			}
		}
		text := n.Comment
		if m.opts.NoComments {
			text = ""
		}
		if text != "" || iccs != "" || (!m.opts.NoClocks && (n.HasClock || n.HasEMT)) || n.HasPockets || n.Lift != "" {
			m.comment(text, n, iccs)
			force = true
		}
		if !m.opts.NoVariations {
			for _, v := range n.Variations {
				m.token("(")
				m.glue = true
				if err := m.line(v, prev, number, turn, true, true); err != nil {
					return err
				}
				m.glue = true
				m.token(")")
				force = true
			}
		}
		if turn == rules.Black {
			number++
		}
		turn = turn.Other()
	}
	return nil
}
