package chess

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
)

// ErrNotation is the sentinel every *NotationError matches with errors.Is.
var ErrNotation = errors.New("chess: bad move notation")

// NotationError says why a move text could not be read: bad syntax, or
// ambiguous in the position. A well-formed text naming an illegal move gives
// a *rules.IllegalMoveError instead.
type NotationError struct {
	Text   string
	Reason string
}

// Error implements error.
func (e *NotationError) Error() string {
	return fmt.Sprintf("chess: bad move %q: %s", e.Text, e.Reason)
}

// Unwrap returns ErrNotation.
func (e *NotationError) Unwrap() error { return ErrNotation }

func sqName(s int) string { return rules.Chess8x8.Name(rules.Square(s)) }

// UCI implements rules.Position: e2e4, e7e8q, drops N@f3 and P@e4,
// castling king-takes-rook (e1h1) under Chess960 options and the king's
// two-square step (e1g1) otherwise (when a FEN gave a non-960 variant an
// unusual castling set-up, king not on e1/e8 or rook not in the corner,
// king-takes-rook is used there too, because the other form would be
// ambiguous). The team variant's removal of a pawn (or a confiscation,
// see [Position.Lift]) is written -e1 (docs/contract.md §3.3).
func (p *Position) UCI(m rules.Move) string {
	m = p.normalize(m)
	switch {
	case m.Drop != rules.NoKind:
		return string(m.Drop.Letter()) + "@" + sqName(int(m.To))
	case m.Flags&rules.FlagRemove != 0:
		return "-" + sqName(int(m.From))
	case m.Flags&rules.FlagCastle != 0 && !p.opts.Chess960 && fileOf(int(m.From)) == 4 && (fileOf(int(m.To)) == 0 || fileOf(int(m.To)) == 7):
		kdst, _ := castleTargets(int(p.turn), castleSide(int(m.From), int(m.To)))
		return sqName(int(m.From)) + sqName(kdst)
	}
	s := sqName(int(m.From)) + sqName(int(m.To))
	if m.Promo != rules.NoKind {
		s += string(m.Promo.Letter() + 'a' - 'A')
	}
	return s
}

// SAN implements rules.Position: exact SAN with disambiguation by file,
// then rank, then both; "+" and "#"; "=Q"; O-O and O-O-O (also in
// Chess960); drops "N@f3" and "P@e4" (BPGN); the team variant's removal of
// a pawn "-e1". For a move that is not legal it returns the UCI text.
func (p *Position) SAN(m rules.Move) string {
	em, ok := p.find(m)
	if !ok {
		return p.UCI(m)
	}
	return p.san(em)
}

func (p *Position) san(em move) string {
	var buf [16]byte
	b := buf[:0]
	switch em.typ() {
	case mCastle:
		if castleSide(em.from(), em.to()) == hSide {
			b = append(b, "O-O"...)
		} else {
			b = append(b, "O-O-O"...)
		}
	case mDrop:
		b = append(b, rules.Kind(em.kind()).Letter(), '@')
		b = append(b, sqName(em.to())...)
	case mRemove:
		b = append(b, '-')
		b = append(b, sqName(em.from())...)
	default:
		from, to := em.from(), em.to()
		k := int(p.board[from] & 7)
		capture := p.board[to] != 0 || em.typ() == mEnPassant
		if k == pawn {
			if capture {
				b = append(b, byte('a'+fileOf(from)), 'x')
			}
			b = append(b, sqName(to)...)
			if em.typ() == mPromo {
				b = append(b, '=', rules.Kind(em.kind()).Letter())
			}
			break
		}
		b = append(b, rules.Kind(k).Letter())
		if k != king {
			// Other pieces of the same kind that can go to the same square.
			var ml moveList
			p.genLegal(&ml)
			var others bitboard
			for i := 0; i < ml.n; i++ {
				o := ml.m[i]
				if o.to() == to && o.from() != from && o.typ() != mDrop && o.typ() != mCastle && o.typ() != mRemove && int(p.board[o.from()]&7) == k {
					others |= sqBB(o.from())
				}
			}
			if others != 0 {
				switch {
				case others&(fileA<<uint(fileOf(from))) == 0:
					b = append(b, byte('a'+fileOf(from)))
				case others&(rank1<<uint(8*rankOf(from))) == 0:
					b = append(b, byte('1'+rankOf(from)))
				default:
					b = append(b, sqName(from)...)
				}
			}
		}
		if capture {
			b = append(b, 'x')
		}
		b = append(b, sqName(to)...)
	}
	q := *p
	q.doMove(em)
	if q.InCheck() {
		var ml moveList
		q.genLegal(&ml)
		if ml.n == 0 {
			b = append(b, '#')
		} else {
			b = append(b, '+')
		}
	}
	return string(b)
}

