package announce

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// Style chooses how a move is announced.
type Style uint8

// The styles.
const (
	// Long: piece, departure and destination ("Knight g1 to f3"); the
	// format of docs/blind-players.md. The default.
	Long Style = iota
	// Short: piece, SAN disambiguation, destination ("Knight f3", "Knight b
	// d2"); pawn captures keep the departure file ("Pawn e takes d5").
	Short
)

// ErrStyle: the style is not "long" or "short".
var ErrStyle = errors.New("announce: unknown style")

// ParseStyle parses "long" or "short" ("" is long); anything else is an
// error matching [ErrStyle].
func ParseStyle(s string) (Style, error) {
	switch s {
	case "long", "":
		return Long, nil
	case "short":
		return Short, nil
	}
	return Long, fmt.Errorf("%w %q (want long or short)", ErrStyle, s)
}

// Options tune [Move]. The zero value is the default: [Long], check and
// mate announced.
type Options struct {
	Style Style
	// OmitCheck leaves out "check" and "checkmate" (D.2.1 does not require
	// them; the organiser decides under D.1).
	OmitCheck bool
}

// ErrUnsupported: the position is neither on an 8×8 board nor a xiangqi
// position.
var ErrUnsupported = errors.New("announce: only chess-family and xiangqi positions can be announced")

// Move returns the announcement of move m played in pos, in language
// lang. m must be legal in pos (its flags need not be set: the legal move
// with the same squares, promotion and drop is used); an illegal move
// returns the *rules.IllegalMoveError of pos.Check. The text covers the
// piece, the squares, a capture (en passant named), the promotion piece
// (D.2.1: "the player must announce which piece he has chosen"),
// castling in the D.2.1 words, drops, and check or mate. A xiangqi
// position gives the Spoken text of [Xiangqi].
func Move(pos rules.Position, m rules.Move, lang Lang, opts Options) (string, error) {
	if xp, ok := pos.(*xiangqi.Position); ok {
		t, err := Xiangqi(xp, m, lang, opts)
		return t.Spoken, err
	}
	w, ok := vocab[lang]
	if !ok {
		return "", fmt.Errorf("%w %q", ErrLang, lang)
	}
	g := pos.Geometry()
	if g != rules.Chess8x8 {
		return "", ErrUnsupported
	}
	legal := pos.LegalMoves(nil)
	found := false
	for _, l := range legal {
		if l.SameAs(m) {
			m, found = l, true
			break
		}
	}
	if !found {
		if err := pos.Check(m); err != nil {
			return "", err
		}
		return "", &rules.IllegalMoveError{Move: m, Reason: rules.ReasonUnknown}
	}

	parts := []string{body(pos, m, legal, w, opts.Style)}
	if m.Promo != rules.NoKind {
		parts = append(parts, fmt.Sprintf(w.promotes, w.piece(m.Promo)))
	}
	if !opts.OmitCheck {
		after, err := pos.Play(m)
		if err != nil {
			return "", err
		}
		switch {
		case after.Status() == rules.Checkmate:
			parts = append(parts, w.mate)
		case after.InCheck():
			parts = append(parts, w.check)
		}
	}
	return strings.Join(parts, w.sep), nil
}

// body announces the move itself, without promotion and check.
func body(pos rules.Position, m rules.Move, legal []rules.Move, w *words, style Style) string {
	g := pos.Geometry()
	switch {
	case m.IsCastle():
		if g.File(m.To) > g.File(m.From) {
			return w.short
		}
		return w.long
	case m.IsDrop():
		return fmt.Sprintf(w.drop, w.piece(m.Drop), w.square(g, m.To))
	case m.Flags&rules.FlagRemove != 0 || m.To == rules.NoSquare:
		// Team variant A6: the opponent's unpromoted pawn is taken off.
		return fmt.Sprintf(w.remove, w.piece(pos.At(m.From).Kind), w.square(g, m.From))
	}
	kind := pos.At(m.From).Kind
	var b []string
	b = append(b, w.piece(kind))
	switch style {
	case Short:
		if d := disambiguation(pos, m, legal, kind, w); d != "" {
			b = append(b, d)
		}
		if m.IsCapture() {
			b = append(b, w.takes)
		}
	default:
		b = append(b, w.square(g, m.From))
		if m.IsCapture() {
			b = append(b, w.takes)
		} else {
			b = append(b, w.to)
		}
	}
	b = append(b, w.square(g, m.To))
	if m.Flags&rules.FlagEnPassant != 0 {
		b = append(b, w.enPassant)
	}
	return strings.Join(b, " ")
}

// disambiguation returns what SAN writes between the piece and the
// destination: the departure file of a pawn capture, and for other pieces
// the file, the rank or both of the departure square when another piece
// of the same kind can go to the same square.
func disambiguation(pos rules.Position, m rules.Move, legal []rules.Move, kind rules.Kind, w *words) string {
	g := pos.Geometry()
	if kind == rules.Pawn {
		if m.IsCapture() {
			return w.file(g.File(m.From))
		}
		return ""
	}
	if kind == rules.King {
		return ""
	}
	var others, sameFile, sameRank int
	for _, l := range legal {
		if l.To != m.To || l.From == m.From || l.IsDrop() || l.IsCastle() || pos.At(l.From).Kind != kind {
			continue
		}
		others++
		if g.File(l.From) == g.File(m.From) {
			sameFile++
		}
		if g.Rank(l.From) == g.Rank(m.From) {
			sameRank++
		}
	}
	switch {
	case others == 0:
		return ""
	case sameFile == 0:
		return w.file(g.File(m.From))
	case sameRank == 0:
		return w.rank(g.Rank(m.From))
	}
	return w.square(g, m.From)
}
