package teamdrop

import (
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Pocket counts the pieces one side may drop, by kind (Pawn … Queen).
type Pocket [rules.King]uint8

// pocketOrder is the order pockets are written in (docs/contract.md §3.3).
var pocketOrder = [...]rules.Kind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight, rules.Pawn}

// String returns the pocket as upper-case piece letters sorted Q R B N P
// ("NPP"), "" when empty: the MoveEvent's "pockets" value.
func (p Pocket) String() string {
	var b strings.Builder
	for _, k := range pocketOrder {
		for i := 0; i < int(p[k]); i++ {
			b.WriteByte(k.Letter())
		}
	}
	return b.String()
}

// Count returns how many pieces of kind k the pocket holds.
func (p Pocket) Count(k rules.Kind) int {
	if k < rules.Pawn || k > rules.Queen {
		return 0
	}
	return int(p[k])
}

// Empty reports whether the pocket holds nothing.
func (p Pocket) Empty() bool { return p == Pocket{} }

// ParsePocket reads a pocket written as piece letters in any order and
// either case ("NPP", "qn"); ok is false for any other character.
func ParsePocket(s string) (p Pocket, ok bool) {
	for i := 0; i < len(s); i++ {
		k, ok := rules.KindFromLetter(s[i])
		if !ok || k < rules.Pawn || k > rules.Queen || p[k] == 255 {
			return Pocket{}, false
		}
		p[k]++
	}
	return p, true
}

// pocketOf reads side c's pocket from a position.
func pocketOf(pos rules.Position, c rules.Color) Pocket {
	var p Pocket
	for k := rules.Pawn; k <= rules.Queen; k++ {
		p[k] = uint8(min(pos.Pocket(c, k), 255))
	}
	return p
}
