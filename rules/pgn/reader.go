package pgn

import (
	"errors"
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/rules"
)

// VariationMode says what the reader does with recursive annotation
// variations.
type VariationMode uint8

// Variation modes. KeepVariations is the zero value.
const (
	// KeepVariations reads variations into MoveNode.Variations (and, unless
	// ParseOnly, resolves their moves too).
	KeepVariations VariationMode = iota
	// SkipVariations reads over variations without looking at their moves.
	SkipVariations
)

// String returns "keep" or "skip".
func (m VariationMode) String() string {
	if m == SkipVariations {
		return "skip"
	}
	return "keep"
}

// MaxVariationDepth is how deeply variations may nest in KeepVariations
// mode; deeper nesting is a *SyntaxError wrapping ErrTooDeep.
const MaxVariationDepth = 64

// PositionFunc builds the start position of a game from the rules-engine
// variant name (see NormalizeVariant) and a FEN, "" meaning the variant's
// standard start.
type PositionFunc func(variant, fen string) (rules.Position, error)

// ReaderOptions configure a Reader. The zero value keeps variations and
// resolves every move against its position with the chess engine.
type ReaderOptions struct {
	// Variations keeps (default) or skips variations.
	Variations VariationMode
	// ParseOnly reads the text without resolving moves: MoveNode.Move is
	// rules.NoMove, MoveNode.SAN the text as written and Game.Start nil.
	// It is faster and accepts games of variants no engine knows, but it
	// finds no illegal moves. The default (false) resolves every move, which
	// writing a game back needs.
	ParseOnly bool
	// NewPosition builds start positions; nil uses [Position]: the xiangqi
	// engine (rules/xiangqi, WXF movetext) for xiangqi, the chess engine
	// (rules/chess) for chess, chess960, crazyhouse and team-drop.
	NewPosition PositionFunc
}

// Reader reads games from a PGN stream, one per call to Next. Like
// encoding/csv, an I/O error is sticky but a bad game is not: Next returns
// its *SyntaxError or *MoveError, and the following call reads the next
// game. A Reader is not safe for concurrent use.
type Reader struct {
	s       *scanner
	opts    ReaderOptions
	newPos  PositionFunc
	peeked  bool
	games   int
	err     error // sticky I/O error
	scratch []byte
	sink    commandSink
	rv      resolver

	tagPos []tagPos // where each tag of the current game starts
}

type tagPos struct{ line, col int }

// NewReader returns a Reader of r. It buffers its input: r may be read
// beyond the last game returned.
func NewReader(r io.Reader, opts ReaderOptions) *Reader {
	np := opts.NewPosition
	if np == nil {
		np = Position
	}
	return &Reader{s: newScanner(r), opts: opts, newPos: np, scratch: make([]byte, 0, 256)}
}

// ReadAll reads every game of r. Bad games do not stop it: their errors
// are returned in errs in order, and a game cut at a bad move (see
// Reader.Next) is in games too. An I/O error ends the reading and is the
// last entry of errs.
func ReadAll(r io.Reader, opts ReaderOptions) (games []*Game, errs []error) {
	rd := NewReader(r, opts)
	for {
		g, err := rd.Next()
		if err == io.EOF {
			return games, errs
		}
		if g != nil {
			games = append(games, g)
		}
		if err != nil {
			errs = append(errs, err)
			if rd.err != nil {
				return games, errs
			}
		}
	}
}

// peek returns the kind of the next unconsumed token.
func (r *Reader) peek() tokKind {
	if !r.peeked {
		r.s.scan()
		r.peeked = true
	}
	return r.s.kind
}

// consume marks the peeked token as used.
func (r *Reader) consume() { r.peeked = false }

// Next reads the next game. It returns io.EOF after the last game, a
// sticky error when the underlying reader fails, and for a bad game a
// *SyntaxError (game nil) or a *MoveError, in which case the game is
// returned too, its line cut before the move that failed, as Lichess
// does; either way the next call reads the following game.
func (r *Reader) Next() (*Game, error) {
	if r.err != nil {
		return nil, r.err
	}
	g, err := r.next()
	if err == nil {
		// A complete game: a read error after it shows on the next call.
		return g, nil
	}
	if ioErr := r.s.ioErr(); ioErr != nil {
		// The input stopped inside this game: the read error, not the
		// syntax it left, is the news.
		r.err = ioErr
		return nil, ioErr
	}
	return g, err
}

