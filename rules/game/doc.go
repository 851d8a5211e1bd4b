// Package game is the vocabulary every layer of the daemon shares about a
// game at a board, defined once:
//
//   - [Sensed]: what a board's sensors and clock report, in no protocol's
//     terms (square changes, full reads, clock faces, result signals). Each
//     protocol's reader translates its messages into these (board/dgtfeed
//     for DGT); the board tracker reads nothing else.
//   - [Event]: what the tracker (and the two-board relay, and the wiring
//     for devices) makes of them: moves made and completed, corrections,
//     illegal moves, touch-move evidence, presses without a move, set-ups,
//     result gestures, …. The adjudicator consumes them.
//   - [Verdict]: what the adjudicator says: alerts, results, corrections
//     and clock commands.
//   - [Payload]: what the daemon publishes about the game (the payloads of
//     the contract, docs/contract.md §3): moves, corrections, clock
//     readings, results, alerts, announcements. The adjudicator's alerts
//     and results and the tracker's corrections are payloads themselves;
//     the wiring fills in what only it knows (the record's moves, the
//     revision).
//
// Each of the four is a sealed interface (an unexported method): the set
// of its types is closed, and every type switch over one lists them all
// (internal/archtest checks it). Events, verdicts and payloads are values,
// never pointers.
//
// The package imports only the rules engine: the board tracker
// (package board) and the adjudicator (rules/adjudicator) both build on it
// and neither imports the other.
package game
