package xiangqi

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
)

// ErrNotation is the sentinel every *NotationError matches with errors.Is.
var ErrNotation = errors.New("xiangqi: bad move notation")

// NotationError says why a move text could not be read: bad syntax, no
// such piece, or ambiguity. A well-formed move that is illegal gives a
// *rules.IllegalMoveError instead.
type NotationError struct {
	Text    string
	Dialect Dialect
	Reason  string
}

// Error implements error.
func (e *NotationError) Error() string {
	return fmt.Sprintf("xiangqi: bad move %q (%s notation): %s", e.Text, e.Dialect, e.Reason)
}

// Unwrap returns ErrNotation.
func (e *NotationError) Unwrap() error { return ErrNotation }

// dialectSyms are the symbols of one dialect.
type dialectSyms struct {
	letters          [10]string // written piece letters by kind
	alt              [10]byte   // also accepted when parsing
	adv, ret, trav   string     // accepted direction symbols; the first is written
	front, rear, mid byte       // tandem markers; 0: none (falls back to ICCS)
}

var syms = [...]dialectSyms{
	DialectVN: {
		letters: [10]string{general: "Tg", advisor: "S", elephant: "T", chariot: "X", cannon: "P", horse: "M", soldier: "B"},
		adv:     ".", ret: "/", trav: "-", front: 't', rear: 's', mid: 'g',
	},
	DialectDocAsian: {
		letters: [10]string{general: "Tg", advisor: "S", elephant: "T", chariot: "X", cannon: "P", horse: "M", soldier: "B"},
		adv:     "+", ret: ".", trav: "=", front: 't', rear: 's', mid: 'g',
	},
	DialectWXF: {
		letters: [10]string{general: "K", advisor: "A", elephant: "E", chariot: "R", cannon: "C", horse: "H", soldier: "P"},
		alt:     [10]byte{elephant: 'B', horse: 'N'},
		adv:     "+", ret: "-", trav: ".=", front: '+', rear: '-',
	},
}

func (d Dialect) syms() *dialectSyms {
	if int(d) < len(syms) {
		return &syms[d]
	}
	return &syms[DialectVN]
}

// fileNumber is file f as side c numbers it: from its own right, 1–9
// (docs/xiangqi.md, "Board, pieces, FEN").
func fileNumber(c, f int) int {
	if c == 0 {
		return 9 - f
	}
	return f + 1
}

// fileFromNumber inverts fileNumber.
func fileFromNumber(c, n int) int {
	if c == 0 {
		return 9 - n
	}
	return n - 1
}

// orthogonal reports whether kind k moves along lines (and so writes
// step counts and may traverse).
func orthogonal(k uint8) bool {
	return k == general || k == chariot || k == cannon || k == soldier
}

