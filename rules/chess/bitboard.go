package chess

import "math/bits"

// bitboard is a set of squares: bit i is square i (a1 = 0, h8 = 63).
type bitboard = uint64

const (
	fileA        bitboard = 0x0101010101010101
	fileH        bitboard = fileA << 7
	rank1        bitboard = 0xff
	rank2        bitboard = rank1 << 8
	rank3        bitboard = rank1 << 16
	rank6        bitboard = rank1 << 40
	rank7        bitboard = rank1 << 48
	rank8        bitboard = rank1 << 56
	lightSquares bitboard = 0x55aa55aa55aa55aa
)

// Precomputed attack and line tables, filled by init.
var (
	knightAttacks [64]bitboard
	kingAttacks   [64]bitboard
	pawnAttacks   [2][64]bitboard  // [colour][square]: squares a pawn on square attacks
	betweenBB     [64][64]bitboard // squares strictly between two aligned squares
	lineBB        [64][64]bitboard // the whole line through two aligned squares, else 0
)

func popcount(b bitboard) int { return bits.OnesCount64(b) }

func lsb(b bitboard) int { return bits.TrailingZeros64(b) }

func sqBB(s int) bitboard { return 1 << uint(s) }

func fileOf(s int) int { return s & 7 }

func rankOf(s int) int { return s >> 3 }

// slowRay returns the attacks of a slider on s in the given directions with
// occupancy occ, walking square by square (used to build tables and check them).
func slowRay(s int, occ bitboard, dirs [4][2]int) bitboard {
	var att bitboard
	for _, d := range dirs {
		f, r := fileOf(s)+d[0], rankOf(s)+d[1]
		for f >= 0 && f < 8 && r >= 0 && r < 8 {
			t := r*8 + f
			att |= sqBB(t)
			if occ&sqBB(t) != 0 {
				break
			}
			f, r = f+d[0], r+d[1]
		}
	}
	return att
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func slowRookAttacks(s int, occ bitboard) bitboard   { return slowRay(s, occ, rookDirs) }
func slowBishopAttacks(s int, occ bitboard) bitboard { return slowRay(s, occ, bishopDirs) }

// magic holds the fancy-magic lookup data of one square for one slider.
type magic struct {
	mask   bitboard
	magic  uint64
	shift  uint8
	attack []bitboard
}

var (
	rookMagics   [64]magic
	bishopMagics [64]magic
)

func rookAttacks(s int, occ bitboard) bitboard {
	m := &rookMagics[s]
	return m.attack[((occ&m.mask)*m.magic)>>m.shift]
}

func bishopAttacks(s int, occ bitboard) bitboard {
	m := &bishopMagics[s]
	return m.attack[((occ&m.mask)*m.magic)>>m.shift]
}

func queenAttacks(s int, occ bitboard) bitboard {
	return rookAttacks(s, occ) | bishopAttacks(s, occ)
}

// rookMask and bishopMask are the relevant occupancy squares (edges excluded).
func rookMask(s int) bitboard {
	f, r := fileOf(s), rankOf(s)
	var m bitboard
	for x := f + 1; x < 7; x++ {
		m |= sqBB(r*8 + x)
	}
	for x := f - 1; x > 0; x-- {
		m |= sqBB(r*8 + x)
	}
	for y := r + 1; y < 7; y++ {
		m |= sqBB(y*8 + f)
	}
	for y := r - 1; y > 0; y-- {
		m |= sqBB(y*8 + f)
	}
	return m
}

func bishopMask(s int) bitboard {
	return slowBishopAttacks(s, 0) &^ (fileA | fileH | rank1 | rank8)
}

func initMagics(ms *[64]magic, magics *[64]uint64, mask func(int) bitboard, slow func(int, bitboard) bitboard) {
	total := 0
	for s := 0; s < 64; s++ {
		total += 1 << popcount(mask(s))
	}
	table := make([]bitboard, total)
	off := 0
	for s := 0; s < 64; s++ {
		m := mask(s)
		n := popcount(m)
		ms[s] = magic{mask: m, magic: magics[s], shift: uint8(64 - n), attack: table[off : off+1<<n]}
		// Enumerate subsets of m (carry-rippler).
		sub := bitboard(0)
		for {
			idx := (sub * magics[s]) >> (64 - n)
			ms[s].attack[idx] = slow(s, sub)
			sub = (sub - m) & m
			if sub == 0 {
				break
			}
		}
		off += 1 << n
	}
}

func init() {
	for s := 0; s < 64; s++ {
		f, r := fileOf(s), rankOf(s)
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			if x, y := f+d[0], r+d[1]; x >= 0 && x < 8 && y >= 0 && y < 8 {
				knightAttacks[s] |= sqBB(y*8 + x)
			}
		}
		for _, d := range [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}} {
			if x, y := f+d[0], r+d[1]; x >= 0 && x < 8 && y >= 0 && y < 8 {
				kingAttacks[s] |= sqBB(y*8 + x)
			}
		}
		for _, dx := range [2]int{-1, 1} {
			if x := f + dx; x >= 0 && x < 8 {
				if r < 7 {
					pawnAttacks[0][s] |= sqBB((r+1)*8 + x)
				}
				if r > 0 {
					pawnAttacks[1][s] |= sqBB((r-1)*8 + x)
				}
			}
		}
	}
	initMagics(&rookMagics, &rookMagicNumbers, rookMask, slowRookAttacks)
	initMagics(&bishopMagics, &bishopMagicNumbers, bishopMask, slowBishopAttacks)
	for a := 0; a < 64; a++ {
		for b := 0; b < 64; b++ {
			if a == b {
				continue
			}
			if slowRookAttacks(a, 0)&sqBB(b) != 0 {
				betweenBB[a][b] = slowRookAttacks(a, sqBB(b)) & slowRookAttacks(b, sqBB(a))
				lineBB[a][b] = (slowRookAttacks(a, 0) & slowRookAttacks(b, 0)) | sqBB(a) | sqBB(b)
			} else if slowBishopAttacks(a, 0)&sqBB(b) != 0 {
				betweenBB[a][b] = slowBishopAttacks(a, sqBB(b)) & slowBishopAttacks(b, sqBB(a))
				lineBB[a][b] = (slowBishopAttacks(a, 0) & slowBishopAttacks(b, 0)) | sqBB(a) | sqBB(b)
			}
		}
	}
}
