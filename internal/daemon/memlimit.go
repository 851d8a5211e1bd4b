package daemon

import (
	"log/slog"
	"math"
	"os"
	"runtime/debug"

	"github.com/dgtbridge/dgtbridge/config"
)

// applyMemoryLimit sets the Go runtime's soft memory limit that
// daemon.memory_limit asks for a hall of boards boards, unless GOMEMLIMIT
// is set in the daemon's environment: the runtime read that at start, and
// it wins. It returns the limit in force (math.MaxInt64: none).
func ApplyMemoryLimit(d config.Daemon, boards int, log *slog.Logger) int64 {
	if v := os.Getenv("GOMEMLIMIT"); v != "" {
		limit := debug.SetMemoryLimit(-1)
		log.Info("memory limit from GOMEMLIMIT; daemon.memory_limit is not used", "GOMEMLIMIT", v, "mib", limit>>20)
		return limit
	}
	n, ok := d.MemoryLimitBytes(boards)
	if !ok {
		debug.SetMemoryLimit(math.MaxInt64)
		log.Info("no memory limit (daemon.memory_limit: off)")
		return math.MaxInt64
	}
	debug.SetMemoryLimit(n)
	log.Info("memory limit", "mib", n>>20, "daemon.memory_limit", d.MemoryLimit, "boards", boards)
	return n
}
