// Package board turns what an electronic chess board senses (square
// changes, full board reads, clock readings) into the moves of a game.
//
// The heart is [Tracker], a pure state machine per physical board: it has
// no goroutines and never reads the wall clock; every input carries its
// time. It keeps the record (the completed moves), the moves made but not
// yet completed, the sensed placement and the touch log of the current
// turn, and it answers each input with [game.Event] values (rules/game):
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
// [TrackerOptions.Settle]), when a full board read arrives, or once the
// scan that follows a lever press has reported the board: the press says
// the mover's hand is done, and one scan period later (the board's own,
// learnt from its reports: two reports of a square are a whole number of
// periods apart) every square has been reported since. The lever often
// beats the scan, so a press is never judged earlier. It then explains
// the placement, in this order:
//
//  1. the record's position (nothing to do, or a takeback of moves not yet
//     completed);
//  2. the trail: after every square change the tracker notes whether the
//     board shows exactly one legal move (or two or three, when the scan
//     saw the next hand early) after the last position it noted. A burst
//     of fast moves made before the board ever settles is read along that
//     trail. The trail and a direct search over legal sequences (up to
//     [TrackerOptions.MaxDepth] plies, more when more lever presses are pending;
//     legal moves and resulting placements cached per position) compete:
//     the explanation whose number of plies fits the pending presses wins,
//     else the shorter one;
//  3. a replacement of a move made but not completed (a slide that rested,
//     Chess960 castling begun with a king step, rook-first castling);
//  4. an earlier position of the record (a takeback of completed moves);
//  5. a board turned round, a start position (a new game), both kings in
//     the centre (a result gesture);
//  6. a physically possible but illegal move: held, reported once
//     completed by the press or once it has stood [TrackerOptions.HoldAfter];
//  7. otherwise the board is unexplained: after [TrackerOptions.HoldAfter] the
//     tracker reports it and holds until the board is explained again.
//
// Transpositions (the same placement reached by the same moves in another
// order, or by another path) are decided by the order of the lifts and the
// squares the pieces were seen on; when nothing decides, an [game.Ambiguous]
// event tells the arbiter which line was taken.
//
// # Rereading the record
//
// A move read wrongly (a recapture made before the board's scan saw the
// piece it takes) shows later as positions the record does not explain.
// Once such a board is reported unexplained, or a press is heard since the
// record last grew, the tracker searches from the last 8 plies (16 while
// nothing fits) for the legal line to the board's position whose length
// best fits the presses heard since its start, then the shortest,
// preferring lines through placements the board showed, and rewrites the
// record with it ([game.Correction] of reason [game.Reread]); two lines
// that fit equally give an [game.Ambiguous] too (heal.go). An illegal
// move of the side to move is reported, never reread; a drop variant's
// board is not reread. A board nothing
// explains for [TrackerOptions.LostAfter], or pressed meanwhile, is a lost
// record ([game.Unexplained] with Lost), reported once and found again
// ([game.Explained] with Found) when the board is explained (lost.go). A
// board read only by whole-board reads ([TrackerOptions.DumpsOnly]) counts
// a read once the next one shows it too (dumps.go).
//
// # Completion
//
// Under [ClockPress] lever presses queue up and complete the presser's
// oldest made move, in order, so a burst of moves and presses splits into
// plies. The scan may lag the lever: a press with no move visible is judged
// after [TrackerOptions.PressGrace] ([game.ClockWithoutMove], a completed
// [game.IllegalMove], or [game.DisplacedPieces] when pieces are still out of place
// after the hold). A move that ends the game, or a player's next move,
// completes a move without a press (FIDE 2018 6.2.1.1/6.2.1.2).
// [Tracker.Finish] ends the input (a recording's end) and completes what was made.
//
// While the clock is not heard ([Tracker.ClockLost] … [Tracker.ClockBack]:
// its cable pulled, or the board's port away) moves complete as on a board
// without a clock ([StableWindow]), flagged [game.MoveCompleted].ClockLost with
// no reading; the first reading after the return is the new reference for
// presses (presses missed meanwhile are not read as one) and completes
// the moves still pending when it shows the side to move's clock running.
//
// # Catching up
//
// A full read ([Tracker.Dump], after a reconnect) is searched up to
// [TrackerOptions.CatchUpDepth] plies, including a piece moving twice and a piece
// leaving a square that it (or one like it) comes back to, such as a queen
// capturing and going back; the search stays in this mode for the
// placements that settle after the read until one is explained (the port
// may come back while a hand is still moving). Several sequences that
// reach the same placement give an [game.Ambiguous] event; nothing within the
// depth gives [game.Unexplained], and the arbiter's [Tracker.SetPosition]
// resumes the game.
//
// # Input from any protocol
//
// The tracker reads sensor reports in no protocol's terms ([game.Sensed],
// [Tracker.Sense]): square changes, full reads, clock faces and result
// signals. board/dgtfeed translates DGT messages; the Open Board
// Protocol's reader has its own translator.
//
// # Phases
//
// What the tracker makes of the board is one of a few phases (phase.go):
// following (the board shows the record or moves made from it),
// unexplained (nothing explains it yet), held (reported unexplained, held
// until explained), ended (a result was signalled; only a set-up starts
// again). How the clock is heard is a phase of its own (clocklost.go):
// heard, lost, returning, returned. Every change of phase goes through one
// function that checks it against a table of the allowed changes. So does
// every lever press not judged yet (press.go): heard from the clock or
// recorded by a polled board's answer, judged on that answer or waiting
// for the next, the board looked at after it or not.
//
// # Replaying recordings
//
// Events carry the time of the input that caused them (a move's MadeAt is
// the last sensor change that made it; a completion's time is the press),
// and come in the order the tracker decided them, which is not always time
// order (a press judged when the board settles). The real captures (the
// recordings of real boards the tests replay) have no timestamps; the tests feed them one
// message every 700 ms (longer than the settle window, shorter than the
// hold) and complete moves from the clock messages.
//
// # Touch-move evidence
//
// The touch log of a turn holds every lift and placement; the pieces
// touched are the original pieces lifted, in order. A lift put back within
// [TrackerOptions.Flicker] is sensor noise (one scan cannot tell a brush from a
// misread). Touch orders closer than [TrackerOptions.ScanPeriod] are not ordered.
// Findings (TM-1…TM-9, TM-11) are [game.TouchEvidence] with a certainty, never
// a penalty; TM-10 and TM-12 follow from [game.TurnStarted], the first lift of
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
// # After an outage
//
// [Recover] rebuilds the moves made while a board was not heard from the
// board's own event log ([game.BoardLog], e.g. a DGT board's EEPROM via
// dgtfeed.Log): it aligns the log with the record, reads it with a tracker
// and returns the moves completed since, with the clock times the log
// holds, or a *[LogGapError] when the log does not reach back to the
// record. It never makes a move up: what it cannot read is left to the
// arbiter ([Recovery.Complete]).
//
// Nothing here assumes an 8×8 board: squares, geometry and legality come
// from the [rules.Position] the game started from.
//
// The tracker never signals anything to the players; touch-move findings
// are evidence for the arbiter, never penalties.
package board
