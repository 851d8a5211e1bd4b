package pgn

import (
	"github.com/dgtbridge/dgtbridge/rules"
)

// resolver turns move text into a move of a position. Plain piece and pawn
// moves of the 8×8 chess family in SAN ("Nbd7", "exd8=Q+", "Rxe1#") are
// matched against the position's legal moves directly, which needs no
// allocation; everything else (castling, drops, coordinate notation,
// ambiguous or illegal text) goes to Position.ParseMove, which also gives
// the error that says why a move is bad. Both agree on every move the fast
// path accepts: it only accepts text that exactly one legal move matches.
type resolver struct {
	moves []rules.Move // scratch for LegalMoves
}

func (rv *resolver) resolve(pos rules.Position, text []byte) (rules.Move, error) {
	if m, ok := rv.fast(pos, text); ok {
		return m, nil
	}
	return pos.ParseMove(string(text))
}

// chessFamily reports whether the fast path understands pos's SAN.
func chessFamily(pos rules.Position) bool {
	if pos.Geometry() != rules.Chess8x8 {
		return false
	}
	switch pos.Variant() {
	case "chess", "chess960", "crazyhouse", "team-drop":
		return true
	}
	return false
}

// fast resolves plain SAN; ok is false when the text is not plain SAN or
// does not match exactly one legal move.
func (rv *resolver) fast(pos rules.Position, s []byte) (rules.Move, bool) {
	for len(s) > 0 && (s[len(s)-1] == '+' || s[len(s)-1] == '#') {
		s = s[:len(s)-1]
	}
	if len(s) < 2 || !chessFamily(pos) {
		return rules.NoMove, false
	}
	kind := rules.Pawn
	switch s[0] {
	case 'N', 'B', 'R', 'Q', 'K':
		kind, _ = rules.KindFromLetter(s[0])
		s = s[1:]
	}
	promo := rules.NoKind
	if n := len(s); n >= 2 && s[n-2] == '=' {
		k, ok := rules.KindFromLetter(s[n-1])
		if !ok || s[n-1] < 'A' || s[n-1] > 'Z' {
			return rules.NoMove, false
		}
		promo = k
		s = s[:n-2]
	}
	n := len(s)
	if n < 2 || !isFileByte(s[n-2]) || !isRankByte(s[n-1]) {
		return rules.NoMove, false
	}
	to := rules.Chess8x8.Square(int(s[n-2]-'a'), int(s[n-1]-'1'))
	dis := s[:n-2]
	capture := len(dis) > 0 && dis[len(dis)-1] == 'x'
	if capture {
		dis = dis[:len(dis)-1]
	}
	fromFile, fromRank := -1, -1
	for _, c := range dis {
		switch {
		case isFileByte(c) && fromFile < 0 && fromRank < 0:
			fromFile = int(c - 'a')
		case isRankByte(c) && fromRank < 0:
			fromRank = int(c - '1')
		default:
			return rules.NoMove, false
		}
	}
	if kind == rules.Pawn && capture && fromFile < 0 {
		return rules.NoMove, false
	}
	rv.moves = pos.LegalMoves(rv.moves[:0])
	found, count := rules.NoMove, 0
	for _, m := range rv.moves {
		if m.To != to || m.IsDrop() || m.IsCastle() || m.Promo != promo || m.From == rules.NoSquare {
			continue
		}
		if fromFile >= 0 && rules.Chess8x8.File(m.From) != fromFile || fromRank >= 0 && rules.Chess8x8.Rank(m.From) != fromRank {
			continue
		}
		if pos.At(m.From).Kind != kind {
			continue
		}
		found = m
		count++
	}
	return found, count == 1
}

func isFileByte(c byte) bool { return c >= 'a' && c <= 'h' }
func isRankByte(c byte) bool { return c >= '1' && c <= '8' }
