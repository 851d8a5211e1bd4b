package main

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules/announce"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// xiangqiMoveText is "announce --variant xiangqi" (docs/contract.md
// §1): MOVE in ICCS ("h2e2") or in the language's notation (vi: the
// short Vietnamese notation of 001, "P2-5"; en: WXF, "C2.5"), in the
// position --fen (default the start). It returns the spoken form on a
// first line (style long) and the move alone on the last line, in the
// language's notation.
func xiangqiMoveText(move, fen, style string, noCheck bool, l announce.Lang) (string, error) {
	st, err := announce.ParseStyle(style)
	if err != nil {
		return "", usageError{err}
	}
	if l != announce.English && l != announce.Vietnamese {
		return "", usageError{fmt.Errorf("announce: xiangqi moves are announced in en (WXF) or vi (001 notation), not %q", l)}
	}
	if fen == "" {
		fen = xiangqi.StartFEN
	}
	p, err := xiangqi.NewPosition(fen)
	if err != nil {
		return "", fmt.Errorf("announce: --fen: %w", err)
	}
	d := xiangqi.DialectVN
	if l == announce.English {
		d = xiangqi.DialectWXF
	}
	m, err := p.ParseMoveDialect(move, d)
	if err != nil {
		return "", fmt.Errorf("announce: %w", err)
	}
	t, err := announce.Xiangqi(p, m, l, announce.Options{OmitCheck: noCheck})
	if err != nil {
		return "", err
	}
	if st == announce.Short {
		return t.Notation, nil
	}
	return t.Spoken + "\n" + t.Notation, nil
}
