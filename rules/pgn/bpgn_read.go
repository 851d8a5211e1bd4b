package pgn

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// MaxBPGNSize bounds the input of ReadBPGN.
const MaxBPGNSize = 16 << 20

// ReadBPGN reads every BPGN game of r (at most MaxBPGNSize bytes). Unless
// opts.ParseOnly, each game's moves are resolved by playing both boards in
// the stream's order under the team-drop rules, from [SetUp]/[FEN "<A> |
// <B>"] or the start: a piece a move takes off one board (capture, removal
// -e8, the [%lift] of a confiscation) goes into the pocket of the mover's
// partner, the other colour on the other board, where a later drop takes
// it. A game whose moves do not replay is returned up to the bad move with
// a *MoveError; syntax errors are *SyntaxError. The errors of all games
// are joined; the games read are returned whatever happens.
func ReadBPGN(r io.Reader, opts ReaderOptions) ([]*BPGNGame, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBPGNSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBPGNSize {
		return nil, fmt.Errorf("pgn: BPGN input larger than %d bytes", MaxBPGNSize)
	}
	lx := &bpgnLexer{s: string(data), line: 1, col: 1}
	var games []*BPGNGame
	var errs []error
	for {
		g, err := readBPGNGame(lx, len(games)+1, opts)
		if g == nil && err == nil {
			break
		}
		if g != nil {
			games = append(games, g)
		}
		if err != nil {
			errs = append(errs, err)
			if g == nil {
				break
			}
		}
	}
	return games, errors.Join(errs...)
}

// readBPGNGame reads one game; nil, nil at the end of the input.
func readBPGNGame(lx *bpgnLexer, index int, opts ReaderOptions) (*BPGNGame, error) {
	g := &BPGNGame{Result: "*"}
	ref := func() GameRef {
		return GameRef{Index: index, Event: g.Tag("Event"), Round: g.Tag("Round"), White: g.Tag("WhiteA"), Black: g.Tag("BlackA")}
	}
	seen := false
	var pending *BPGNMove // a move number read, its SAN to come
	var comments []string
	for {
		tok := lx.next()
		switch tok.kind {
		case bEOF:
			if !seen {
				return nil, nil
			}
			return finishBPGN(g, comments, ref, opts)
		case bBad:
			return nil, &SyntaxError{Game: ref(), Line: tok.line, Col: tok.col, Err: fmt.Errorf("%w: %s", ErrUnexpectedToken, tok.text)}
		case bTag:
			if len(g.Moves) > 0 || pending != nil {
				return nil, &SyntaxError{Game: ref(), Line: tok.line, Col: tok.col, Err: fmt.Errorf("%w: tag pair in the movetext", ErrUnexpectedToken)}
			}
			seen = true
			g.Tags = append(g.Tags, Tag{Name: tok.name, Value: tok.text})
		case bComment:
			seen = true
			body := strings.TrimSpace(tok.text)
			if len(g.Moves) > 0 && pending == nil {
				last := &g.Moves[len(g.Moves)-1]
				if s, err := strconv.ParseFloat(body, 64); err == nil {
					last.Clock, last.HasClock = time.Duration(math.Round(s*1000))*time.Millisecond, true
					continue
				}
				if sq, ok := strings.CutPrefix(body, "[%lift "); ok {
					last.Lift = strings.TrimSuffix(sq, "]")
					continue
				}
			}
			if !strings.HasPrefix(body, "C:") && body != "" {
				comments = append(comments, body)
			}
		case bWord:
			seen = true
			if isResult(tok.text) && tok.text != "0-0" {
				if pending != nil {
					return nil, &SyntaxError{Game: ref(), Line: tok.line, Col: tok.col, Err: fmt.Errorf("%w: a move number without a move", ErrUnexpectedToken)}
				}
				g.Result = tok.text
				return finishBPGN(g, comments, ref, opts)
			}
			if n, b, c, ok := bpgnNumber(tok.text); ok {
				if pending != nil {
					return nil, &SyntaxError{Game: ref(), Line: tok.line, Col: tok.col, Err: fmt.Errorf("%w: two move numbers", ErrUnexpectedToken)}
				}
				pending = &BPGNMove{Number: n, Board: b, Color: c, Move: rules.NoMove}
				continue
			}
			if pending == nil {
				return nil, &SyntaxError{Game: ref(), Line: tok.line, Col: tok.col, Err: fmt.Errorf("%w: %q without a move number (1A., 1a., 1B. or 1b.) before it", ErrUnexpectedToken, tok.text)}
			}
			pending.SAN = tok.text
			g.Moves = append(g.Moves, *pending)
			pending = nil
			comments = nil
		}
	}
}

// finishBPGN sets the termination comment and replays the moves.
func finishBPGN(g *BPGNGame, comments []string, ref func() GameRef, opts ReaderOptions) (*BPGNGame, error) {
	g.Comment = strings.Join(comments, " ")
	if opts.ParseOnly {
		return g, nil
	}
	return g, replayBPGN(g, ref())
}

// bpgnNumber reads a move number token "12A." (board letter A/a/B/b).
func bpgnNumber(s string) (n int, b Board2, c rules.Color, ok bool) {
	if len(s) < 3 || s[len(s)-1] != '.' {
		return 0, 0, 0, false
	}
	l := s[len(s)-2]
	n, err := strconv.Atoi(s[:len(s)-2])
	if err != nil || n < 1 {
		return 0, 0, 0, false
	}
	switch l {
	case 'A':
		return n, BoardA, rules.White, true
	case 'a':
		return n, BoardA, rules.Black, true
	case 'B':
		return n, BoardB, rules.White, true
	case 'b':
		return n, BoardB, rules.Black, true
	}
	return 0, 0, 0, false
}

