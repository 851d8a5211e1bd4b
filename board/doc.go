// Package board turns what an electronic chess board senses (square
// changes, full board reads, clock readings) into the moves of a game.
//
// The heart is [Tracker], a pure state machine per physical board: it has
// no goroutines and never reads the wall clock; every input carries its
// time. It keeps the record (the completed moves), the moves made but not
// yet completed, the sensed placement and the touch log of the current
// turn, and it answers each input with [Event] values (board/events.go):
// moves made and completed, corrections, illegal moves, touch-move
// evidence, clock presses without a move, unexplained positions, set-ups,
// result gestures and orientation changes.
//
// # How placements become moves
//
// A board scans its squares one by one, so one move arrives in any order:
// destination before origin, a sliding piece passing through squares, a
// captured piece removed before or after. The tracker therefore judges the
// sensed placement only when it is settled (no change for
// [Options.Settle]), when the clock lever is pressed, or when a full board
// read arrives. It then explains the placement, in this order:
//
//  1. the record's position (nothing to do, or a takeback of moves not yet
//     completed);
//  2. one legal move from the last position, or a short legal sequence
//     (fast replies, up to [Options.MaxDepth] plies; the legal moves and
//     resulting placements of each position are cached);
//  3. a replacement of a move made but not completed (a slide that rested,
//     rook-first castling);
//  4. an earlier position of the record (a takeback of completed moves);
//  5. a physically possible but illegal move (reported, never recorded
//     unless illegal moves stand and the opponent carries on);
//  6. a start position (a new game), or both kings in the centre (a result
//     gesture);
//  7. otherwise the board is unexplained: after [Options.HoldAfter] the
//     tracker reports it and holds until the board is explained again.
//
// Nothing here assumes an 8×8 board: squares, geometry and legality come
// from the [rules.Position] the game started from.
//
// The tracker never signals anything to the players; touch-move findings
// are evidence for the arbiter, never penalties.
package board