func (r *Reader) next() (*Game, error) {
	// Comments before the tag section belong to the game.
	var pre []byte
	for r.peek() == tokComment && r.s.tokErr == nil {
		pre = appendComment(pre, r.s.tok)
		r.consume()
	}
	if r.peek() == tokEOF {
		return nil, io.EOF // a comment after the last game belongs to none
	}
	r.games++
	g := &Game{Index: r.games, Comment: string(pre)}
	r.tagPos = r.tagPos[:0]
	for r.peek() == tokTagOpen {
		if err := r.readTag(g); err != nil {
			r.skipGame(false)
			return nil, err
		}
	}

	var start rules.Position
	if !r.opts.ParseOnly {
		var err error
		if start, err = r.startPosition(g); err != nil {
			r.skipGame(false)
			return nil, err
		}
		g.Start = start
	}

	moves, pre2, err := r.parseLine(g, start, 0, 0, 0)
	g.Moves = moves
	if pre2 != "" {
		g.Comment = joinComment(g.Comment, pre2)
	}
	if g.Result == "" {
		if res, ok := g.Lookup("Result"); ok && isResult(res) {
			g.Result = res
		} else {
			g.Result = "*"
		}
	}
	if err != nil {
		r.skipGame(true)
		if _, ok := err.(*MoveError); ok {
			return g, err // the game up to the bad move
		}
		return nil, err
	}
	return g, nil
}

// syntaxErr builds a *SyntaxError at the current token.
func (r *Reader) syntaxErr(g *Game, err error) error {
	return &SyntaxError{Game: g.Ref(), Line: r.s.tokLine, Col: r.s.tokCol, Err: err}
}

// fail builds a *SyntaxError at the current token and consumes it unless
// it may start the next game.
func (r *Reader) fail(g *Game, err error) error {
	e := r.syntaxErr(g, err)
	if k := r.peek(); k != tokEOF && k != tokTagOpen {
		r.consume()
	}
	return e
}

// readTag reads one [Name "value"] pair.
func (r *Reader) readTag(g *Game) error {
	line, col := r.s.tokLine, r.s.tokCol
	r.consume() // [
	if r.peek() != tokSymbol || !isLetter(r.s.tok[0]) {
		return r.fail(g, fmt.Errorf("%w: want a tag name", ErrBadTag))
	}
	name := string(r.s.tok)
	r.consume()
	if r.peek() != tokString {
		return r.fail(g, fmt.Errorf("%w: want a quoted value for %s", ErrBadTag, name))
	}
	if r.s.tokErr != nil {
		return r.fail(g, fmt.Errorf("%w: %s: %w", ErrBadTag, name, r.s.tokErr))
	}
	value := string(r.s.tok)
	r.consume()
	if r.peek() != tokTagClose {
		return r.fail(g, fmt.Errorf("%w: want ] after %s", ErrBadTag, name))
	}
	r.consume()
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
	r.tagPos = append(r.tagPos, tagPos{line, col})
	return nil
}

// tagError returns a *SyntaxError at the tag called name.
func (r *Reader) tagError(g *Game, name string, err error) error {
	e := &SyntaxError{Game: g.Ref(), Line: r.s.tokLine, Col: r.s.tokCol, Err: err}
	for i := range g.Tags {
		if g.Tags[i].Name == name && i < len(r.tagPos) {
			e.Line, e.Col = r.tagPos[i].line, r.tagPos[i].col
			break
		}
	}
	return e
}

// startPosition builds the start position from the Variant, SetUp and FEN
// tags. A FEN tag is honoured with or without SetUp "1".
func (r *Reader) startPosition(g *Game) (rules.Position, error) {
	variant, err := NormalizeVariant(g.Tag("Variant"))
	if err != nil {
		return nil, r.tagError(g, "Variant", err)
	}
	fen := g.Tag("FEN")
	pos, err := r.newPos(variant, fen)
	if err != nil {
		if fen == "" {
			return nil, r.tagError(g, "Variant", fmt.Errorf("%w: %w", ErrUnknownVariant, err))
		}
		return nil, r.tagError(g, "FEN", fmt.Errorf("%w: %w", ErrBadFEN, err))
	}
	return pos, nil
}

