// Package arbiter is the adjudicator: per game it consumes the board
// tracker's events (package board) and the clock readings they carry,
// applies a rule set (package rules/ruleset) and returns what the arbiter
// must know and what the record must show, as values: [Alert], [Result],
// [Correction] and [ClockCommand]. It is a pure state machine: no
// goroutines, no wall clock, no I/O; the daemon publishes the outputs.
//
// # Never the players' view
//
// Nothing here drives beeps, LEDs or clock texts (FIDE 2018 Art 12.6,
// the daemon never prompts a player). Alerts go to the arbiter subjects only. The only
// hardware effect is a [ClockCommand] (a SetNRun on a DGT 3000), emitted for
// a time penalty when Options.Penalties is PenaltiesAuto, or when the
// arbiter sends a command that sets the clock.
//
// # Automatic results
//
// Checkmate, stalemate, dead position, fivefold repetition and the 75-move
// rule end the game automatically but provisionally (G2): a [Result] with
// Provisional set and a crit [Alert] asking the arbiter to confirm. Every
// penalty is a proposal (G1).
//
// # Driven by parameters
//
// The adjudicator never looks at a rule set's name: every decision reads a
// parameter of [ruleset.RuleSet], so new sets (the team variant, xiangqi)
// are data.
//
// # Alert ids
//
// Alert ids are "<game>.<kind>.<ply>.<seq>", seq counting alerts of that
// kind at that ply from 0, so replaying the same events gives the same ids
// and the broadcast layer can use them as Nats-Msg-Id.
//
// # Commands
//
// Arbiter commands arrive as JSON on <p>.arbiter.<g>.cmd; [Command]
// documents the schema and [Adjudicator.Command] applies one.
package adjudicator
