// Package gamerecord is a game's record as the daemon keeps it: who plays
// (Info), the completed plies with their clocks (Ply), the revision that
// corrections raise, what was handed to the publisher, and for a
// team-drop match the moves of both partner boards (TeamRecord). It
// renders the record as the contract's payloads: the KV GameState, the
// MoveEvent of a ply, the Result, and the PGN (StatePGN builds it from a
// GameState alone, so any reader of the KV can).
//
// A Record is a value with no goroutine and no I/O; the per-game session
// appends to it, the game store persists it.
package gamerecord
