package xiangqi

import "github.com/dgtbridge/dgtbridge/rules"

// The board is a 90-point mailbox: point = file + 9*rank, file 0 the a-file
// (Red's left), rank 0 Red's back rank (docs/xiangqi.md, "Board, pieces, FEN").
// A point holds a piece code: 0 empty, else kind | colour<<4 with the kinds of
// package rules.

const (
	nFiles  = 9
	nRanks  = 10
	nPoints = nFiles * nRanks
	// maxMoves bounds the pseudo-legal moves of one side: 2 chariots and
	// 2 cannons reach at most 17 points each, 2 horses 8, 5 soldiers 3,
	// the general 4, advisors and elephants 4 each: 119.
	maxMoves = 128
)

const (
	soldier  = uint8(rules.Pawn)
	horse    = uint8(rules.Knight)
	chariot  = uint8(rules.Rook)
	general  = uint8(rules.King)
	advisor  = uint8(rules.Advisor)
	elephant = uint8(rules.Elephant)
	cannon   = uint8(rules.Cannon)
	kindMask = 0x0f
)

// code returns the piece code of kind k and side c.
func code(c int, k uint8) uint8 { return k | uint8(c)<<4 }

// colorOf returns the side of a non-empty code.
func colorOf(x uint8) int { return int(x >> 4) }

func fileOf(s int) int { return s % nFiles }
func rankOf(s int) int { return s / nFiles }

// point returns the point at file f, rank r, or -1 off the board.
func point(f, r int) int {
	if f < 0 || f >= nFiles || r < 0 || r >= nRanks {
		return -1
	}
	return f + r*nFiles
}

// inPalace reports whether s is in side c's palace (files d–f, ranks 0–2
// for Red, 7–9 for Black).
func inPalace(c, s int) bool {
	f, r := fileOf(s), rankOf(s)
	if f < 3 || f > 5 {
		return false
	}
	if c == 0 {
		return r <= 2
	}
	return r >= 7
}

// ownHalf reports whether s is on side c's side of the river.
func ownHalf(c, s int) bool {
	if c == 0 {
		return rankOf(s) <= 4
	}
	return rankOf(s) >= 5
}

// forward is the rank step of side c's advance.
func forward(c int) int { return 1 - 2*c }

// step is a move of a short-range piece: destination and the point that
// must be empty (horse leg, elephant eye), or -1.
type step struct{ to, via int8 }

var (
	// rays[s][d]: the points from s outwards in direction d (0 up, 1 down,
	// 2 left, 3 right), nearest first.
	rays [nPoints][4][]int8
	// horseTo[s]: horse moves from s with their leg points.
	horseTo [nPoints][]step
	// horseFrom[s]: horse origins attacking s, with the leg (as via).
	horseFrom [nPoints][]step
	// Per side: moves and their reverse (attackers of a point, to = origin).
	generalTo, generalFrom   [2][nPoints][]step
	advisorTo, advisorFrom   [2][nPoints][]step
	elephantTo, elephantFrom [2][nPoints][]step
	soldierTo, soldierFrom   [2][nPoints][]step
)

var dirs = [4][2]int{{0, 1}, {0, -1}, {-1, 0}, {1, 0}}

func init() {
	for s := 0; s < nPoints; s++ {
		f, r := fileOf(s), rankOf(s)
		for d, v := range dirs {
			for t := point(f+v[0], r+v[1]); t >= 0; t = point(fileOf(t)+v[0], rankOf(t)+v[1]) {
				rays[s][d] = append(rays[s][d], int8(t))
			}
		}
		for _, v := range [8][2]int{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {2, -1}, {-2, 1}, {-2, -1}} {
			t := point(f+v[0], r+v[1])
			if t < 0 {
				continue
			}
			var leg int
			if v[1] == 2 || v[1] == -2 {
				leg = point(f, r+v[1]/2)
			} else {
				leg = point(f+v[0]/2, r)
			}
			horseTo[s] = append(horseTo[s], step{int8(t), int8(leg)})
			horseFrom[t] = append(horseFrom[t], step{int8(s), int8(leg)})
		}
		for c := 0; c < 2; c++ {
			for _, v := range dirs {
				if t := point(f+v[0], r+v[1]); t >= 0 && inPalace(c, t) {
					generalTo[c][s] = append(generalTo[c][s], step{int8(t), -1})
					generalFrom[c][t] = append(generalFrom[c][t], step{int8(s), -1})
				}
			}
			for _, v := range [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
				if t := point(f+v[0], r+v[1]); t >= 0 && inPalace(c, t) {
					advisorTo[c][s] = append(advisorTo[c][s], step{int8(t), -1})
					advisorFrom[c][t] = append(advisorFrom[c][t], step{int8(s), -1})
				}
				if t := point(f+2*v[0], r+2*v[1]); t >= 0 && ownHalf(c, t) {
					eye := point(f+v[0], r+v[1])
					elephantTo[c][s] = append(elephantTo[c][s], step{int8(t), int8(eye)})
					elephantFrom[c][t] = append(elephantFrom[c][t], step{int8(s), int8(eye)})
				}
			}
			var vs [][2]int
			vs = append(vs, [2]int{0, forward(c)})
			if !ownHalf(c, s) {
				vs = append(vs, [2]int{-1, 0}, [2]int{1, 0})
			}
			for _, v := range vs {
				if t := point(f+v[0], r+v[1]); t >= 0 {
					soldierTo[c][s] = append(soldierTo[c][s], step{int8(t), -1})
					soldierFrom[c][t] = append(soldierFrom[c][t], step{int8(s), -1})
				}
			}
		}
	}
}