// parseLine reads a line of moves starting in pos (nil with ParseOnly) up
// to the closing parenthesis of a variation (depth > 0) or the end of the
// game (depth 0). It returns the moves read, even on error, and the
// comments that stood before the first move.
//
// openLine and openCol locate the ( of a variation, for the error when it
// is not closed.
func (r *Reader) parseLine(g *Game, pos rules.Position, depth, openLine, openCol int) (nodes []MoveNode, pre string, err error) {
	var prev rules.Position
	if depth == 0 {
		nodes = make([]MoveNode, 0, 96)
	}
	for {
		switch r.peek() {
		case tokMoveNumber:
			r.consume()
		case tokSymbol, tokStar:
			text := r.s.tok
			if r.s.kind == tokStar {
				text = []byte("*")
			}
			if isResult(string(text)) && string(text) != "0-0" {
				res := string(text)
				if depth > 0 {
					return nodes, pre, r.fail(g, fmt.Errorf("%w: result %s inside a variation", ErrBadVariation, res))
				}
				r.consume()
				g.Result = res
				return nodes, pre, nil
			}
			if nodes, prev, pos, err = r.playMove(g, nodes, pos, depth, text); err != nil {
				return nodes, pre, err
			}
			r.consume()
		case tokComment:
			if pre, pos, err = r.readComment(g, nodes, pre, pos, prev, depth); err != nil {
				return nodes, pre, err
			}
		case tokNAG:
			if r.s.tokErr != nil {
				return nodes, pre, r.fail(g, fmt.Errorf("%w %q", r.s.tokErr, r.s.tok))
			}
			if len(nodes) == 0 {
				return nodes, pre, r.fail(g, fmt.Errorf("%w: annotation glyph before any move", ErrUnexpectedToken))
			}
			n := &nodes[len(nodes)-1]
			n.NAGs = append(n.NAGs, r.s.nag)
			r.consume()
		case tokOpen:
			if err := r.readVariation(g, nodes, prev, depth); err != nil {
				return nodes, pre, err
			}
		case tokClose:
			if depth == 0 {
				return nodes, pre, r.fail(g, fmt.Errorf("%w: ) without (", ErrBadVariation))
			}
			r.consume()
			return nodes, pre, nil
		case tokTagOpen, tokEOF:
			if depth > 0 {
				return nodes, pre, &SyntaxError{Game: g.Ref(), Line: openLine, Col: openCol, Err: fmt.Errorf("%w: variation not closed", ErrBadVariation)}
			}
			if r.s.kind == tokEOF && r.s.ioErr() != nil {
				return nodes, pre, r.s.ioErr()
			}
			return nodes, pre, nil // a game that stops without a result
		case tokString, tokTagClose:
			return nodes, pre, r.fail(g, ErrUnexpectedToken)
		default: // tokBad
			return nodes, pre, r.fail(g, r.s.tokErr)
		}
	}
}

// readComment consumes a comment: before the line's first move it joins
// pre, after a move it is attached to it (a team-drop comment's pockets and
// lift then move pos on) and checked against an ICCS tag.
func (r *Reader) readComment(g *Game, nodes []MoveNode, pre string, pos, prev rules.Position, depth int) (string, rules.Position, error) {
	if r.s.tokErr != nil {
		return pre, pos, r.fail(g, r.s.tokErr)
	}
	if len(nodes) == 0 {
		pre = joinCommentBytes(pre, r.s.tok)
		r.consume()
		return pre, pos, nil
	}
	r.attachComment(&nodes[len(nodes)-1], r.s.tok)
	if pos != nil && (r.sink.hasPockets || r.sink.lift != "") {
		// Team drop: the pockets at the press, a lift after it.
		n := MoveNode{Pockets: r.sink.pockets, HasPockets: r.sink.hasPockets, Lift: r.sink.lift}
		next, err := afterNode(pos, &n)
		if err != nil {
			return pre, pos, r.fail(g, fmt.Errorf("%w: %w", ErrBadMove, err))
		}
		pos = next
	}
	err := r.checkICCS(g, prev, &nodes[len(nodes)-1], len(nodes), depth)
	r.consume()
	return pre, pos, err
}

