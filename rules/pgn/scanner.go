package pgn

import (
	"io"
)

// tokKind is the kind of a lexical token of PGN (PGN standard §7 and §8.2).
type tokKind uint8

const (
	tokEOF        tokKind = iota
	tokTagOpen            // [
	tokTagClose           // ]
	tokString             // "…" with escapes resolved; text in scanner.tok
	tokSymbol             // a move, a tag name, a result other than "*"
	tokMoveNumber         // 12. or 12... (digits in scanner.tok)
	tokStar               // * (game result "unknown")
	tokComment            // {…} or ;… ; text in scanner.tok
	tokNAG                // $n, or a suffix annotation !, ?, !!, ??, !?, ?!
	tokOpen               // (
	tokClose              // )
	tokBad                // a byte that cannot start a token; scanner.err has why
)

// scanner turns a byte stream into PGN tokens. It keeps its own buffer so
// that tokens need no allocation: the text of the last token lives in tok
// until the next call. It tracks line and column (1-based, columns count
// runes) of the next byte and of the last token's start.
type scanner struct {
	r         io.Reader
	buf       []byte
	p, n      int   // unread bytes are buf[p:n]
	rerr      error // first read error (io.EOF included); sticky
	zeroReads int

	line, col int // position of buf[p]

	// The last token.
	kind              tokKind
	tok               []byte
	nag               int
	tokLine, tokCol   int
	tokErr            error // why tokBad, or a lexical problem found inside a token
	unterminatedStart bool  // the comment ran into a tag section
}

const scanBufSize = 64 << 10

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, scanBufSize), line: 1, col: 1, tok: make([]byte, 0, 256)}
}

// fill makes at least want bytes available in buf[p:n] unless the input
// ends first; it reports whether want bytes are there.
func (s *scanner) fill(want int) bool {
	for s.n-s.p < want {
		if s.rerr != nil {
			return false
		}
		if s.p > 0 {
			copy(s.buf, s.buf[s.p:s.n])
			s.n -= s.p
			s.p = 0
		}
		if s.n == len(s.buf) {
			return s.n-s.p >= want
		}
		k, err := s.r.Read(s.buf[s.n:])
		s.n += k
		if err != nil {
			s.rerr = err
		} else if k == 0 {
			// A reader that returns (0, nil) forever must not hang us.
			s.zeroReads++
			if s.zeroReads > 100 {
				s.rerr = io.ErrNoProgress
			}
		}
	}
	return true
}

// peek returns the next byte without consuming it; ok is false at the end
// of the input.
func (s *scanner) peek() (byte, bool) {
	if s.p < s.n || s.fill(1) {
		return s.buf[s.p], true
	}
	return 0, false
}

// next consumes one byte, keeping line and column.
func (s *scanner) next() {
	b := s.buf[s.p]
	s.p++
	switch {
	case b == '\n':
		s.line++
		s.col = 1
	case b&0xC0 != 0x80: // not a UTF-8 continuation byte
		s.col++
	}
}

// skipLine consumes bytes up to and including the next newline.
func (s *scanner) skipLine() {
	for {
		b, ok := s.peek()
		if !ok {
			return
		}
		s.next()
		if b == '\n' {
			return
		}
	}
}

// ioErr returns the read error that stopped the scanner: non-nil only
// once every byte read before the error has been consumed (a lookahead
// may meet the error early) and the error is not a clean io.EOF.
func (s *scanner) ioErr() error {
	if s.rerr == io.EOF || s.p < s.n {
		return nil
	}
	return s.rerr
}

