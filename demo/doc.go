// Package demo is the hall without hardware behind "dgtbridge demo": a few
// famous public-domain games embedded in the binary (games.pgn), scripts
// that play them on emulated DGT boards with human-like hands, including
// scripted touch-move and illegal-move incidents and the kings-in-the-centre
// result signal (Play), tables that serve those boards on pseudo-terminals
// and play game after game until stopped (Table), and a compact live feed of
// what the daemon publishes over NATS (Feed).
//
// Nothing here is a test double of the daemon: the boards are emulated at
// the serial protocol (package dgt/emu) and the daemon reads them through
// the same serial code as real boards.
package demo
