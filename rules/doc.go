// Package rules holds the variant-neutral vocabulary of the rules engine:
// colours, squares on a board of any [Geometry], pieces, moves, piece
// placements, the [Position] interface every variant implements, and the
// typed errors that say why a move is illegal.
//
// The concrete engines live in sub-packages (rules/chess for chess, Chess960
// and drop chess; rules/xiangqi for xiangqi), notation in rules/pgn, rule sets,
// clocks and adjudication in their own sub-packages. This package imports
// nothing but the standard library, and nothing in it assumes an 8×8 board.
//
// # Squares
//
// A [Square] indexes a board of Files×Ranks squares: file + rank*Files, with
// file 0 the a-file and rank 0 White's first rank (chess) or Red's back rank
// (xiangqi). [NoSquare] is -1.
package rules
