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
// [Options.Settle]), when a full board read arrives, or when the mover
// presses the clock on a board that has shown the mover's legal move for
// [Options.PressSettle] (the press says the hand is done; the move is
// completed at once instead of one settle window later). It then explains
// the placement, in this order:
//
//  1. the record's position (nothing to do, or a takeback of moves not yet
//     completed);
//  2. the trail: after every square change the tracker notes whether the
//     board shows exactly one legal move (or two or three, when the scan
//     saw the next hand early) after the last position it noted. A burst
//     of fast moves made before the board ever settles is read along that
//     trail. The trail and a direct search over legal sequences (up to
//     [Options.MaxDepth] plies, more when more lever presses are pending;
//     legal moves and resulting placements cached per position) compete:
//     the explanation whose number of plies fits the pending presses wins,
//     else the shorter one;
//  3. a replacement of a move made but not completed (a slide that rested,
//     Chess960 castling begun with a king step, rook-first castling);
//  4. an earlier position of the record (a takeback of completed moves);
//  5. a board turned round, a start position (a new game), both kings in
//     the centre (a result gesture);
//  6. a physically possible but illegal move: held, reported once
//     completed by the press or once it has stood [Options.HoldAfter];
//  7. otherwise the board is unexplained: after [Options.HoldAfter] the
//     tracker reports it and holds until the board is explained again.
//
// Transpositions (the same placement reached by the same moves in another
// order, or by another path) are decided by the order of the lifts and the
// squares the pieces were seen on; when nothing decides, an [Ambiguous]
// event tells the arbiter which line was taken.
//
// # Completion
//
// Under [ClockPress] lever presses queue up and complete the presser's
// oldest made move, in order, so a burst of moves and presses splits into
// plies. The scan may lag the lever: a press with no move visible is judged
// after [Options.PressGrace] ([ClockWithoutMove], a completed
// [IllegalMove], or [DisplacedPieces] when pieces are still out of place
// after the hold). A move that ends the game, or a player's next move,
// completes a move without a press (FIDE 2018 6.2.1.1/6.2.1.2).
// [Tracker.Finish] ends the input (a recording's end) and completes what was made.
//
// While the clock is not heard ([Tracker.ClockLost] … [Tracker.ClockBack]:
// its cable pulled, or the board's port away) moves complete as on a board
// without a clock ([StableWindow]), flagged [MoveCompleted].ClockLost with
// no reading; the first reading after the return is the new reference for
// presses (presses missed meanwhile are not read as one) and completes
// the moves still pending when it shows the side to move's clock running.
//
// # Catching up
//
// A full read ([Tracker.Dump], after a reconnect) is searched up to
// [Options.CatchUpDepth] plies, including a piece moving twice and a piece
// leaving a square that it (or one like it) comes back to, such as a queen
// capturing and going back; the search stays in this mode for the
// placements that settle after the read until one is explained (the port
// may come back while a hand is still moving). Several sequences that
// reach the same placement give an [Ambiguous] event; nothing within the
// depth gives [Unexplained], and the arbiter's [Tracker.SetPosition]
// resumes the game.
//
// # Replaying recordings
//
// [FeedMessage] turns decoded DGT messages into inputs. Events carry the
// time of the input that caused them (a move's MadeAt is the last sensor
// change that made it; a completion's time is the press), and come in the
// order the tracker decided them, which is not always time order (a press
// judged when the board settles). The real captures in
// ../shared/data/dgt-captures have no timestamps; the tests feed them one
// message every 700 ms (longer than the settle window, shorter than the
// hold) and complete moves from the clock messages.
//
// # Touch-move evidence
//
// The touch log of a turn holds every lift and placement; the pieces
// touched are the original pieces lifted, in order. A lift put back within
// [Options.Flicker] is sensor noise (one scan cannot tell a brush from a
// misread). Touch orders closer than [Options.ScanPeriod] are not ordered.
// Findings (TM-1…TM-9, TM-11) are [TouchEvidence] with a certainty, never
// a penalty; TM-10 and TM-12 follow from [TurnStarted], the first lift of
// the side having the move. Evidence is looked for when one move is made
// at a time; moves read from a burst carry none.
//
// # Promotion
//
// The promotion piece is the piece put on the promotion square (pawn off
// first or last, or moved there and then replaced: FIDE 4.6). A pawn left
// on the last rank when the clock is pressed is a completed illegal move
// (7.5.2, ReasonMissingPromotion); the queen it becomes is the arbiter's
// business (AcceptIllegal or SetPosition). A piece the set does not have
// cannot be sensed: a DGT board reads an upside-down rook as a rook, so
// the move is read as promotion to a rook, and an arbiter edit corrects
// the record if the players agreed otherwise.
//
// Nothing here assumes an 8×8 board: squares, geometry and legality come
// from the [rules.Position] the game started from.
//
// The tracker never signals anything to the players; touch-move findings
// are evidence for the arbiter, never penalties.
package board