// ParseMove implements rules.Position. It reads UCI (e2e4, e7e8q, e1g1 and
// e1h1 for castling, N@f3, P@e4), long algebraic (e2-e4, Ng1-f3, e7xd8=Q)
// and SAN with the usual liberties: O-O / 0-0, promotions as e8=Q, e8Q or
// e8q, "e.p." and any "+", "#", "!", "?" suffixes, pawn drops as "@e4".
// Syntax errors and ambiguity give a *NotationError, a well-formed but
// illegal move a *rules.IllegalMoveError with its Text set.
func (p *Position) ParseMove(s string) (rules.Move, error) {
	orig := s
	s = strings.TrimSpace(s)
	s = strings.TrimRight(s, "+#!?")
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimSuffix(s, " ep")
	s = strings.TrimSpace(s)
	bad := func(reason string) (rules.Move, error) {
		return rules.NoMove, &NotationError{Text: orig, Reason: reason}
	}
	illegal := func(m rules.Move) (rules.Move, error) {
		err := p.Check(m)
		if e, ok := err.(*rules.IllegalMoveError); ok {
			e.Text = orig
		}
		return rules.NoMove, err
	}
	if s == "" {
		return bad("empty")
	}
	// Castling.
	switch strings.ReplaceAll(s, "0", "O") {
	case "O-O", "OO":
		return p.parseCastle(orig, hSide)
	case "O-O-O", "OOO":
		return p.parseCastle(orig, aSide)
	}
	// Removals: -e8 (and the older x@e8).
	if len(s) == 3 && s[0] == '-' {
		return p.parseRemoval(s[1:], bad, illegal)
	}
	// Drops and removals.
	if i := strings.IndexByte(s, '@'); i >= 0 {
		return p.parseDrop(s, i, bad, illegal)
	}
	// Promotion suffix.
	s, promo := stripPromotion(s)
	// Coordinates: e2e4, e2-e4, Ng1-f3, e7xd8.
	c := stripSeparators(s)
	if len(c) == 5 && c[0] >= 'A' && c[0] <= 'Z' {
		c = c[1:]
	}
	if len(c) == 4 && isFile(c[0]) && isRank(c[1]) && isFile(c[2]) && isRank(c[3]) {
		from, _ := rules.Chess8x8.ParseSquare(c[:2])
		to, _ := rules.Chess8x8.ParseSquare(c[2:])
		m := rules.Move{From: from, To: to, Promo: promo}
		if em, ok := p.find(m); ok {
			return p.toRules(em), nil
		}
		return illegal(p.normalize(m))
	}
	return p.parseSAN(orig, s, promo)
}

// parseDrop reads a drop (N@f3, @e4 for a pawn) or an old-style removal
// (x@e8); i is the index of the '@'.
func (p *Position) parseDrop(s string, i int, bad func(string) (rules.Move, error), illegal func(rules.Move) (rules.Move, error)) (rules.Move, error) {
	to, err := rules.Chess8x8.ParseSquare(s[i+1:])
	if err != nil || i > 1 {
		return bad("bad drop")
	}
	if i == 1 && (s[0] == 'x' || s[0] == 'X') {
		return p.parseRemoval(s[i+1:], bad, illegal)
	}
	k := rules.Pawn
	if i == 1 {
		var ok bool
		if k, ok = rules.KindFromLetter(s[0]); !ok || k > rules.Queen {
			return bad("bad drop piece")
		}
	}
	m := rules.Move{From: rules.NoSquare, To: to, Drop: k, Flags: rules.FlagDrop}
	if em, ok := p.find(m); ok {
		return p.toRules(em), nil
	}
	return illegal(m)
}