func isSymbolStart(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func isSymbolByte(b byte) bool {
	return isSymbolStart(b) || b == '_' || b == '+' || b == '#' || b == '=' || b == ':' || b == '-' || b == '/' || b == '@'
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// scan reads the next token into s.kind / s.tok and returns its kind.
// Whitespace, escape lines (% in column 1) and reserved <…> sections are
// skipped.
func (s *scanner) scan() tokKind {
	s.tok = s.tok[:0]
	s.tokErr = nil
	s.unterminatedStart = false
	for {
		b, ok := s.peek()
		if !ok {
			s.tokLine, s.tokCol = s.line, s.col
			s.kind = tokEOF
			return tokEOF
		}
		if isSpace(b) {
			s.next()
			continue
		}
		if b == '%' && s.col == 1 {
			s.skipLine()
			continue
		}
		if b == 0xEF && s.line == 1 && s.col == 1 && s.fill(3) && s.buf[s.p+1] == 0xBB && s.buf[s.p+2] == 0xBF {
			// UTF-8 byte order mark.
			s.p += 3
			continue
		}
		s.tokLine, s.tokCol = s.line, s.col
		switch {
		case isSymbolStart(b):
			return s.scanSymbol()
		case b == '-' && s.fill(2) && s.buf[s.p+1] >= 'a' && s.buf[s.p+1] <= 'h':
			// A team-drop removal (-e8).
			return s.scanSymbol()
		case b == '[':
			s.next()
			s.kind = tokTagOpen
		case b == ']':
			s.next()
			s.kind = tokTagClose
		case b == '"':
			s.next()
			s.scanString()
		case b == '{':
			s.next()
			s.scanBraceComment()
		case b == ';':
			s.next()
			s.scanLineComment()
		case b == '(':
			if s.fill(3) && s.buf[s.p+1] == '=' && s.buf[s.p+2] == ')' {
				// (=), the FIDE draw offer (Laws C.12), is kept as a comment.
				s.next()
				s.next()
				s.next()
				s.tok = append(s.tok, "(=)"...)
				s.kind = tokComment
				break
			}
			s.next()
			s.kind = tokOpen
		case b == ')':
			s.next()
			s.kind = tokClose
		case b == '*':
			s.next()
			s.kind = tokStar
		case b == '$':
			s.next()
			s.scanNAG()
		case b == '!' || b == '?':
			s.scanSuffix()
		case b == '<':
			s.skipReserved()
			continue
		default:
			s.next()
			s.kind = tokBad
			s.tokErr = ErrUnexpectedChar
		}
		return s.kind
	}
}

// scanSymbol reads a symbol, or a move number when it is all digits.
//
// A '.' followed by a digit continues a symbol that starts with a letter:
// the traverse of WXF xiangqi notation ("C2.5", "R+.3"). Move numbers
// start with a digit and "e.p." is followed by a letter, so neither
// changes.
func (s *scanner) scanSymbol() tokKind {
	digits := true
	for {
		b, ok := s.peek()
		if ok && b == '.' && len(s.tok) > 0 && isLetter(s.tok[0]) && s.fill(2) && s.buf[s.p+1] >= '0' && s.buf[s.p+1] <= '9' {
			s.tok = append(s.tok, b)
			s.next()
			continue
		}
		if !ok || !isSymbolByte(b) {
			break
		}
		if b < '0' || b > '9' {
			digits = false
		}
		s.tok = append(s.tok, b)
		s.next()
	}
	if !digits {
		s.skipEnPassant()
		s.kind = tokSymbol
		return s.kind
	}
	for {
		b, ok := s.peek()
		if !ok || b != '.' {
			break
		}
		s.next()
	}
	s.kind = tokMoveNumber
	return s.kind
}

// skipEnPassant consumes an "e.p." (or " e.p.") that follows a move: the
// optional en-passant mark of FIDE notation (Laws C.9), which SAN does not
// write.
func (s *scanner) skipEnPassant() {
	s.fill(5)
	w := s.buf[s.p:s.n]
	k := 0
	if len(w) > 0 && w[0] == ' ' {
		k = 1
	}
	if len(w) >= k+4 && string(w[k:k+4]) == "e.p." {
		for i := 0; i < k+4; i++ {
			s.next()
		}
	}
}

// scanString reads a tag value after its opening quote. PGN strings hold
// no newline; \" and \\ are the escapes.
func (s *scanner) scanString() {
	s.kind = tokString
	for {
		b, ok := s.peek()
		if !ok || b == '\n' || b == '\r' {
			s.tokErr = ErrUnterminatedString
			return
		}
		s.next()
		switch b {
		case '"':
			return
		case '\\':
			e, ok := s.peek()
			if ok && (e == '"' || e == '\\') {
				s.next()
				b = e
			}
		}
		s.tok = append(s.tok, b)
	}
}

// scanBraceComment reads a {…} comment after its brace. A comment that
// reaches a line which starts a tag section ([Name "…) is taken as
// unterminated: the scanner stops before that line so that the next game
// still reads.
func (s *scanner) scanBraceComment() {
	s.kind = tokComment
	for {
		b, ok := s.peek()
		if !ok {
			s.tokErr = ErrUnterminatedComment
			return
		}
		if b == '[' && s.col == 1 && s.looksLikeTag() {
			s.tokErr = ErrUnterminatedComment
			s.unterminatedStart = true
			return
		}
		s.next()
		if b == '}' {
			return
		}
		s.tok = append(s.tok, b)
	}
}

// looksLikeTag reports whether the input at s.p reads `[Name "`.
func (s *scanner) looksLikeTag() bool {
	const max = 64
	s.fill(max)
	w := s.buf[s.p:s.n]
	if len(w) > max {
		w = w[:max]
	}
	i := 1
	for i < len(w) && (isSymbolByte(w[i])) {
		i++
	}
	if i == 1 || !(w[1] >= 'A' && w[1] <= 'Z' || w[1] >= 'a' && w[1] <= 'z') {
		return false
	}
	for i < len(w) && (w[i] == ' ' || w[i] == '\t') {
		i++
	}
	return i < len(w) && w[i] == '"'
}

func (s *scanner) scanLineComment() {
	s.kind = tokComment
	for {
		b, ok := s.peek()
		if !ok || b == '\n' {
			return
		}
		s.next()
		if b != '\r' {
			s.tok = append(s.tok, b)
		}
	}
}

func (s *scanner) scanNAG() {
	s.kind = tokNAG
	n, digits := 0, 0
	for {
		b, ok := s.peek()
		if !ok || b < '0' || b > '9' {
			break
		}
		s.next()
		if n < 1000 {
			n = n*10 + int(b-'0')
		}
		digits++
	}
	if digits == 0 || n > 255 {
		s.tokErr = ErrBadNAG
	}
	s.nag = n
}

// suffixNAGs maps the traditional suffix annotations to their NAGs (PGN
// standard §10).
var suffixNAGs = map[string]int{"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

func (s *scanner) scanSuffix() {
	s.kind = tokNAG
	for {
		b, ok := s.peek()
		if !ok || (b != '!' && b != '?') {
			break
		}
		s.next()
		s.tok = append(s.tok, b)
	}
	n, ok := suffixNAGs[string(s.tok)]
	if !ok {
		s.tokErr = ErrBadNAG
	}
	s.nag = n
}

func (s *scanner) skipReserved() {
	for {
		b, ok := s.peek()
		if !ok {
			return
		}
		s.next()
		if b == '>' {
			return
		}
	}
}
