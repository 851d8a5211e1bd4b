// Package session is the per-game pure core of the daemon: one game's
// board tracker (package board), adjudicator (rules/adjudicator) and
// record (hall/gamerecord), fed in arrival order with what a board senses
// (Sense, Message), the passing of time (Tick, Answered), moves typed by
// an operator (Enter), arbiter commands (Command) and the board's own log
// after an outage (Recover). Each call returns a Step: the payloads to
// publish, in order, the clock commands the adjudicator asks for, and
// whether the record changed and must be saved before anything is
// published.
//
// A Session has no goroutine, reads no clock (every input carries its
// time) and does no I/O: it imports no link, no NATS and no storage. One
// goroutine owns it (the hall's board or bus-line goroutine, or a replay).
//
// # Variants
//
// A blind player's game reads two boards (Blind, blind.go: the relay, the
// announcements, the talking clock); a team-drop game is one board of a
// match of two (NewTeamSessions, team*.go: the pockets, the partner
// board's captures, the match's result); a xiangqi game writes WXF and
// the Vietnamese notation (xiangqi.go).
package session