// stripPromotion removes a promotion suffix (=Q, Q after the last rank,
// (Q)) and returns the rest and the piece, or rules.NoKind.
func stripPromotion(s string) (string, rules.Kind) {
	n := len(s)
	if n < 3 {
		return s, rules.NoKind
	}
	last := s[n-1]
	if k, ok := rules.KindFromLetter(last); ok && k >= rules.Knight && k <= rules.Queen && (s[n-2] == '=' || s[n-2] == '1' || s[n-2] == '8' || s[n-2] == '(') {
		return strings.TrimRight(s[:n-1], "=("), k
	}
	if n >= 4 && last == ')' {
		if k, ok := rules.KindFromLetter(s[n-2]); ok && s[n-3] == '(' {
			return s[:n-3], k
		}
	}
	return s, rules.NoKind
}

// parseRemoval reads the square of a removal move (-e8).
func (p *Position) parseRemoval(sq string, bad func(string) (rules.Move, error), illegal func(rules.Move) (rules.Move, error)) (rules.Move, error) {
	from, err := rules.Chess8x8.ParseSquare(sq)
	if err != nil {
		return bad("bad removal square")
	}
	m := rules.Move{From: from, To: rules.NoSquare, Flags: rules.FlagRemove}
	if em, ok := p.find(m); ok {
		return p.toRules(em), nil
	}
	return illegal(m)
}

// stripSeparators drops the capture and move signs "x", ":" and "-".
func stripSeparators(s string) string {
	if !strings.ContainsAny(s, "x:-") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != 'x' && c != ':' && c != '-' {
			b = append(b, c)
		}
	}
	return string(b)
}

func isFile(b byte) bool { return b >= 'a' && b <= 'h' }
func isRank(b byte) bool { return b >= '1' && b <= '8' }

func (p *Position) parseCastle(orig string, side int) (rules.Move, error) {
	var ml moveList
	p.genLegal(&ml)
	for i := 0; i < ml.n; i++ {
		if m := ml.m[i]; m.typ() == mCastle && castleSide(m.from(), m.to()) == side {
			return p.toRules(m), nil
		}
	}
	us := int(p.turn)
	ksq := p.kingSq(us)
	m := rules.Move{From: rules.Square(ksq), To: rules.Square(ksq), Flags: rules.FlagCastle}
	if rsq := p.castle[us][side]; rsq >= 0 {
		m.To = rules.Square(rsq)
	} else {
		return rules.NoMove, &rules.IllegalMoveError{Move: m, Text: orig, Reason: rules.ReasonCastleRightsGone}
	}
	return rules.NoMove, &rules.IllegalMoveError{Move: m, Text: orig, Reason: p.reason(m)}
}

// parseSAN reads a SAN body (suffixes and promotion already stripped).
func (p *Position) parseSAN(orig, s string, promo rules.Kind) (rules.Move, error) {
	bad := func(reason string) (rules.Move, error) {
		return rules.NoMove, &NotationError{Text: orig, Reason: reason}
	}
	t, reason := readSAN(s)
	if reason != "" {
		return bad(reason)
	}
	t.promo = promo
	var ml moveList
	p.genLegal(&ml)
	var found move
	n := 0
	for i := 0; i < ml.n; i++ {
		if m := ml.m[i]; p.sanMatches(t, m) && (n == 0 || m != found) {
			found = m
			n++
		}
	}
	switch {
	case n == 1:
		return p.toRules(found), nil
	case n > 1:
		return bad("ambiguous")
	}
	return rules.NoMove, p.illegalSAN(orig, t)
}

