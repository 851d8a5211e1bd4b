// Package teamdrop is the match of the "Cờ đặt" team-drop variant of 004
// (docs/team-drop.md): two partner boards
// played at once, the captures of one board feeding the pockets of the
// other, and the rules that span both boards. It is a pure state machine:
// no goroutines, no wall clock, no I/O; every call takes the time of the
// event it reports, and whoever owns the two boards (the hall, a replay)
// calls it from one goroutine.
//
// # Boards, sides, teams
//
// Board [A] is board 1 and [B] board 2 of the match. Partners sit on
// different boards with opposite colours (A1): White on A and Black on B
// are one team (the one [Match.Result] reports for), Black on A and White
// on B the other. A [Side] names one player.
//
// # What the match does
//
//   - [Match.Complete] takes a move completed by a clock press on one
//     board: a board move, a drop ("N@f3") or a lift of an opponent's
//     piece ([rules.FlagRemove], "-e8"): the removal of a pawn that reached
//     the last rank (A6), or the confiscation of an illegally moved piece
//     (A4). Legal or not, what happened on the board is recorded (an
//     illegal move stands until the arbiter reinstates a position), and the
//     piece a capture took goes into the pocket of the capturer's partner at
//     that press. A drop of a piece the pocket lacks is recorded too (the
//     piece is physically there) and reported.
//   - [Match.Flag], [Match.Resign], [Match.AgreeDraw],
//     [Match.ConfirmThreefold] and the mates Complete finds end the match:
//     the first end on either board decides (A11), the partner board gets
//     the team's result with termination "partner_board", and moves made
//     after the end are not recorded. Two ends within the setting's
//     tolerance go to the arbiter, the earlier standing provisionally
//     (R9.7).
//   - [Match.ConfirmTE] counts the technical errors the arbiter confirms
//     (A10, Reg. §11; or every violation when te_requires_arbiter is off)
//     and proposes the loss at the threshold; [Match.SetResult] is the
//     arbiter's decision.
//   - [Match.Reinstate] takes one board back to an earlier ply (FIDE 7.5,
//     R5.3) and recomputes both boards' pockets from what remains, so the
//     partner board loses the pieces the undone captures gave it.
//
// Every call returns an [Update]: the [Finding] values for the arbiter (a
// closed set of types, each with its alert kind, severity and 004
// article), which boards' pockets changed and which results were set.
// [Match.Events] lists the calls accepted, as plain data; [Restore] plays
// them again to rebuild the match after a restart.
//
// # Wiring
//
// Whoever links two boards (the hall, a replay of two recordings) owns one
// Match per partner pair and calls it from one goroutine, in the order the
// events reached it:
//
//   - each board's tracker judges moves against [Match.Position] (the
//     board with its pockets) and takes the new position whenever an
//     Update says that board's pockets changed; a piece put on an empty
//     square with no lift is a drop (rules.Move with Drop), an opponent's
//     piece lifted with no placement before the press is a lift
//     (rules.FlagRemove); each completed move goes to Complete, legal or
//     not, with the time of its press;
//   - the clock model's flag falls go to Flag; the arbiter's commands to
//     ConfirmTE (apply_penalty of a technical error), SetResult,
//     Reinstate, AgreeDraw and ConfirmThreefold;
//   - the outputs: each Finding becomes an arbiter alert (Kind, Severity,
//     Where().Article, Message; TechnicalError.Count is the alert's "te"
//     and its Proposal the proposed result); each recorded [Ply] a
//     MoveEvent (SAN, UCI, FEN, Pockets as "pockets", the partner board's
//     game as "partner"); [Match.Result] the Result of a board whose result
//     changed (termination "partner_board" on the partner board); the
//     per-board PGN and the BPGN from [Match.Plies] and [Match.Sequence].
//
// # Settings
//
// The rules come from a [ruleset.RuleSet] of variant "team-drop" (its
// TeamDrop block and the technical-error, draw and flag parameters):
// [Options] turns it into the board rules of package rules/chess.
package teamdrop
