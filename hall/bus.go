package hall

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt/bus"
)

// busPollCycle is the longest a bus line's polling cycle takes (dgt/bus's
// default PollInterval, what a line of 32 boards at 9600 baud allows): a
// bus board's scan period as its tracker sees it.
const busPollCycle = 900 * time.Millisecond

// busLine is one DGT bus line: one goroutine owns its port (dgt/bus) and
// feeds the game of every board on it, in the order the line reports.
type busLine struct {
	h      *Hall
	port   string
	boards []*boardRun
	byAddr map[uint16]*boardRun
	cmds   chan command
}

// groupLines puts the boards with a bus address on their lines (by Port);
// their arbiter commands go to the line's goroutine.
func (h *Hall) groupLines() {
	byPort := map[string]*busLine{}
	for _, br := range h.boards {
		if br.b.BusAddress == 0 {
			continue
		}
		l := byPort[br.b.Port]
		if l == nil {
			l = &busLine{h: h, port: br.b.Port, byAddr: map[uint16]*boardRun{}, cmds: make(chan command)}
			byPort[br.b.Port] = l
			h.lines = append(h.lines, l)
		}
		l.boards = append(l.boards, br)
		l.byAddr[br.b.BusAddress] = br
		br.cmds = l.cmds
		// A bus board is polled: its reports come in the line's answers,
		// its presses among them, once per cycle.
		br.b.Session.Tracker.Polled = true
		if br.b.Session.Tracker.ScanPeriod == 0 {
			br.b.Session.Tracker.ScanPeriod = busPollCycle
		}
	}
}

// run serves the line until ctx is done.
func (l *busLine) run(ctx context.Context) error {
	var addrs []uint16
	for _, br := range l.boards {
		if err := br.start(ctx); err != nil {
			return err
		}
		addrs = append(addrs, br.b.BusAddress)
	}
	first := l.boards[0]
	open := first.b.Open
	if l.h.o.Record {
		open = recordingOpener(open, l.h.o.DataDir, first.b.ID, l.h.o.Now, first.log)
	}
	var progress atomic.Int64 // the line's latest write (progressPort)
	b := bus.New(func(ctx context.Context) (io.ReadWriteCloser, error) {
		rw, err := open(ctx)
		if err != nil {
			return nil, err
		}
		return &progressPort{ReadWriteCloser: rw, at: &progress}, nil
	},
		bus.Settings{Logger: l.h.log.With("line", l.port), Addresses: addrs, NoBroadcast: true,
			Rediscover: l.h.o.BusRediscover, EmptyChanges: true})
	var wg sync.WaitGroup
	wg.Go(func() { b.Run(ctx) })
	defer wg.Wait()
	tick := time.NewTicker(l.h.o.Tick)
	defer tick.Stop()
	for {
		select {
		case ev, ok := <-b.Events():
			if !ok {
				for _, br := range l.boards {
					br.clockDue(time.Now(), true)
					br.persistOnly()
				}
				return nil
			}
			l.event(ev)
		case <-tick.C:
			// The boards are judged up to where the line has heard them
			// (heard), taken before the events waiting are: those were
			// read before it.
			heard, ok := lineHeard(&progress, l.h.o.Now())
			cycles := b.Stats().Cycles
			// Events already queued were polled before now: they go first
			// (see boardRun.serveLink).
			for n := len(b.Events()); n > 0; n-- {
				if ev, ok := <-b.Events(); ok {
					l.h.pace.drained.Add(1)
					l.event(ev)
				}
			}
			for _, br := range l.boards {
				br.s.LineCycles(cycles, len(l.boards))
				// A board is judged up to its last answer at most: after
				// a stall the line writes to the boards one by one, and a
				// board not polled again yet has not told what it did
				// meanwhile (a press a clock reading showed waits for the
				// board's answer with its move).
				if at := minTime(heard, br.answered); ok && !at.IsZero() {
					br.apply(br.s.Tick(br.mono(at)))
				}
				if len(br.tail) > 0 || br.tailLost {
					br.atRest()
				}
				br.clockDue(time.Now(), false)
			}
		case c := <-l.cmds:
			c.to.command(c)
		}
	}
}

