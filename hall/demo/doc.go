// Package demo is the hall without hardware behind "dgtbridge demo": a few
// famous public-domain games embedded in the binary (games.pgn), scripts
// that play them on emulated DGT boards with human-like hands, including
// scripted touch-move and illegal-move incidents and the kings-in-the-centre
// result signal (Play), blind-player games on two boards (PlayRelay, FIDE
// Laws Appendix D), tables that serve those boards on pseudo-terminals and
// play game after game until stopped, each new game the board's next round
// (Table, NextGame), and a compact live feed of what the daemon publishes
// over NATS (Feed).
//
// The scripts keep a human pace where a board reader needs one: hands at
// most three times a normal player's, incidents and the result signal at
// their own pace whatever the speed, a pause after an incident's move.
//
// Nothing here is a test double of the daemon: the boards are emulated at
// the serial protocol (package dgt/emu) and the daemon reads them through
// the same serial code as real boards.
package demo
