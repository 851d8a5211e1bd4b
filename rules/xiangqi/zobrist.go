package xiangqi

// Zobrist keys: one per piece code and point, one for Black to move. They
// come from a fixed splitmix64 stream, so keys are stable across runs and
// processes (recordings may store them).
var (
	zPiece [32][nPoints]uint64
	zSide  uint64
)

func init() {
	seed := uint64(0x78696e6771690a01) // "xiangqi"
	next := func() uint64 {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for c := 0; c < 2; c++ {
		for _, k := range []uint8{soldier, horse, chariot, general, advisor, elephant, cannon} {
			for s := 0; s < nPoints; s++ {
				zPiece[code(c, k)][s] = next()
			}
		}
	}
	zSide = next()
}

// computeHash returns the Zobrist hash of p from scratch.
func (p *Position) computeHash() uint64 {
	var h uint64
	for s, x := range p.board {
		if x != 0 {
			h ^= zPiece[x][s]
		}
	}
	if p.turn != 0 {
		h ^= zSide
	}
	return h
}
