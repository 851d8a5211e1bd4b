// Package demorun is "dgtbridge demo" once its flags are read: a
// configuration for the emulated room of hall/demo (its boards, users,
// event and listeners), the daemon ([daemon.Run]) on that room's boards,
// the banner saying where everything is, and the live feed on standard
// output. The room's boards are pseudo-terminals opened through the same
// serial code as real boards.
package demorun
