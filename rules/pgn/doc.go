// Package pgn reads and writes Portable Game Notation: tag pairs, movetext
// with comments, NAGs and recursive variations, the [%clk] and [%emt]
// clock commands, multi-game files, and the Variant/SetUp/FEN tags of
// Chess960 and crazyhouse.
//
// # Reading
//
// A [Reader] reads one [Game] per call to [Reader.Next] and returns io.EOF
// after the last. By default every move is resolved against its position
// with the rules engine ([ChessPosition], or ReaderOptions.NewPosition), so
// a game carries resolved [rules.Move] values, the SAN as the position
// formats it, and its start position; [ReaderOptions].ParseOnly reads the
// text alone. Variations are kept or skipped ([VariationMode]).
//
// Bad input does not stop the stream. A game with bad text gives a
// [*SyntaxError], a game with a move that does not play gives a
// [*MoveError] together with the game up to that move (as Lichess does);
// both say the game (index and tags) and the line and column, and the next
// call to Next reads the following game: the reader skips to the bad
// game's result, or to the next tag section. A comment that runs into a
// line starting like a tag pair (`[Event "`) is reported as unterminated
// there, so one missing } costs one game. An I/O error is sticky.
//
// Comments are stored with their white space collapsed; [%clk] and [%emt]
// with a valid h:mm:ss(.f) value are taken out into MoveNode.Clock/EMT,
// other commands ([%eval] …) stay in the comment text. Several comments
// after one move are joined.
//
// # Writing
//
// [Write] produces PGN export format: the Seven Tag Roster first, then
// set-up tags derived from the start position, then the other tags in
// order; movetext wrapped at 80 columns; a {[%clk h:mm:ss] [%emt h:mm:ss]}
// comment after every move with a known clock. [Game.SetBroadcast] sets
// the tags a Lichess broadcast matches games by (Round "r.b", FIDE ids,
// GameId; docs/contract.md §6).
//
// # Variants
//
// [NormalizeVariant] maps the Variant tag's many spellings ("Chess960",
// "chess 960", "Fischerandom", "Crazyhouse", "From Position" …) to the
// engine's names. The writer spells them as Lichess does.
//
// Xiangqi games ([Variant "Xiangqi"], docs/contract.md §6) are written
// in WXF notation ("C2.5", "H8+7", "R+.3") with the ICCS move in a
// [%iccs h2e2] command after every move, and read back from WXF (traverse
// "." or "="), checked against [%iccs] where present ([Position]).
package pgn
