package replay

import (
	"errors"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// DefaultGap is the synthetic time between two board messages of a
// recording without timestamps (raw, base64): longer than the tracker's
// settle window (500 ms), so every message is judged on its own, and
// shorter than its hold (2 s), so pieces in the air are never reported as
// an unexplained board. Clock readings in such recordings still carry the
// clock's own times; only the spacing of arrival is synthetic.
const DefaultGap = 700 * time.Millisecond

// Options configure DGT and OBP.
type Options struct {
	// Session configures every game; Info.Game.Board is replaced by the
	// game's number in the recording (1, 2, …) and NewGameOnSetup is set.
	Session session.SessionOptions
	// Format of the recording (recording.Auto detects it).
	Format recording.Format
	// Gap is the spacing of messages without timestamps (default
	// DefaultGap).
	Gap time.Duration
	// Start is the time of the first message of an untimed recording
	// (default 2000-01-01T00:00:00Z, so replays are reproducible).
	Start time.Time
	// BadLine receives each bad line of the recording (a *recording.ParseError,
	// skipped) and each frame the decoder resynchronised after; nil
	// ignores them.
	BadLine func(error)
}

// Result is what a recording held: its games in order (a set-up
// after moves starts a new game) and the alerts raised, in order.
type Result struct {
	Games  []*gamerecord.Record
	Alerts []game.Alert
}

// DGT reconstructs the games of one recording (docs/contract.md §4). Only
// board→host traffic is read. Hexlog timestamps are honoured; raw and
// base64 messages are spaced by o.Gap. An I/O error stops it and is returned
// with what was reconstructed so far.
func DGT(r io.Reader, o Options) (Result, error) {
	return replay(r, o, (*replayer).chunk)
}

// replay reads a recording, handing each chunk of board→host bytes to
// chunk (DGT here, OBP in replay_obp.go).
func replay(r io.Reader, o Options, chunk func(*replayer, recording.Chunk)) (Result, error) {
	var res Result
	if o.Gap <= 0 {
		o.Gap = DefaultGap
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	rd, err := recording.NewReader(r, o.Format)
	if err != nil {
		return res, err
	}
	so := o.Session
	so.NewGameOnSetup = true
	if rd.Format() != recording.Hexlog {
		so.NoTiming = true // the spacing is ours (o.Gap), not the board's
	}
	so.Info.Game.Board = 1
	if so.Info.Game.Round == 0 {
		so.Info.Game.Round = 1
	}
	rp := &replayer{o: o, so: so, at: o.Start, first: true, dec: dgt.NewDecoder(dgt.SingleBoard)}
	if rp.s, err = session.NewSession(so, nil, rp.at); err != nil {
		return res, err
	}
	for {
		c, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *recording.ParseError
		if errors.As(err, &pe) {
			rp.bad(err)
			continue
		}
		if err != nil {
			rp.collect(rp.s.Finish(rp.at))
			rp.res.Games = append(rp.res.Games, rp.s.Record())
			return rp.res, err
		}
		if c.Dir == recording.FromBoard {
			chunk(rp, c)
		}
	}
	s := rp.s
	rp.collect(s.Finish(rp.at.Add(time.Minute)))
	if len(s.Record().Moves) > 0 || len(rp.res.Games) == 0 || s.Over() {
		rp.res.Games = append(rp.res.Games, s.Record())
	}
	return rp.res, nil
}

// replayer is one recording being replayed.
type replayer struct {
	o     Options
	so    session.SessionOptions // of the current game
	s     *session.Session
	res   Result
	at    time.Time // the time of the last message
	first bool      // no message read yet
	dec   *dgt.Decoder
	ob    *obpReplay // an OBP board's recording (replay_obp.go)
}

// bad reports a bad line or frame.
func (rp *replayer) bad(err error) {
	if rp.o.BadLine != nil {
		rp.o.BadLine(err)
	}
}

// chunk feeds one chunk of board→host bytes: each message at the chunk's
// time (hexlog) or spaced by Gap (raw, base64).
func (rp *replayer) chunk(c recording.Chunk) {
	rp.stamp(c)
	rp.dec.Feed(c.Bytes)
	for {
		m, err := rp.dec.Next()
		if errors.Is(err, dgt.ErrNeedMore) {
			return
		}
		if err != nil {
			rp.bad(err)
			continue
		}
		if c.At.IsZero() {
			rp.at = rp.at.Add(rp.o.Gap)
		}
		rp.collect(rp.s.Message(rp.at, m))
	}
}

// stamp takes the time of a chunk (hexlog): time never goes back.
func (rp *replayer) stamp(c recording.Chunk) {
	if !c.At.IsZero() {
		if rp.first || c.At.After(rp.at) {
			rp.at = c.At
		}
		if rp.first {
			rp.s.Record().Started = rp.at
		}
	}
	rp.first = false
}

// collect keeps the games a set-up ended (the next one gets the next
// board number) and the alerts.
func (rp *replayer) collect(st session.Step) {
	for _, g := range st.Finished {
		rp.res.Games = append(rp.res.Games, g)
		rp.so.Info.Game.Board++
		rp.s.Renumber(rp.so.Info.Game.Board)
	}
	for _, out := range st.Out {
		if a, ok := out.(game.Alert); ok {
			rp.res.Alerts = append(rp.res.Alerts, a)
		}
	}
}