// readVariation consumes a "(" and the variation after it, which starts
// from prev (the position before the line's last move) and is attached to
// that move, or skipped when the options say so.
func (r *Reader) readVariation(g *Game, nodes []MoveNode, prev rules.Position, depth int) error {
	if len(nodes) == 0 {
		return r.fail(g, fmt.Errorf("%w: variation before any move", ErrBadVariation))
	}
	openLine, openCol := r.s.tokLine, r.s.tokCol
	r.consume()
	if r.opts.Variations == SkipVariations {
		return r.skipVariation(g, openLine, openCol)
	}
	if depth+1 > MaxVariationDepth {
		return &SyntaxError{Game: g.Ref(), Line: openLine, Col: openCol, Err: ErrTooDeep}
	}
	v, vpre, err := r.parseLine(g, prev, depth+1, openLine, openCol)
	last := &nodes[len(nodes)-1]
	if len(v) > 0 {
		v[0].PreComment = vpre
		last.Variations = append(last.Variations, v)
	} else if vpre != "" {
		last.Comment = joinComment(last.Comment, vpre)
	}
	return err
}

// playMove resolves text against pos (unless ParseOnly) and appends the
// move. It returns the grown line, the position before the move and the
// position after it.
func (r *Reader) playMove(g *Game, nodes []MoveNode, pos rules.Position, depth int, text []byte) ([]MoveNode, rules.Position, rules.Position, error) {
	if r.opts.ParseOnly {
		return append(nodes, MoveNode{Move: rules.NoMove, SAN: string(text)}), nil, nil, nil
	}
	if len(text) >= 3 && text[0] == '0' && text[1] == '-' && text[2] == '0' {
		text = zeroCastle(text)
	}
	m, err := r.rv.resolve(pos, text)
	if ie := (*rules.IllegalMoveError)(nil); errors.As(err, &ie) && ie.Reason == rules.ReasonEmptyPocket {
		// Team drop: the partner board sent the piece after the last
		// [%pocket].
		if fed := feedDrop(pos, ie.Move); fed != pos {
			pos = fed
			m, err = r.rv.resolve(pos, text)
		}
	}
	var next rules.Position
	if err == nil {
		next, err = pos.Play(m)
	}
	if err != nil {
		e := &MoveError{Game: g.Ref(), Line: r.s.tokLine, Col: r.s.tokCol, Ply: len(nodes) + 1, Variation: depth > 0,
			Number: pos.FullmoveNumber(), Turn: pos.Turn(), Text: string(text), Err: fmt.Errorf("%w: %w", ErrBadMove, err)}
		r.consume()
		return nodes, pos, pos, e
	}
	return append(nodes, MoveNode{Move: m, SAN: pos.SAN(m)}), pos, next, nil
}

// zeroCastle rewrites 0-0 / 0-0-0 (and any check suffix) with letters O.
func zeroCastle(text []byte) []byte {
	out := make([]byte, len(text))
	for i, b := range text {
		if b == '0' {
			b = 'O'
		}
		out[i] = b
	}
	return out
}

// skipVariation reads over a variation whose ( was consumed.
func (r *Reader) skipVariation(g *Game, line, col int) error {
	depth := 1
	for {
		switch r.peek() {
		case tokOpen:
			depth++
		case tokClose:
			depth--
			if depth == 0 {
				r.consume()
				return nil
			}
		case tokEOF, tokTagOpen:
			return &SyntaxError{Game: g.Ref(), Line: line, Col: col, Err: fmt.Errorf("%w: variation not closed", ErrBadVariation)}
		case tokComment:
			if r.s.tokErr != nil {
				return r.fail(g, r.s.tokErr)
			}
		}
		r.consume()
	}
}

// skipGame reads over the rest of a bad game: up to its result, or up to
// the tag section of the next game once movetext has been seen.
func (r *Reader) skipGame(sawMovetext bool) {
	for {
		switch r.peek() {
		case tokEOF:
			return
		case tokTagOpen:
			if sawMovetext {
				return
			}
		case tokStar:
			r.consume()
			return
		case tokSymbol:
			if t := string(r.s.tok); isResult(t) && t != "0-0" {
				r.consume()
				return
			}
			sawMovetext = true
		case tokMoveNumber, tokComment, tokNAG, tokOpen, tokClose:
			sawMovetext = true
		}
		r.consume()
	}
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// isResult reports whether s is a game termination marker, Lichess's
// extensions included. In movetext "0-0" is read as castling.
func isResult(s string) bool {
	switch s {
	case "1-0", "0-1", "1/2-1/2", "*", "0-0", "1/2-0", "0-1/2":
		return true
	}
	return false
}
