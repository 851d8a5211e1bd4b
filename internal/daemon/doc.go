// Package daemon assembles the running daemon from a configuration: the
// embedded NATS server (or a connection to the organiser's), the
// publisher with its public delay, the HTTP listeners, the hall with one
// goroutine per port, the Lichess push, the LiveChess-compatible API,
// the status keeper and the reloads on SIGHUP. [Run] is the whole daemon;
// the command line (cmd/dgtbridge) parses flags and calls it, and the
// demo calls it with emulated boards ([Options]).
//
// It holds no logic of its own about games, boards or publishing: each
// part lives in its package and is only wired here, so that what the
// daemon does with a configuration is read in one place.
package daemon
