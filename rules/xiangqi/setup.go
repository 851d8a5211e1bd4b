package xiangqi

import (
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
)

// FromPlacement builds the position a board's sensors show: placement pl
// (which must have the 9×10 geometry and only xiangqi kinds), turn to
// move, clocks at zero and move 1, options opts. The same positions are
// accepted as by NewPositionOptions; errors are *FENError.
func FromPlacement(pl rules.Placement, turn rules.Color, opts Options) (*Position, error) {
	if pl.Geo != rules.Xiangqi9x10 {
		return nil, &FENError{FEN: pl.String(), Field: "placement", Reason: fmt.Sprintf("%d×%d board, want 9×10", pl.Geo.Files, pl.Geo.Ranks)}
	}
	var b strings.Builder
	for r := nRanks - 1; r >= 0; r-- {
		for f := 0; f < nFiles; f++ {
			pc := pl.Sq[point(f, r)]
			switch {
			case pc.IsEmpty():
				b.WriteByte('1')
				continue
			case pc.Kind == rules.Bishop || pc.Kind == rules.Queen || int(pc.Kind) >= len(fenLetters) || pc.Color > rules.Black:
				return nil, &FENError{FEN: pl.String(), Field: "placement", Reason: fmt.Sprintf("%v %v is not a xiangqi piece", pc.Color, pc.Kind)}
			}
			l := fenLetters[pc.Kind]
			if pc.Color == rules.Black {
				l += 'a' - 'A'
			}
			b.WriteByte(l)
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	side := " w"
	if turn == rules.Black {
		side = " b"
	}
	return NewPositionOptions(b.String()+side, opts)
}

// IsStart reports whether pl shows the initial array of
// Art. 3.
func IsStart(pl rules.Placement) bool { return pl == startPlacement }

var startPlacement = StartPosition().Placement()
