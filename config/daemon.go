package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Daemon tunes the daemon process itself (docs/configuration.md,
// docs/performance.md).
type Daemon struct {
	// MemoryLimit is the Go runtime's soft memory limit
	// (runtime/debug.SetMemoryLimit): the collector works harder as the
	// daemon's memory nears it, instead of letting the heap grow to twice
	// what is live. One of [MemoryLimitAuto] (sized from the number of
	// boards: [AutoMemoryLimit]), [MemoryLimitOff], or a size in the
	// syntax of GOMEMLIMIT ("350MiB", "1GiB", at least 64MiB). The
	// GOMEMLIMIT environment variable, when set, wins.
	MemoryLimit string `mapstructure:"memory_limit" json:"memory_limit"`
}

// The fixed values of Daemon.MemoryLimit.
const (
	MemoryLimitAuto = "auto"
	MemoryLimitOff  = "off"
)

// Bounds and the auto figure of Daemon.MemoryLimit.
const (
	minMemoryLimit = 64 << 20
	// autoFloor: below this the auto limit is never set (a hall of up to
	// ~1,300 boards: Go's own pacing keeps it under it anyway).
	autoFloor = 256 << 20
	// autoBase and autoPerBoard: the memory a daemon keeps for the
	// embedded NATS server and itself, and for each board (its record,
	// tracker, rule judge, messages waiting), with room for the collector:
	// about 1.5 times what the load test holds live at 2,000 boards.
	autoBase     = 64 << 20
	autoPerBoard = 144 << 10
)

// AutoMemoryLimit is the limit "auto" sets for a hall of boards boards:
// 64 MiB and 144 KiB a board, and never below 256 MiB (2,000 boards:
// 345 MiB).
func AutoMemoryLimit(boards int) int64 {
	return max(autoFloor, autoBase+int64(boards)*autoPerBoard)
}

// MemoryLimitBytes returns the limit the daemon sets for a hall of boards
// boards, and false when it sets none (off).
func (d Daemon) MemoryLimitBytes(boards int) (int64, bool) {
	switch d.MemoryLimit {
	case MemoryLimitOff:
		return 0, false
	case MemoryLimitAuto, "":
		return AutoMemoryLimit(boards), true
	}
	n, err := parseSize(d.MemoryLimit)
	if err != nil {
		return 0, false // Validate refuses it first
	}
	return n, true
}

func (d Daemon) validate() []error {
	switch d.MemoryLimit {
	case MemoryLimitAuto, MemoryLimitOff:
		return nil
	}
	n, err := parseSize(d.MemoryLimit)
	if err != nil {
		return []error{keyErr("daemon.memory_limit", "%q: want auto, off, or a size such as 350MiB or 1GiB (%v)", d.MemoryLimit, err)}
	}
	if n < minMemoryLimit {
		return []error{keyErr("daemon.memory_limit", "%q: want at least 64MiB (below it the daemon collects garbage all the time)", d.MemoryLimit)}
	}
	return nil
}

// parseSize reads a size as GOMEMLIMIT writes it: digits and one of the
// units B, KiB, MiB, GiB, TiB (none: bytes).
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, shift = rest, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a whole number of B, KiB, MiB, GiB or TiB")
	}
	if n > (1<<62)>>shift {
		return 0, fmt.Errorf("too large")
	}
	return n << shift, nil
}
