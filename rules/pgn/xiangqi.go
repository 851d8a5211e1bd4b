package pgn

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// Xiangqi games (docs/contract.md §6): [Variant "Xiangqi"], movetext in
// WXF notation ("C2.5", "H8+7", "R+.3"; docs/xiangqi.md, "Notation") and the
// ICCS move of every move in a [%iccs h2e2] comment command. The reader
// resolves the WXF text (traverse written "." or "=", ICCS accepted too)
// and checks it against the [%iccs] command where one is given; the
// Vietnamese notation of 001 is the MoveEvent's business, not the PGN's.

// Position is the PositionFunc used when ReaderOptions.NewPosition is
// nil: xiangqi positions from rules/xiangqi (writing and reading WXF), the
// chess family from rules/chess ([ChessPosition]).
func Position(variant, fen string) (rules.Position, error) {
	if variant != "xiangqi" {
		return ChessPosition(variant, fen)
	}
	if fen == "" {
		fen = xiangqi.StartFEN
	}
	p, err := xiangqi.NewPositionOptions(fen, xiangqi.Options{Notation: xiangqi.DialectWXF})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// movetextPosition returns pos as the movetext writes from it: a xiangqi
// position switched to WXF, whatever notation it was built with.
func movetextPosition(pos rules.Position) rules.Position {
	if p, ok := pos.(*xiangqi.Position); ok && p.Options().Notation != xiangqi.DialectWXF {
		o := p.Options()
		o.Notation = xiangqi.DialectWXF
		return p.WithOptions(o)
	}
	return pos
}

// iccsOf returns the [%iccs] value of m in pos, or "" for positions of
// other variants.
func iccsOf(pos rules.Position, m rules.Move) string {
	if pos == nil || pos.Variant() != "xiangqi" {
		return ""
	}
	return pos.UCI(m)
}

// validICCS reports whether v is an ICCS move: file a–i, rank 0–9, twice.
func validICCS(v []byte) bool {
	if len(v) != 4 {
		return false
	}
	for i := 0; i < 4; i += 2 {
		if v[i] < 'a' || v[i] > 'i' || v[i+1] < '0' || v[i+1] > '9' {
			return false
		}
	}
	return true
}

// checkICCS compares the [%iccs] command just read after node (ply of
// its line) with the move its WXF text resolved to in pos; a mismatch is
// a *MoveError: the file contradicts itself.
func (r *Reader) checkICCS(g *Game, pos rules.Position, node *MoveNode, ply, depth int) error {
	want := r.sink.iccs
	if want == "" || r.opts.ParseOnly {
		return nil
	}
	got := iccsOf(pos, node.Move)
	if got == "" || got == want {
		return nil
	}
	return &MoveError{Game: g.Ref(), Line: r.s.tokLine, Col: r.s.tokCol, Ply: ply, Variation: depth > 0,
		Number: pos.FullmoveNumber(), Turn: pos.Turn(), Text: node.SAN,
		Err: fmt.Errorf("%w: %s is %s but [%%iccs] says %s", ErrBadMove, node.SAN, got, want)}
}