// event dispatches one bus event to its board.
func (l *busLine) event(ev bus.Event) {
	l.h.pace.input(l.port, ev.When(), time.Now())
	switch e := ev.(type) {
	case bus.LineUp:
		// The boards answer one by one (BoardFound).
	case bus.LineDown:
		for _, br := range l.boards {
			if br.connected.Load() {
				br.down(e.At, "bus line: "+errText(e.Err))
			}
		}
	case bus.BoardFound:
		if br := l.byAddr[e.Address]; br != nil {
			br.up(e.At, fmt.Sprintf("%d.%02d", e.Version.Major, e.Version.Minor), fmt.Sprintf("%05d", e.Address), "")
		}
	case bus.BoardLost:
		if br := l.byAddr[e.Address]; br != nil && br.connected.Load() {
			br.down(e.At, errText(e.Err))
		}
	case bus.Log:
		if br := l.byAddr[e.Address]; br != nil {
			br.logArrived(e.Log, nil)
		}
	case bus.Position:
		if br := l.byAddr[e.Address]; br != nil {
			br.answered = br.mono(e.At) // a full read: the board as it is
			if br.recoverOn(e.At, e.Board) {
				return
			}
			br.apply(br.s.Message(br.mono(e.At), e.Board))
		}
	case bus.Changes:
		if br := l.byAddr[e.Address]; br != nil {
			// The answer's records in order, lever presses among them
			// (board.TrackerOptions.Polled), then Answered at its time:
			// the answer is whole, the presses it holds are judged on it,
			// and so is a press that waited for a later look at the board
			// (an empty answer counts: nothing changed since).
			at := br.mono(e.At)
			if br.manyPresses(at, e.Records) {
				if br.held == nil {
					br.answered = at // read as the board's log
				}
				return
			}
			for _, r := range dgtfeed.Records(nil, e.Records) {
				br.apply(br.s.Sense(at, r))
			}
			br.apply(br.s.Answered(at, e.Asked))
			br.answered = at
			br.noteAnswer(e.Records)
		}
	case bus.Clock:
		if br := l.byAddr[e.Address]; br != nil {
			if br.status.Clock == "" && !e.Clock.Status.NoClock() {
				br.status.Clock = "DGT clock"
			}
			br.apply(br.s.Message(br.mono(e.At), e.Clock))
		}
	}
}

// lineHeard returns the time up to which a bus line has heard its boards:
// the line's latest write (a poll, a clock read), when every answer read
// before it had been reported, or now if that is earlier; ok is false
// before the line's first write. A line whose goroutine gets no CPU (an
// overloaded machine) writes nothing: its boards' time stands still
// until it runs again and reports what they did meanwhile, so that no
// window of a board's tracker (a press waiting for the board's next
// answer) nor the clock watch's silence is judged on answers the line
// has not read yet.
func lineHeard(progress *atomic.Int64, now time.Time) (time.Time, bool) {
	n := progress.Load()
	if n == 0 {
		return time.Time{}, false
	}
	if at := time.Unix(0, n); at.Before(now) {
		return at, true
	}
	return now, true
}

// progressPort is a bus line's port that notes the time of each write:
// the bus writes a command only once it has reported every answer it read
// before (dgt/bus emits each answer before the next exchange).
type progressPort struct {
	io.ReadWriteCloser
	at *atomic.Int64
}

func (p *progressPort) Write(b []byte) (int, error) {
	p.at.Store(time.Now().UnixNano())
	return p.ReadWriteCloser.Write(b)
}

// SetReadDeadline passes a read deadline on to the port when it takes one
// (dgt/bus reads its replies with deadlines then).
func (p *progressPort) SetReadDeadline(t time.Time) error {
	if d, ok := p.ReadWriteCloser.(interface{ SetReadDeadline(time.Time) error }); ok {
		return d.SetReadDeadline(t)
	}
	return os.ErrNoDeadline
}

func errText(err error) string {
	if err == nil {
		return "lost"
	}
	return err.Error()
}

// minTime returns the earlier of a and b.
func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
