//go:build linux

package serialport

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Holders returns, for each path of paths whose device another process
// has open, those processes, read from /proc: which program holds a port
// (the running daemon, a terminal program, ModemManager). A process of
// another user is seen by root only; for the others, opening a port that
// a program holds fails anyway with EBUSY (every port this package opens
// is set for exclusive use), and root gets through that lock, so the two
// tell a held port apart between them. Paths that do not exist or are no
// serial line (a device of a terminal driver: ttyS, ttyUSB, ttyACM,
// rfcomm, pts; not /dev/null, nor the console every shell holds) are left
// out; this process is never a holder.
func Holders(paths []string) map[string][]Holder {
	want := map[uint64][]string{}
	ttys := ttyMajors()
	for _, p := range paths {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFCHR || !ttys[unix.Major(st.Rdev)] {
			continue
		}
		want[st.Rdev] = append(want[st.Rdev], p)
	}
	out := map[string][]Holder{}
	if len(want) == 0 {
		return out
	}
	procs, _ := os.ReadDir("/proc")
	self := os.Getpid()
	for _, d := range procs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == self {
			continue
		}
		fdDir := filepath.Join("/proc", d.Name(), "fd")
		fds, err := os.ReadDir(fdDir)
		if err != nil {
			continue // gone, or another user's
		}
		seen := map[uint64]bool{}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
			if err != nil || !strings.HasPrefix(link, "/dev/") {
				continue
			}
			var st syscall.Stat_t
			if syscall.Stat(filepath.Join(fdDir, fd.Name()), &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFCHR || seen[st.Rdev] {
				continue
			}
			ps, ok := want[st.Rdev]
			if !ok {
				continue
			}
			seen[st.Rdev] = true
			h := Holder{PID: pid, Command: command(pid)}
			for _, p := range ps {
				out[p] = append(out[p], h)
			}
		}
	}
	return out
}

// ttyMajors returns the major device numbers of the serial lines' drivers,
// from /proc/devices: those named tty… (ttyS, ttyUSB, ttyACM), pts and
// rfcomm; not /dev/tty, /dev/console and /dev/ptmx, listed with a slash.
func ttyMajors() map[uint32]bool {
	out := map[uint32]bool{}
	b, err := os.ReadFile("/proc/devices")
	if err != nil {
		return out
	}
	chars, _, _ := strings.Cut(string(b), "Block devices:")
	for _, line := range strings.Split(chars, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		n, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		if strings.HasPrefix(f[1], "tty") || f[1] == "pts" || f[1] == "rfcomm" {
			out[uint32(n)] = true
		}
	}
	return out
}

// command returns a process's program name (/proc/PID/comm).
func command(pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "comm"))
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(b))
}
