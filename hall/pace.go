package hall

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/metrics"
)

// lagWarn is how late an input may be handled before the hall reports
// itself behind (Hall.Backlog).
const lagWarn = time.Second

// pace measures how far behind the board goroutines are: the lag of each
// input (from its read, the time it carries, to its handling) and the
// daemon's own delay of each move (from the read of the board message
// that completed it to its hand-off to the sink, its record saved).
type pace struct {
	lag, moves *metrics.Histogram

	mu      sync.Mutex
	behind  map[string]time.Duration // by line or board: its largest lag within lagWindow
	behindT map[string]time.Time     // when that input was handled

	drained     atomic.Int64 // inputs handled before a tick because they were waiting
	clocksSaved atomic.Int64 // clock events left out: their move said it
}

func newPace() *pace {
	return &pace{
		lag:     metrics.NewHistogram("dgtbridge_input_lag_seconds", "From the read of a board's input to its handling by the board's goroutine."),
		moves:   metrics.NewHistogram("dgtbridge_move_delay_seconds", "From the read of the board message that completed a move to the MoveEvent handed to the publisher (record saved)."),
		behind:  map[string]time.Duration{},
		behindT: map[string]time.Time{},
	}
}

// lagWindow is how long the largest lag of a port is remembered for
// Backlog.
const lagWindow = 10 * time.Second

// input notes an input of port read at at and handled at now.
func (l *pace) input(port string, at, now time.Time) {
	d := max(now.Sub(at), 0)
	l.lag.Observe(d)
	l.mu.Lock()
	if now.Sub(l.behindT[port]) > lagWindow || d >= l.behind[port] {
		l.behind[port], l.behindT[port] = d, now
	}
	l.mu.Unlock()
}

// backlog returns a line per port that handled an input more than
// lagWarn after its read within the last lagWindow.
func (l *pace) backlog(now time.Time) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for port, d := range l.behind {
		if d > lagWarn && now.Sub(l.behindT[port]) < lagWindow {
			out = append(out, fmt.Sprintf("behind: %s: input handled %.1f s after it was read", port, d.Seconds()))
		}
	}
	slices.Sort(out)
	return out
}

// Backlog says which boards' input waits (lines "behind: …"), nil when
// none is more than a second late: the daemon is falling behind (CPU or
// disk), it queues and loses nothing, but moves come late.
func (h *Hall) Backlog() []string { return h.pace.backlog(time.Now()) }

// WriteMetrics writes the hall's metrics in the Prometheus text format.
func (h *Hall) WriteMetrics(w io.Writer) {
	boards, dis := h.Summary()
	metrics.Gauge(w, "dgtbridge_boards", "Boards configured (a blind player's own board counts).", float64(boards))
	metrics.Gauge(w, "dgtbridge_boards_disconnected", "Boards not connected now.", float64(dis))
	metrics.Counter(w, "dgtbridge_inputs_before_tick_total", "Inputs that were waiting when a tick came, handled before it (time is never judged ahead of input already read).", float64(h.pace.drained.Load()))
	metrics.Counter(w, "dgtbridge_clock_events_restated_total", "Clock events of a press left out because the MoveEvent of the move it completed carries the same clock.", float64(h.pace.clocksSaved.Load()))
	h.pace.lag.Write(w)
	h.pace.moves.Write(w)
}
