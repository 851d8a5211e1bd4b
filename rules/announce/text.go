package announce

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// RequestError is a request MoveText or ClockText does not take: an
// unknown variant or style, a language without the variant's notation, a
// clock not written WHITE/BLACK. A bad position or move is another error.
type RequestError struct{ Err error }

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// MoveText is the announcement of move (UCI or SAN; for xiangqi ICCS or
// the language's notation) in the position fen (the variant's start when
// empty), in style "long" or "short". A xiangqi move, announced in en
// (WXF) or vi (the short Vietnamese notation), gives the spoken form on a
// first line (style long) and the move alone in the language's notation
// on the last.
func MoveText(move, variant, fen, style string, noCheck bool, l Lang) (string, error) {
	if variant != "xiangqi" {
		if _, err := chess.ParseVariant(variant); err != nil {
			return "", &RequestError{fmt.Errorf("announce: unknown variant %q (want chess, chess960, crazyhouse or team-drop)", variant)}
		}
	}
	st, err := ParseStyle(style)
	if err != nil {
		return "", &RequestError{err}
	}
	if variant == "xiangqi" {
		return xiangqiMoveText(move, fen, st, noCheck, l)
	}
	v, _ := chess.ParseVariant(variant)
	if fen == "" {
		fen = v.StartFEN()
	}
	p, err := chess.NewPosition(v, fen)
	if err != nil {
		return "", fmt.Errorf("announce: --fen: %w", err)
	}
	m, err := p.ParseMove(move)
	if err != nil {
		return "", fmt.Errorf("announce: %w", err)
	}
	return Move(p, m, l, Options{Style: st, OmitCheck: noCheck})
}

// xiangqiMoveText is MoveText of a xiangqi move.
func xiangqiMoveText(move, fen string, st Style, noCheck bool, l Lang) (string, error) {
	if l != English && l != Vietnamese {
		return "", &RequestError{fmt.Errorf("announce: xiangqi moves are announced in en (WXF) or vi (001 notation), not %q", l)}
	}
	if fen == "" {
		fen = xiangqi.StartFEN
	}
	p, err := xiangqi.NewPosition(fen)
	if err != nil {
		return "", fmt.Errorf("announce: --fen: %w", err)
	}
	d := xiangqi.DialectVN
	if l == English {
		d = xiangqi.DialectWXF
	}
	m, err := p.ParseMoveDialect(move, d)
	if err != nil {
		return "", fmt.Errorf("announce: %w", err)
	}
	t, err := Xiangqi(p, m, l, Options{OmitCheck: noCheck})
	if err != nil {
		return "", err
	}
	if st == Short {
		return t.Notation, nil
	}
	return t.Spoken + "\n" + t.Notation, nil
}

// ClockText is the talking clock's announcement of clock, the remaining
// times written WHITE/BLACK as Go durations ("1h25m30s/58m2s"), after
// moves completed moves.
func ClockText(clock string, moves int, l Lang) (string, error) {
	w, b, ok := strings.Cut(clock, "/")
	if !ok {
		return "", &RequestError{fmt.Errorf("announce: --clock %q: want WHITE/BLACK, e.g. 1h25m30s/58m2s", clock)}
	}
	wd, err1 := time.ParseDuration(w)
	bd, err2 := time.ParseDuration(b)
	if err := errors.Join(err1, err2); err != nil || moves < 0 {
		return "", &RequestError{fmt.Errorf("announce: --clock %q --moves %d: want durations such as 1h25m30s/58m2s and a move count of 0 or more", clock, moves)}
	}
	return Time(Clock{White: wd, Black: bd, Moves: moves}, l)
}
