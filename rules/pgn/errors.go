package pgn

import (
	"errors"
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Sentinel errors. The reader wraps them in a *SyntaxError or *MoveError
// that says where; match them with errors.Is.
var (
	ErrUnexpectedChar      = errors.New("pgn: unexpected character")
	ErrUnexpectedToken     = errors.New("pgn: unexpected token")
	ErrUnterminatedString  = errors.New("pgn: unterminated string")
	ErrUnterminatedComment = errors.New("pgn: unterminated comment")
	ErrBadTag              = errors.New("pgn: bad tag pair")
	ErrBadNAG              = errors.New("pgn: bad annotation glyph")
	ErrBadVariation        = errors.New("pgn: unbalanced variation")
	ErrUnknownVariant      = errors.New("pgn: unknown variant")
	ErrBadFEN              = errors.New("pgn: bad FEN tag")
	ErrBadClock            = errors.New("pgn: bad clock value")
	ErrBadMove             = errors.New("pgn: bad move")
	ErrTooDeep             = errors.New("pgn: variations nested too deeply")
	ErrNoStart             = errors.New("pgn: game has no start position (read with ParseOnly)")
)

// GameRef identifies a game in a multi-game stream for error messages:
// its 1-based index and the identifying tags read before the error.
type GameRef struct {
	Index                      int
	Event, Round, White, Black string
}

// String returns "game 3", followed by the known identifying tags:
// `game 3 (Event "Open", Round "1.2", White "A", Black "B")`.
func (g GameRef) String() string {
	s := fmt.Sprintf("game %d", g.Index)
	sep := " ("
	for _, t := range [...]Tag{{"Event", g.Event}, {"Round", g.Round}, {"White", g.White}, {"Black", g.Black}} {
		if t.Value != "" {
			s += fmt.Sprintf("%s%s %q", sep, t.Name, t.Value)
			sep = ", "
		}
	}
	if sep == ", " {
		s += ")"
	}
	return s
}

// SyntaxError is bad PGN text: a bad tag, an unterminated comment, a stray
// character, a bad FEN or variant tag. Line and Col (1-based; columns
// count characters) point at the offending token. The reader skips the
// rest of the game; the next call to Next reads the following game.
type SyntaxError struct {
	Game      GameRef
	Line, Col int
	Err       error // one of the sentinels, possibly wrapping a cause
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("pgn: %s, line %d, column %d: %v", e.Game, e.Line, e.Col, e.Err)
}

// Unwrap returns the cause.
func (e *SyntaxError) Unwrap() error { return e.Err }

// MoveError is a move that does not resolve against the position: an
// illegal or ambiguous move, or text that is not a move. Ply counts
// half-moves of the line from 1; Variation is true when the move stood in
// a variation rather than the main line. Err wraps ErrBadMove and the
// rules package's error (errors.Is(err, rules.ErrIllegalMove) for illegal
// moves). From Write, Line and Col are 0 and Text is the move in UCI.
type MoveError struct {
	Game      GameRef
	Line, Col int
	Ply       int
	Number    int         // the move number (FEN fullmove number)
	Turn      rules.Color // the side that was to move
	Variation bool
	Text      string // the move as written
	Err       error
}

// Error implements error.
func (e *MoveError) Error() string {
	where := "main line"
	if e.Variation {
		where = "variation"
	}
	dots := "."
	if e.Turn == rules.Black {
		dots = "..."
	}
	return fmt.Sprintf("pgn: %s, line %d, column %d: %s ply %d, %d%s %s: %v", e.Game, e.Line, e.Col, where, e.Ply, e.Number, dots, e.Text, e.Err)
}

// Unwrap returns the cause.
func (e *MoveError) Unwrap() error { return e.Err }
