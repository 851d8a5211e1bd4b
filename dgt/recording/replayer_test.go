package recording

import (
	"errors"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// Item is one decoded element of a recording: a board→host message, a
// host→board command, or a problem in either direction.
type Item struct {
	At  time.Time // the chunk's time (zero for raw and base64)
	Dir Dir
	Msg dgt.Message // FromBoard
	Cmd dgt.Command // ToBoard
	// Err is a *dgt.FrameError, *dgt.CommandError or *ParseError for
	// bytes or lines that were skipped; Msg and Cmd are nil then.
	Err error
}

// Replayer (a test helper) decodes a recording into messages and commands, in order,
// each stamped with the time of the chunk that completed it. It follows
// the board's mode as the recorded host commands change it:
// DGT_TO_BUSMODE or any bus command switches the board→host decoder to
// bus mode, any other single-board command back to single-board mode. It
// is pure apart from reading r, and not safe for concurrent use.
type Replayer struct {
	r    *Reader
	msgs *dgt.Decoder
	cmds *dgt.CommandDecoder
	at   time.Time
	dir  Dir
	err  error
}

// NewReplayer returns a Replayer of r, starting in mode m.
func NewReplayer(r *Reader, m dgt.Mode) *Replayer {
	return &Replayer{r: r, msgs: dgt.NewDecoder(m), cmds: dgt.NewCommandDecoder()}
}

// Mode returns the board→host decoding mode now in force.
func (p *Replayer) Mode() dgt.Mode { return p.msgs.Mode() }

// Next returns the next item. Problems come back as items with Err set;
// the error result is io.EOF at the end (after a last item reporting an
// incomplete frame, if any) or the reader's I/O error, both sticky.
func (p *Replayer) Next() (Item, error) {
	for {
		if p.dir != 0 {
			if it, ok := p.drain(); ok {
				return it, nil
			}
		}
		if p.err != nil {
			return Item{}, p.err
		}
		c, err := p.r.Next()
		var pe *ParseError
		switch {
		case errors.As(err, &pe):
			return Item{Err: err}, nil
		case err != nil:
			p.err = err
			if ferr := p.msgs.Flush(); ferr != nil {
				return Item{At: p.at, Dir: FromBoard, Err: ferr}, nil
			}
			continue
		}
		p.at, p.dir = c.At, c.Dir
		if c.Dir == ToBoard {
			p.cmds.Feed(c.Bytes)
		} else {
			p.msgs.Feed(c.Bytes)
		}
	}
}

// drain returns the next complete item of the current direction.
func (p *Replayer) drain() (Item, bool) {
	it := Item{At: p.at, Dir: p.dir}
	if p.dir == ToBoard {
		c, err := p.cmds.Next()
		if errors.Is(err, dgt.ErrNeedMore) {
			return it, false
		}
		it.Cmd, it.Err = c, err
		if c != nil {
			p.follow(c)
		}
		return it, true
	}
	m, err := p.msgs.Next()
	if errors.Is(err, dgt.ErrNeedMore) {
		return it, false
	}
	it.Msg, it.Err = m, err
	return it, true
}

// follow switches the decoding mode as the board would.
func (p *Replayer) follow(c dgt.Command) {
	switch c := c.(type) {
	case dgt.BusCommand:
		p.msgs.SetMode(dgt.Bus)
	case dgt.SimpleCommand:
		if c == dgt.CmdToBusMode {
			p.msgs.SetMode(dgt.Bus)
		} else {
			p.msgs.SetMode(dgt.SingleBoard)
		}
	default:
		p.msgs.SetMode(dgt.SingleBoard)
	}
}
