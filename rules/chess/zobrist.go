package chess

import "github.com/dgtbridge/dgtbridge/rules"

// Zobrist keys, drawn from a fixed-seed splitmix64 so keys are stable
// across runs and builds.
var (
	zPiece    [2][7][64]uint64
	zTurn     uint64
	zCastle   [64]uint64 // by castling rook square
	zEP       [8]uint64
	zPocket   [2][7][65]uint64
	zPromoted [64]uint64
)

func init() {
	x := uint64(0x243f6a8885a308d3)
	next := func() uint64 {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for c := 0; c < 2; c++ {
		for k := 1; k < 7; k++ {
			for s := 0; s < 64; s++ {
				zPiece[c][k][s] = next()
			}
			for n := 1; n < 65; n++ {
				zPocket[c][k][n] = next()
			}
		}
	}
	zTurn = next()
	for s := 0; s < 64; s++ {
		zCastle[s] = next()
		zPromoted[s] = next()
	}
	for f := 0; f < 8; f++ {
		zEP[f] = next()
	}
}

// RepetitionKey implements rules.Position: placement, side to move,
// castling rights, the en-passant file only when a legal en-passant capture
// exists (FIDE 9.2.2), and in drop variants the pockets and the promoted
// marks (they decide what a capture puts in hand).
func (p *Position) RepetitionKey() rules.RepetitionKey {
	k := p.boardKey()
	for c := 0; c < 2; c++ {
		for kd := pawn; kd <= queen; kd++ {
			if n := p.pocket[c][kd]; n > 0 {
				k ^= zPocket[c][kd][min(int(n), 64)]
			}
		}
	}
	return rules.RepetitionKey(k)
}

// BoardKey is RepetitionKey without the pockets, for rule sets where a
// repeated position ignores the pieces in hand (team variant
// repetition_includes_reserves = false).
func (p *Position) BoardKey() rules.RepetitionKey { return rules.RepetitionKey(p.boardKey()) }

func (p *Position) boardKey() uint64 {
	var k uint64
	for s := 0; s < 64; s++ {
		if x := p.board[s]; x != 0 {
			k ^= zPiece[x>>3][x&7][s]
		}
	}
	for pr := p.promoted; pr != 0; pr &= pr - 1 {
		k ^= zPromoted[lsb(pr)]
	}
	if p.turn == black {
		k ^= zTurn
	}
	for c := 0; c < 2; c++ {
		for side := 0; side < 2; side++ {
			if s := p.castle[c][side]; s >= 0 {
				k ^= zCastle[s]
			}
		}
	}
	if p.ep >= 0 && p.hasLegalEnPassant() {
		k ^= zEP[fileOf(int(p.ep))]
	}
	return k
}

func (p *Position) hasLegalEnPassant() bool {
	var ml moveList
	p.genLegal(&ml)
	for i := 0; i < ml.n; i++ {
		if ml.m[i].typ() == mEnPassant {
			return true
		}
	}
	return false
}
