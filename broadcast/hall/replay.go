package hall

import (
	"errors"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/record"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// DefaultReplayGap is the synthetic time between two board messages of a
// recording without timestamps (raw, base64): longer than the tracker's
// settle window (500 ms), so every message is judged on its own, and
// shorter than its hold (2 s), so pieces in the air are never reported as
// an unexplained board. Clock readings in such recordings still carry the
// clock's own times; only the spacing of arrival is synthetic.
const DefaultReplayGap = 700 * time.Millisecond

// ReplayOptions configure Replay.
type ReplayOptions struct {
	// Session configures every game; Info.Game.Board is replaced by the
	// game's number in the recording (1, 2, …) and NewGameOnSetup is set.
	Session SessionOptions
	// Format of the recording (record.Auto detects it).
	Format record.Format
	// Gap is the spacing of messages without timestamps (default
	// DefaultReplayGap).
	Gap time.Duration
	// Start is the time of the first message of an untimed recording
	// (default 2000-01-01T00:00:00Z, so replays are reproducible).
	Start time.Time
	// BadLine receives each bad line of the recording (a *record.ParseError,
	// skipped) and each frame the decoder resynchronised after; nil
	// ignores them.
	BadLine func(error)
}

// ReplayResult is what a recording held: its games in order (a set-up
// after moves starts a new game) and the alerts raised, in order.
type ReplayResult struct {
	Games  []*Record
	Alerts []game.Alert
}

// Replay reconstructs the games of one recording (interfaces.md §4). Only
// board→host traffic is read. Hexlog timestamps are honoured; raw and
// base64 messages are spaced by o.Gap. An I/O error stops it and is returned
// with what was reconstructed so far.
func Replay(r io.Reader, o ReplayOptions) (ReplayResult, error) {
	var res ReplayResult
	if o.Gap <= 0 {
		o.Gap = DefaultReplayGap
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	rd, err := record.NewReader(r, o.Format)
	if err != nil {
		return res, err
	}
	so := o.Session
	so.NewGameOnSetup = true
	if rd.Format() != record.Hexlog {
		so.NoTiming = true // the spacing is ours (o.Gap), not the board's
	}
	so.Info.Game.Board = 1
	if so.Info.Game.Round == 0 {
		so.Info.Game.Round = 1
	}
	at := o.Start
	s, err := NewSession(so, nil, at)
	if err != nil {
		return res, err
	}
	collect := func(st Step) {
		for _, g := range st.Finished {
			res.Games = append(res.Games, g)
			so.Info.Game.Board++
			s.rec.Info.Game.Board = so.Info.Game.Board
			s.o.Info.Game.Board = so.Info.Game.Board
		}
		for _, out := range st.Out {
			if a, ok := out.(game.Alert); ok {
				res.Alerts = append(res.Alerts, a)
			}
		}
	}
	dec := dgt.NewDecoder(dgt.SingleBoard)
	first := true
	for {
		c, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *record.ParseError
		if errors.As(err, &pe) {
			if o.BadLine != nil {
				o.BadLine(err)
			}
			continue
		}
		if err != nil {
			collect(s.Finish(at))
			res.Games = append(res.Games, s.rec)
			return res, err
		}
		if c.Dir != record.FromBoard {
			continue
		}
		if !c.At.IsZero() {
			if first || c.At.After(at) {
				at = c.At
			}
			if first {
				s.rec.Started = at
			}
		}
		first = false
		dec.Feed(c.Bytes)
		for {
			m, err := dec.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				if o.BadLine != nil {
					o.BadLine(err)
				}
				continue
			}
			if c.At.IsZero() {
				at = at.Add(o.Gap)
			}
			collect(s.Message(at, m))
		}
	}
	collect(s.Finish(at.Add(time.Minute)))
	if len(s.rec.Moves) > 0 || len(res.Games) == 0 || s.over() {
		res.Games = append(res.Games, s.rec)
	}
	return res, nil
}
