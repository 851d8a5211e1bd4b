//go:build !linux

package main

import "os/exec"

// dieWithTest: only Linux has a parent-death signal; elsewhere the test's
// cleanup alone stops the process.
func dieWithTest(*exec.Cmd) {}
