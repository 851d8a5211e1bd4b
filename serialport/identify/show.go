package identify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// ConnectTimeout bounds how long [Show] waits for a board found by
// [Probe] to answer again.
const ConnectTimeout = 10 * time.Second

// endTimeout bounds the END command that gives a clock its time display
// back, also after the context ended (Ctrl-C).
const endTimeout = 8 * time.Second

// Shown is the outcome of one clock's label: Err nil when the clock took
// it (and, after [Showing.End], its time display back).
type Shown struct {
	Port  string // the device
	Label string
	Err   error
}

// Showing is the clocks that show their labels, each held by a link of its
// own until [Showing.End].
type Showing struct {
	shown  []Shown
	ends   []func() error
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Show writes each label of r on its clock: the boards on a port of their
// own with a DGT 3000 or an XL (bus lines have no clock command for one
// board). Each port is opened again through a link (serialport.Open) and
// held until [Showing.End]; the board must be the one [Probe] found (same
// serial number). It returns once every clock has taken its label or
// failed to; nil when there is no clock to show on.
func Show(ctx context.Context, r Report, o Options) *Showing {
	s := &Showing{}
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	var mu sync.Mutex
	var ready sync.WaitGroup
	for _, p := range r.Ports {
		if p.Port.Bus || len(p.Rows) != 1 || p.Rows[0].Shows == "" {
			continue
		}
		row := p.Rows[0]
		path := p.Port.Device
		if path == "" {
			path = p.Port.Path
		}
		i := len(s.shown)
		s.shown = append(s.shown, Shown{Port: path, Label: row.Shows})
		s.ends = append(s.ends, nil)
		ready.Add(1)
		s.wg.Go(func() {
			var once sync.Once
			done := func(err error, end func() error) {
				once.Do(func() {
					mu.Lock()
					s.shown[i].Err, s.ends[i] = err, end
					mu.Unlock()
					ready.Done()
				})
			}
			defer done(errors.New("not shown"), nil)
			showOne(ctx, lctx, path, row, o, done)
		})
	}
	ready.Wait()
	if len(s.shown) == 0 {
		cancel()
		return nil
	}
	return s
}

// showOne holds one board's link: it waits for the board, sends the label,
// reports through done, and serves the link until lctx ends.
func showOne(ctx, lctx context.Context, path string, row Row, o Options, done func(error, func() error)) {
	st := o.single()
	st.NoLog = true
	l := link.New(func(context.Context) (io.ReadWriteCloser, error) { return serialport.Open(path) }, st)
	var run sync.WaitGroup
	run.Go(func() { l.Run(lctx) })
	defer run.Wait()
	connected := make(chan link.Connected, 1)
	run.Go(func() {
		for ev := range l.Events() {
			if c, ok := ev.(link.Connected); ok {
				select {
				case connected <- c:
				default:
				}
			}
		}
	})
	t := time.NewTimer(ConnectTimeout)
	defer t.Stop()
	select {
	case c := <-connected:
		if c.Serial != row.Found.Serial {
			done(fmt.Errorf("board %s answered, not %s", c.Serial, row.Found.Serial), nil)
			return
		}
	case <-t.C:
		done(fmt.Errorf("the board did not answer again within %s", ConnectTimeout), nil)
		return
	case <-ctx.Done():
		done(ctx.Err(), nil)
		return
	}
	var cmd dgt.Command = dgt.ClockText{Text: row.Shows}
	if row.Found.Clock == XL {
		cmd = dgt.ClockDisplay{Chars: dgt.XLText(row.Shows)}
	}
	// Sent on lctx: a label sent just before ctx ends (Ctrl-C) is
	// acknowledged and then taken back by End, never left on the clock.
	if err := l.Clock(lctx, cmd); err != nil {
		done(err, nil)
		return
	}
	done(nil, func() error {
		ectx, cancel := context.WithTimeout(lctx, endTimeout)
		defer cancel()
		return l.Clock(ectx, dgt.ClockEnd)
	})
	<-lctx.Done()
}

// Shown returns each clock's label and whether it took it.
func (s *Showing) Shown() []Shown {
	if s == nil {
		return nil
	}
	return append([]Shown(nil), s.shown...)
}

// End gives every clock that took its label its time display back (the
// END command; the clock's times were never changed), closes the ports
// and returns each clock's outcome, Err set where the END was not
// acknowledged.
func (s *Showing) End() []Shown {
	if s == nil {
		return nil
	}
	var wg sync.WaitGroup
	for i, end := range s.ends {
		if end == nil {
			continue
		}
		wg.Go(func() {
			if err := end(); err != nil {
				s.shown[i].Err = fmt.Errorf("back to the time display: %w", err)
			}
		})
	}
	wg.Wait()
	s.cancel()
	s.wg.Wait()
	return s.Shown()
}

// ShowFor shows the board numbers of r on the clocks for d (or until ctx
// ends) and gives the clocks their time display back, saying on stdout
// what each clock took.
func ShowFor(ctx context.Context, r Report, d time.Duration, stdout io.Writer, o Options) {
	s := Show(ctx, r, o)
	shown := s.Shown()
	if len(shown) == 0 {
		fmt.Fprintln(stdout, "\nno clock to show a board number on (only a board on a port of its own with a DGT 3000 or an XL can)")
		return
	}
	ok := 0
	for _, sh := range shown {
		if sh.Err != nil {
			fmt.Fprintf(stdout, "%s: the clock did not take %q: %v\n", sh.Port, sh.Label, sh.Err)
			continue
		}
		ok++
	}
	fmt.Fprintf(stdout, "\nclocks showing their board numbers: %d, until %s (%s); Ctrl-C gives them their time display back sooner\n", ok, time.Now().Add(d).Format(time.TimeOnly), d)
	t := time.NewTimer(d)
	select {
	case <-t.C:
	case <-ctx.Done():
		t.Stop()
	}
	back := 0
	for i, sh := range s.End() {
		if shown[i].Err != nil {
			continue // never shown
		}
		if sh.Err != nil {
			fmt.Fprintf(stdout, "%s: %v\n", sh.Port, sh.Err)
			continue
		}
		back++
	}
	fmt.Fprintf(stdout, "clocks back to their time display: %d\n", back)
}