// sanTarget is what a SAN body names: the piece, its target and what
// disambiguates it (-1: not given).
type sanTarget struct {
	kind, to           int
	fromFile, fromRank int
	promo              rules.Kind
}

// readSAN splits a SAN body into its parts, or says why it cannot.
func readSAN(s string) (sanTarget, string) {
	t := sanTarget{kind: pawn, fromFile: -1, fromRank: -1}
	if s == "" {
		return t, "no target square" // e.g. "((B": nothing but a promotion suffix
	}
	if s[0] >= 'A' && s[0] <= 'Z' {
		k, ok := rules.KindFromLetter(s[0])
		if !ok || k > rules.King || k == rules.Pawn {
			if s[0] != 'P' {
				return t, "unknown piece letter"
			}
		} else {
			t.kind = int(k)
		}
		s = s[1:]
	}
	s = stripSeparators(s)
	if len(s) < 2 || !isFile(s[len(s)-2]) || !isRank(s[len(s)-1]) {
		return t, "no target square"
	}
	t.to = int(s[len(s)-2]-'a') + 8*int(s[len(s)-1]-'1')
	dis := s[:len(s)-2]
	switch {
	case len(dis) == 0:
	case len(dis) == 1 && isFile(dis[0]):
		t.fromFile = int(dis[0] - 'a')
	case len(dis) == 1 && isRank(dis[0]):
		t.fromRank = int(dis[0] - '1')
	case len(dis) == 2 && isFile(dis[0]) && isRank(dis[1]):
		t.fromFile, t.fromRank = int(dis[0]-'a'), int(dis[1]-'1')
	default:
		return t, "bad disambiguation"
	}
	return t, ""
}

// fromFits reports whether a move from square from fits t's disambiguation.
func (t sanTarget) fromFits(from int) bool {
	return (t.fromFile < 0 || fileOf(from) == t.fromFile) && (t.fromRank < 0 || rankOf(from) == t.fromRank)
}

// sanMatches reports whether the legal move m is the one t names.
func (p *Position) sanMatches(t sanTarget, m move) bool {
	if m.typ() == mDrop || m.typ() == mCastle || m.typ() == mRemove || m.to() != t.to {
		return false
	}
	if int(p.board[m.from()]&7) != t.kind || !t.fromFits(m.from()) {
		return false
	}
	if m.typ() == mPromo {
		return rules.Kind(m.kind()) == t.promo
	}
	return t.promo == rules.NoKind
}

// illegalSAN explains why no legal move fits t: it finds the piece meant
// (the one of that kind whose geometry reaches the target) to say why.
func (p *Position) illegalSAN(orig string, t sanTarget) error {
	us := int(p.turn)
	var cands bitboard
	for f := p.bb[us][t.kind]; f != 0; f &= f - 1 {
		from := lsb(f)
		if !t.fromFits(from) {
			continue
		}
		var geo bitboard
		switch t.kind {
		case pawn:
			geo = pawnAttacks[us][from] | fileA<<uint(fileOf(from))&^sqBB(from)
		case knight:
			geo = knightAttacks[from]
		case bishop:
			geo = bishopRays[from]
		case rook:
			geo = rookRays[from]
		case queen:
			geo = bishopRays[from] | rookRays[from]
		case king:
			geo = kingAttacks[from]
		}
		if geo&sqBB(t.to) != 0 {
			cands |= sqBB(from)
		}
	}
	m := rules.Move{From: rules.NoSquare, To: rules.Square(t.to), Promo: t.promo}
	reason := rules.ReasonNoPiece
	if cands != 0 && cands&(cands-1) == 0 {
		m.From = rules.Square(lsb(cands))
		reason = p.reason(m)
	} else if cands != 0 {
		reason = rules.ReasonUnknown
	} else if p.bb[us][t.kind] != 0 {
		reason = rules.ReasonBadGeometry
	}
	return &rules.IllegalMoveError{Move: m, Text: orig, Reason: reason}
}
