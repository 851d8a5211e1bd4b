package session

import (
	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// Xiangqi games in the hall (docs/xiangqi.md): the record's SAN is WXF (the
// PGN's movetext), its UCI is ICCS, and every ply also carries the notation
// people read, the short Vietnamese form of 001 by default (the rule set's
// notation_dialect), for MoveEvent.notation and GameState.notation.

// startPosition returns the position a game of variant starts from, fen
// ("" the variant's start): a xiangqi position writes WXF (the record's
// SAN) with the rule set's advisor and elephant switch; other variants are
// rules/pgn's.
func startPosition(variant, fen string, rs ruleset.RuleSet) (rules.Position, error) {
	if variant != gamerecord.VariantXiangqi {
		return pgn.Position(variant, fen)
	}
	if fen == "" {
		fen = xiangqi.StartFEN
	}
	p, err := xiangqi.NewPositionOptions(fen, xiangqiOptions(rs))
	if err != nil {
		return nil, err
	}
	return p, nil
}

// xiangqiOptions are the WXF options of the record's positions.
func xiangqiOptions(rs ruleset.RuleSet) xiangqi.Options {
	return xiangqi.Options{Notation: xiangqi.DialectWXF, TandemAdvisorElephant: rs.Xiangqi.TandemAdvisorElephant}
}

// xiangqiSetup recognises the initial array on a xiangqi board (a new
// game after a result, as board.ChessSetup does for chess).
func xiangqiSetup(rs ruleset.RuleSet) board.SetupFunc {
	return func(p rules.Placement) (rules.Position, int, bool) {
		if !xiangqi.IsStart(p) {
			return nil, -1, false
		}
		pos, err := xiangqi.FromPlacement(p, rules.White, xiangqiOptions(rs))
		if err != nil {
			return nil, -1, false
		}
		return pos, -1, true
	}
}

// notation returns move m of position prev in the rule set's dialect for
// people (xiangqi only; "" for other variants or a move that is not one of
// the side to move's pieces).
func notation(prev rules.Position, m rules.Move, rs ruleset.RuleSet) string {
	p, ok := prev.(*xiangqi.Position)
	if !ok || !prev.Geometry().Contains(m.From) || prev.At(m.From).Color != prev.Turn() {
		return ""
	}
	d, err := xiangqi.ParseDialect(rs.Xiangqi.Notation)
	if err != nil {
		d = xiangqi.DialectVN
	}
	return p.Notation(m, d)
}
