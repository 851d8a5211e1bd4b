package chess

import "github.com/dgtbridge/dgtbridge/rules"

// CanMate implements rules.Position (FIDE 5.2.2, 6.9, 7.5.5; the material
// test of FIDE Laws Art. 5 and 6.9). It answers false exactly when:
//
//   - c has a bare king;
//   - c has king and one knight, or king and bishops all on squares of one
//     colour, and the opponent has a bare king;
//   - every piece on the board other than the kings is a bishop and all
//     bishops stand on squares of one colour.
//
// Everything else is true, including positions that are dead only because
// of blocked pawns (no helpmate search). In drop variants it is false only
// with bare kings and empty pockets where captures feed the pockets
// (crazyhouse); with pockets fed from outside (team drop) it is always true,
// because the partner may still send pieces.
func (p *Position) CanMate(c rules.Color) bool {
	if c > rules.Black {
		return false
	}
	if p.opts.Drops {
		if !p.opts.CapturesToPocket {
			return true
		}
		for s := 0; s < 2; s++ {
			for k := pawn; k <= queen; k++ {
				if p.pocket[s][k] != 0 {
					return true
				}
			}
		}
		return p.occupied() != p.bb[0][king]|p.bb[1][king]
	}
	us, them := &p.bb[c], &p.bb[c^1]
	if us[pawn]|us[rook]|us[queen] != 0 {
		return true
	}
	if us[knight]|us[bishop] == 0 {
		return false
	}
	kings := us[king] | them[king]
	bishops := us[bishop] | them[bishop]
	if p.occupied() == kings|bishops && (bishops&lightSquares == 0 || bishops&^lightSquares == 0) {
		return false
	}
	if them[0] == them[king] {
		if us[bishop] == 0 && popcount(us[knight]) == 1 {
			return false
		}
	}
	return true
}
