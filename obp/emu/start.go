package emu

import (
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// StartArray returns the start position's placement of a board of
// geometry g: xiangqi's (Art. 3) on 9×10, chess's on 8×8.
func StartArray(g rules.Geometry) rules.Placement {
	if g == rules.Xiangqi9x10 {
		return xiangqi.StartPosition().Placement()
	}
	return chess.StartPosition(chess.Standard).Placement()
}
