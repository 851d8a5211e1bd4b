// Package xiangqi is the rules engine of xiangqi (Cờ Tướng) as the
// Vietnamese Xiangqi Law of 2004 states it (Art. 2–11; docs/xiangqi.md).
// [*Position] implements [rules.Position], so the board tracker, the
// recorder and the arbiter layers handle xiangqi boards as they handle
// chess ones.
//
// # Board and pieces
//
// The 9×10 board is [rules.Xiangqi9x10]: files a–i from Red's left, ranks
// 0–9 from Red's back rank (ICCS). Red is
// [rules.White] and moves first. The kinds are [rules.King] (general),
// [rules.Advisor], [rules.Elephant], [rules.Knight] (horse), [rules.Rook]
// (chariot), [rules.Cannon] and [rules.Pawn] (soldier).
//
// # Construction
//
// [NewPosition] / [NewPositionOptions] parse the xiangqi FEN of
// docs/xiangqi.md, "Board, pieces, FEN" (letters K A B/E N/H R C P, side w/r/b);
// errors are [*FENError] naming the field. [StartPosition] is the initial
// array of Art. 3. [FromPlacement] builds a position from what a board's
// sensors show, [IsStart] recognises the initial array.
//
// # Rules
//
// Legal moves follow Art. 4 and 5: the general and advisors stay in the
// palace, elephants stay on their side of the river and are blocked at the
// eye, horses at the leg, cannons capture over exactly one screen,
// soldiers move sideways only after crossing the river, and no move may
// leave the own general attacked or the two generals facing on an open
// file (the flying-general rule). A side with no legal move loses
// ([rules.Checkmate] when in check, [rules.NoLegalMoveLoss] otherwise).
// Illegal moves give a [*rules.IllegalMoveError] with a precise Reason
// (see [Position.Check]), including [rules.ReasonFlyingGeneral].
// [Position.PlayIllegal] plays a physically possible illegal move, as
// rapid and blitz need when it stands (RB 4.3).
//
// # Notation
//
// [Position.UCI] writes ICCS ("h2e2"). [Position.SAN] writes the
// Vietnamese notation of Art. 11.2 ("P2-5", "M8.7", "Xt.1") or, with
// [Options].Notation, the law's Asian dialect ("P2=5") or WXF ("C2.5").
// [Position.LongForm] writes the Vietnamese long form for displays
// ("Pháo 2 bình 5"). [Position.ParseMove] reads ICCS and the configured
// dialect;
// [Position.ParseMoveDialect] reads any dialect. The dialect is never
// guessed from the symbols (docs/xiangqi.md, "Notation").
//
// # Speed
//
// A 90-point mailbox with precomputed step tables and a bitset of each
// side's points. Legality uses a guard computed once per position (the
// pieces pinned to the own general by a chariot, the flying general, a
// cannon's screens or a horse leg, and the points where a piece would
// become a cannon's screen): outside check only the general's moves and
// the moves the guard names are tested by playing them. [Position.Perft]
// counts the last ply without listing it, about 150 M nodes per second on
// one core of the development machine (Fairy-Stockfish 11.1: about 16);
// LegalMoves into a slice with capacity 128 does not allocate.
//
// The package has no goroutines, reads no configuration and logs nothing.
package xiangqi
