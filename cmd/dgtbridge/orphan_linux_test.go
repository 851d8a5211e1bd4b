//go:build linux

package main

import (
	"os/exec"
	"syscall"
)

// dieWithTest makes the process cmd starts get SIGKILL when the test
// process ends, however it ends (a -timeout panic, a kill): a daemon left
// running would go on reopening its board's /dev/pts/N path, and the
// kernel gives that number to the next pseudo-terminal a test creates,
// whose board it then reads and commands too: bytes stolen, foreign
// commands answered, a test on the machine failing for no reason of its
// own. (Reusing pty numbers is the kernel's; only the test's own children
// can be reined in.)
func dieWithTest(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
