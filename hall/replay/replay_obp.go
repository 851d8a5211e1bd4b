package replay

import (
	"bytes"
	"errors"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/obp/obpfeed"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// OBP reconstructs the games of the recording of an Open Board
// Protocol board (xiangqi or chess; the board's size is the game's), as
// DGT does for DGT boards: the board's lines go through obp/obpfeed to
// the same session the daemon runs, hexlog times honoured and board
// timestamps mapped to them. Bad lines go to o.BadLine and are skipped.
func OBP(r io.Reader, o Options) (Result, error) {
	return replay(r, o, (*replayer).obpChunk)
}

// obpReplay is the OBP side of a replay.
type obpReplay struct {
	dec  *obp.Decoder
	feed *obpfeed.Translator
	tb   obp.Timebase // board timestamps
	last time.Time    // the last time fed: never back
	buf  []game.Sensed
	// slides: pieces slid across points, as the daemon finds them
	// (obp_slide.go).
	slides *session.SlideWatch
}

// obpChunk feeds one chunk of an OBP board's lines.
func (rp *replayer) obpChunk(c recording.Chunk) {
	rp.stamp(c)
	if rp.ob == nil {
		pos := rp.s.Tracker().Position()
		rp.ob = &obpReplay{dec: obp.NewDecoder(pos.Geometry()), feed: obpfeed.New(pos.Placement()), slides: session.NewSlideWatch(rp.s)}
		rp.ob.feed.SetTurn(pos.Turn()) // as the hall does when the board connects
	}
	ob := rp.ob
	ob.dec.Feed(c.Bytes)
	for {
		m, err := ob.dec.Next()
		if errors.Is(err, obp.ErrNeedMore) {
			return
		}
		if err != nil {
			rp.bad(err)
			continue
		}
		if c.At.IsZero() {
			rp.at = rp.at.Add(rp.o.Gap)
		}
		at := rp.at
		if !c.At.IsZero() {
			at = ob.tb.Time(rp.at, m.BoardTime())
		}
		if at.Before(ob.last) {
			at = ob.last
		}
		ob.last = at
		switch m.(type) {
		case obp.Board, obp.Clock, obp.Lift, obp.Put:
		case obp.Ident:
			ob.tb.Reset() // a board (re)connected: its counter may have restarted
			continue
		case obp.Fault, obp.Unknown:
			continue
		}
		ob.buf, err = ob.feed.Append(ob.buf[:0], m)
		for _, r := range ob.buf {
			if al, ok := ob.slides.See(at, r, rp.s.Record()); ok {
				rp.collect(session.Step{Out: []game.Payload{al}})
			}
			rp.collect(rp.s.Sense(at, r))
		}
		if err != nil {
			rp.bad(err)
		}
	}
}

// IsOBPRecording reports whether the start of a recording (any format)
// is the traffic of an OBP board: the board identified itself as one, or
// the host asked it "I".
func IsOBPRecording(head []byte) bool {
	rd, err := recording.NewReader(bytes.NewReader(head), recording.Auto)
	if err != nil {
		return false
	}
	for i := 0; i < 64; i++ {
		c, err := rd.Next()
		if err != nil {
			var pe *recording.ParseError
			if errors.As(err, &pe) {
				continue
			}
			return false
		}
		if c.Dir == recording.FromBoard && bytes.Contains(c.Bytes, []byte("I OBP/")) {
			return true
		}
		if c.Dir == recording.ToBoard && bytes.Equal(bytes.TrimLeft(c.Bytes, "\n"), []byte("I\n")) {
			return true
		}
	}
	return false
}