// sameOnFile returns the points of piece x on file f, front first as the
// piece's side sees it.
func (p *Position) sameOnFile(x uint8, f int) []int {
	var out []int
	for r := 0; r < nRanks; r++ {
		if s := point(f, r); p.board[s] == x {
			out = append(out, s)
		}
	}
	if colorOf(x) == 0 { // Red advances up the ranks: front is the highest
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// SAN implements rules.Position: m in the position's notation dialect
// (default VN, "P2-5"); see Notation.
func (p *Position) SAN(m rules.Move) string { return p.Notation(m, p.opts.Notation) }

// Notation writes m, which must be a move of a piece of the side to move,
// in dialect d by the rules of Art. 11.2 (docs/xiangqi.md, "Notation"):
// piece letter, file number of the origin (or a tandem marker when two or
// three pieces of the kind share the file), direction, then the
// destination file (traverse; horse, elephant, advisor) or the number of
// steps. Where the dialect has no form (four or five soldiers on one
// file, two files each holding two or more soldiers, three soldiers on a
// file in WXF) it falls back to ICCS (docs/xiangqi.md, "Notation").
func (p *Position) Notation(m rules.Move, d Dialect) string {
	if m.From < 0 || m.From >= nPoints || m.To < 0 || m.To >= nPoints || p.board[m.From] == 0 {
		return p.UCI(m)
	}
	sy := d.syms()
	from, to := int(m.From), int(m.To)
	x := p.board[from]
	k, us := x&kindMask, colorOf(x)
	x0, y0, x1, y1 := fileOf(from), rankOf(from), fileOf(to), rankOf(to)
	var b strings.Builder
	b.WriteString(sy.letters[k])
	peers := p.sameOnFile(x, x0)
	tandem := len(peers) >= 2 && (k != advisor && k != elephant || p.opts.TandemAdvisorElephant)
	if k == soldier && len(peers) >= 2 {
		if len(peers) >= 4 || len(peers) == 3 && sy.mid == 0 {
			return p.UCI(m)
		}
		for f := 0; f < nFiles; f++ {
			if f != x0 && len(p.sameOnFile(x, f)) >= 2 {
				return p.UCI(m)
			}
		}
	}
	if tandem {
		switch from {
		case peers[0]:
			b.WriteByte(sy.front)
		case peers[len(peers)-1]:
			b.WriteByte(sy.rear)
		default:
			b.WriteByte(sy.mid)
		}
	} else {
		b.WriteByte(byte('0' + fileNumber(us, x0)))
	}
	switch {
	case y1 == y0:
		b.WriteByte(sy.trav[0])
		b.WriteByte(byte('0' + fileNumber(us, x1)))
		return b.String()
	case (y1-y0)*forward(us) > 0:
		b.WriteByte(sy.adv[0])
	default:
		b.WriteByte(sy.ret[0])
	}
	if orthogonal(k) {
		b.WriteByte(byte('0' + abs(y1-y0)))
	} else {
		b.WriteByte(byte('0' + fileNumber(us, x1)))
	}
	return b.String()
}

// UCI implements rules.Position: ICCS coordinates with ranks 0–9,
// lower case, "h2e2" (ICCS).
func (p *Position) UCI(m rules.Move) string {
	g := rules.Xiangqi9x10
	return g.Name(m.From) + g.Name(m.To)
}

// ParseMove implements rules.Position. It accepts ICCS ("h2e2", "H2-E2";
// ranks 0–9, not Fairy-Stockfish's 1–10) and the position's notation
// dialect (default VN, "P2-5"). Syntax errors, unknown pieces and
// ambiguity give a *NotationError; a well-formed but illegal move gives a
// *rules.IllegalMoveError with Text set.
func (p *Position) ParseMove(s string) (rules.Move, error) {
	return p.ParseMoveDialect(s, p.opts.Notation)
}

// ParseMoveDialect is ParseMove reading dialect d instead of the
// position's. Besides the formatter's output it accepts, leniently, the
// general's move without its file ("Tg/1", as in the law's Fig. 1), tandem
// markers or file numbers for advisors and elephants, and a file number
// for a piece that has a tandem partner when only one reading is legal.
func (p *Position) ParseMoveDialect(s string, d Dialect) (rules.Move, error) {
	orig := s
	s = strings.TrimSpace(s)
	if m, ok := parseICCS(s); ok {
		if em, ok := p.find(m); ok {
			return p.toRules(em), nil
		}
		return rules.NoMove, &rules.IllegalMoveError{Move: m, Text: orig, Reason: p.reason(m)}
	}
	bad := func(format string, args ...any) (rules.Move, error) {
		return rules.NoMove, &NotationError{Text: orig, Dialect: d, Reason: fmt.Sprintf(format, args...)}
	}
	sy := d.syms()
	k := pieceLetter(sy, s)
	if k == 0 {
		return bad("no piece letter")
	}
	us := int(p.turn)
	x := code(us, k)
	s = s[len(sy.letters[k]):]
	if len(s) == 2 && k == general {
		s = string(byte('0'+fileNumber(us, fileOf(int(p.gen[us]))))) + s
	}
	if len(s) != 3 {
		return bad("want piece, origin, direction and number")
	}
	num := int(s[2] - '0')
	if s[2] < '1' || s[2] > '9' {
		return bad("number %q is not 1–9", s[2])
	}
	dir, ok := sy.direction(s[1])
	if !ok {
		return bad("direction %q is none of %s %s %s", s[1], sy.adv, sy.ret, sy.trav)
	}
	origins, ok := p.origins(sy, x, us, s[0])
	if !ok {
		return bad("origin %q is neither a file number nor a tandem marker", s[0])
	}
	if len(origins) == 0 {
		return bad("no %s there", kindNames[k])
	}
	var cands []rules.Move
	for _, from := range origins {
		if to := destination(k, us, from, dir, num); to >= 0 {
			cands = append(cands, rules.Move{From: rules.Square(from), To: rules.Square(to)})
		}
	}
	var legal []rules.Move
	for _, m := range cands {
		if em, ok := p.find(m); ok {
			legal = append(legal, p.toRules(em))
		}
	}
	switch {
	case len(legal) == 1:
		return legal[0], nil
	case len(legal) > 1:
		return bad("ambiguous: %d pieces can make it", len(legal))
	case len(cands) == 1:
		return rules.NoMove, &rules.IllegalMoveError{Move: cands[0], Text: orig, Reason: p.reason(cands[0])}
	case len(cands) == 0:
		return bad("the %s cannot move so", kindNames[k])
	}
	return bad("ambiguous: %d pieces could make it and none legally", len(cands))
}

// direction reads a direction sign: +1 advance, -1 retreat, 0 traverse.
func (sy *dialectSyms) direction(c byte) (int, bool) {
	switch {
	case strings.IndexByte(sy.adv, c) >= 0:
		return 1, true
	case strings.IndexByte(sy.ret, c) >= 0:
		return -1, true
	case strings.IndexByte(sy.trav, c) >= 0:
		return 0, true
	}
	return 0, false
}

// origins gives the points of the side us's pieces x that origin o names:
// a file number, or a tandem marker (front, rear, middle) naming one piece
// of each file where two or three such pieces stand. ok is false when o is
// neither.
func (p *Position) origins(sy *dialectSyms, x uint8, us int, o byte) (origins []int, ok bool) {
	switch {
	case o >= '1' && o <= '9':
		return p.sameOnFile(x, fileFromNumber(us, int(o-'0'))), true
	case o == sy.front || o == sy.rear || o == sy.mid && o != 0:
		for f := 0; f < nFiles; f++ {
			peers := p.sameOnFile(x, f)
			switch {
			case len(peers) < 2:
			case o == sy.front:
				origins = append(origins, peers[0])
			case o == sy.rear:
				origins = append(origins, peers[len(peers)-1])
			case len(peers) == 3:
				origins = append(origins, peers[1])
			}
		}
		return origins, true
	}
	return nil, false
}

// kindNames are the English names of docs/xiangqi.md, "Board, pieces, FEN".
var kindNames = [...]string{general: "general", advisor: "advisor", elephant: "elephant", chariot: "chariot", cannon: "cannon", horse: "horse", soldier: "soldier"}

// pieceLetter returns the kind whose letter s starts with in the dialect,
// or 0. The longest letter wins ("Tg" before "T").
func pieceLetter(sy *dialectSyms, s string) uint8 {
	best := uint8(0)
	for k, l := range sy.letters {
		if l != "" && strings.HasPrefix(s, l) && (best == 0 || len(l) > len(sy.letters[best])) {
			best = uint8(k)
		}
	}
	if best == 0 && s != "" {
		for k, a := range sy.alt {
			if a != 0 && s[0] == a {
				return uint8(k)
			}
		}
	}
	return best
}

// destination computes the point a piece of kind k and side us on from
// reaches by the move (dir, num) of Art. 11.2, or -1 when there is none.
func destination(k uint8, us, from, dir, num int) int {
	x0, y0 := fileOf(from), rankOf(from)
	if orthogonal(k) {
		if dir == 0 {
			x1 := fileFromNumber(us, num)
			if x1 == x0 {
				return -1
			}
			return point(x1, y0)
		}
		return point(x0, y0+dir*num*forward(us))
	}
	if dir == 0 {
		return -1
	}
	x1 := fileFromNumber(us, num)
	var dy int
	switch dx := abs(x1 - x0); {
	case k == advisor && dx == 1:
		dy = 1
	case k == elephant && dx == 2:
		dy = 2
	case k == horse && dx == 1:
		dy = 2
	case k == horse && dx == 2:
		dy = 1
	default:
		return -1
	}
	return point(x1, y0+dir*dy*forward(us))
}

// parseICCS reads "h2e2" or "h2-e2" in either case.
func parseICCS(s string) (rules.Move, bool) {
	s = strings.ToLower(s)
	if len(s) == 5 && s[2] == '-' {
		s = s[:2] + s[3:]
	}
	if len(s) != 4 {
		return rules.NoMove, false
	}
	sq := func(f, r byte) int {
		if f < 'a' || f > 'i' || r < '0' || r > '9' {
			return -1
		}
		return point(int(f-'a'), int(r-'0'))
	}
	from, to := sq(s[0], s[1]), sq(s[2], s[3])
	if from < 0 || to < 0 {
		return rules.NoMove, false
	}
	return rules.Move{From: rules.Square(from), To: rules.Square(to)}, true
}
