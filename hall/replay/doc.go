// Package replay reconstructs games from recorded board traffic, as
// `dgtbridge replay` does: a DGT recording (DGT: hexlog, raw or base64,
// timestamps honoured), an Open Board Protocol recording (OBP), or the
// two recordings of a team-drop match's partner boards played together in
// timestamp order (Team). Each recording is fed through the same per-game
// session the daemon runs (package hall/session), so a replay judges a
// game as the daemon did: the same moves, corrections and alerts.
//
// It is pure apart from reading the recordings it is handed: no
// goroutine, no clock, no NATS.
package replay