// replayBPGN resolves g's moves on both boards in stream order, passing
// what each move takes off a board to the partner's pocket.
func replayBPGN(g *BPGNGame, ref GameRef) error {
	var boards [2]*chess.Position
	fens := [2]string{"", ""}
	if f := g.Tag("FEN"); f != "" {
		a, b, ok := strings.Cut(f, "|")
		if !ok {
			return &SyntaxError{Game: ref, Err: fmt.Errorf("%w: FEN %q is not \"<board A> | <board B>\"", ErrBadFEN, f)}
		}
		fens = [2]string{strings.TrimSpace(a), strings.TrimSpace(b)}
	}
	for i, f := range fens {
		p := chess.StartPosition(chess.TeamDrop)
		if f != "" {
			var err error
			if p, err = chess.NewPosition(chess.TeamDrop, f); err != nil {
				return &SyntaxError{Game: ref, Err: fmt.Errorf("%w: board %c: %w", ErrBadFEN, 'A'+i, err)}
			}
		}
		boards[i] = p
		g.Start[i] = p
	}
	for i := range g.Moves {
		mv := &g.Moves[i]
		pos := boards[mv.Board]
		bad := func(err error) error {
			return &MoveError{Game: ref, Ply: i + 1, Number: mv.Number, Turn: mv.Color, Text: mv.SAN, Err: fmt.Errorf("%w: board %c: %w", ErrBadMove, 'A'+mv.Board, err)}
		}
		if pos.Turn() != mv.Color {
			return bad(fmt.Errorf("%s is not to move", mv.Color))
		}
		m, err := pos.ParseMove(mv.SAN)
		if err != nil {
			return bad(err)
		}
		next, err := pos.PlayMove(m)
		if err != nil {
			return bad(err)
		}
		mv.Move = m
		bpgnGive(&boards, mv.Board, pos, next, mv.Color)
		if mv.Lift != "" {
			s, err := rules.Chess8x8.ParseSquare(mv.Lift)
			if err != nil {
				return bad(fmt.Errorf("[%%lift %s]: %w", mv.Lift, err))
			}
			lifted, _, err := next.Lift(s, false)
			if err != nil {
				return bad(err)
			}
			bpgnGive(&boards, mv.Board, next, lifted, next.Turn())
			next = lifted
		}
		boards[mv.Board] = next
	}
	return nil
}

// bpgnGive puts the piece of the side not moving that left board b between
// before and after into the pocket of the mover's partner.
func bpgnGive(boards *[2]*chess.Position, b Board2, before, after *chess.Position, mover rules.Color) {
	for s := rules.Square(0); s < 64; s++ {
		p := before.At(s)
		if p.IsEmpty() || p.Color == mover || after.At(s) == p {
			continue
		}
		k := p.Kind
		if before.Promoted(s) {
			k = rules.Pawn
		}
		o := boards[b^1]
		boards[b^1] = o.WithPocket(p.Color, k, o.Pocket(p.Color, k)+1)
		return
	}
}

// bpgnLexer splits BPGN text into tag pairs, comments and words.
type bpgnLexer struct {
	s         string
	i         int
	line, col int
}

type bpgnTokKind uint8

const (
	bEOF bpgnTokKind = iota
	bTag
	bComment
	bWord
	bBad
)

type bpgnTok struct {
	kind      bpgnTokKind
	name      string
	text      string
	line, col int
}

func (l *bpgnLexer) advance() {
	if l.s[l.i] == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	l.i++
}

func (l *bpgnLexer) next() bpgnTok {
	for l.i < len(l.s) {
		c := l.s[l.i]
		switch {
		case isSpace(c):
			l.advance()
			continue
		case c == '%' && l.col == 1, c == ';':
			for l.i < len(l.s) && l.s[l.i] != '\n' {
				l.advance()
			}
			continue
		}
		break
	}
	t := bpgnTok{line: l.line, col: l.col}
	if l.i >= len(l.s) {
		return t
	}
	switch l.s[l.i] {
	case '[':
		l.advance()
		start := l.i
		for l.i < len(l.s) && !isSpace(l.s[l.i]) && l.s[l.i] != '"' {
			l.advance()
		}
		t.name = l.s[start:l.i]
		for l.i < len(l.s) && isSpace(l.s[l.i]) {
			l.advance()
		}
		if l.i >= len(l.s) || l.s[l.i] != '"' || t.name == "" {
			t.kind, t.text = bBad, "a tag pair must be [Name \"value\"]"
			return t
		}
		l.advance()
		var v strings.Builder
		for l.i < len(l.s) && l.s[l.i] != '"' {
			if l.s[l.i] == '\\' && l.i+1 < len(l.s) {
				l.advance()
			}
			v.WriteByte(l.s[l.i])
			l.advance()
		}
		for l.i < len(l.s) && l.s[l.i] != ']' {
			l.advance()
		}
		if l.i >= len(l.s) {
			t.kind, t.text = bBad, "tag pair not closed"
			return t
		}
		l.advance()
		t.kind, t.text = bTag, v.String()
	case '{':
		l.advance()
		start := l.i
		for l.i < len(l.s) && l.s[l.i] != '}' {
			l.advance()
		}
		if l.i >= len(l.s) {
			t.kind, t.text = bBad, "comment not closed"
			return t
		}
		t.kind, t.text = bComment, l.s[start:l.i]
		l.advance()
	default:
		start := l.i
		for l.i < len(l.s) && !isSpace(l.s[l.i]) && l.s[l.i] != '{' && l.s[l.i] != '[' {
			l.advance()
		}
		t.kind, t.text = bWord, l.s[start:l.i]
	}
	return t
}
