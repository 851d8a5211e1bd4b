package replay

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/recording"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// TeamOptions configure Team.
type TeamOptions struct {
	// A and B are the two boards' games (A the lower board number); each
	// names the other as Partner, under the same team-drop rule set.
	A, B session.SessionOptions
	// Format of both recordings (recording.Auto detects each); they must
	// carry timestamps (hexlog): the two boards are merged by time.
	Format recording.Format
	// BadLine receives each bad line or resynchronised frame (nil: ignored).
	BadLine func(error)
}

// TeamResult is what two partner boards' recordings held: the
// match's two games (A's first), the alerts of both in the order they
// were raised, and the match as BPGN 1.0.
type TeamResult struct {
	Games  [2]*gamerecord.Record
	Alerts []game.Alert
	BPGN   *pgn.BPGNGame
}

// ErrUntimed: a team-drop replay was given a recording without timestamps.
var ErrUntimed = errors.New("hall: a team-drop replay needs timestamped recordings (hexlog): the two boards are merged by time")

// Team reconstructs a team-drop match from the recordings of its two
// boards (docs/contract.md §1, §4): the board→host messages of both are fed
// to the two sessions in the order of their timestamps (equal times: A
// first), so captures pass between the boards at the presses as they did
// in the hall. An I/O error stops it and is returned with what was
// reconstructed so far.
func Team(ra, rb io.Reader, o TeamOptions) (TeamResult, error) {
	var res TeamResult
	srcs, start, err := openTeamSources(ra, rb, o)
	if err != nil {
		return res, err
	}
	ss, err := session.NewTeamSessions(o.A, o.B, nil, nil, start)
	if err != nil {
		return res, err
	}
	var last [2]time.Time
	collect := func(st session.Step) {
		res.Alerts = appendAlerts(res.Alerts, st)
		for range 8 {
			pa, pb := ss[0].TakePartner(), ss[1].TakePartner()
			if pa.Empty() && pb.Empty() {
				return
			}
			res.Alerts = appendAlerts(appendAlerts(res.Alerts, pa), pb)
		}
	}
	for {
		b := -1
		for i, src := range srcs {
			if src.ok && (b < 0 || src.c.At.Before(srcs[b].c.At)) {
				b = i
			}
		}
		if b < 0 {
			break
		}
		src := srcs[b]
		at := src.c.At
		if at.Before(last[b]) {
			at = last[b] // a board's input never goes back in time
		}
		last[b] = at
		if src.first {
			ss[b].Record().Started = at
			src.first = false
		}
		if src.c.Dir == recording.FromBoard {
			src.decode(o.BadLine, func(m dgt.Message) { collect(ss[b].Message(at, m)) })
		}
		if err := src.next(o.BadLine); err != nil {
			for i := range ss {
				collect(ss[i].Finish(last[i]))
			}
			res.Games = [2]*gamerecord.Record{ss[0].Record(), ss[1].Record()}
			res.BPGN = ss[0].TeamBPGN()
			return res, err
		}
	}
	end := last[0]
	if last[1].After(end) {
		end = last[1]
	}
	end = end.Add(time.Minute)
	for i := range ss {
		collect(ss[i].Finish(end))
	}
	res.Games = [2]*gamerecord.Record{ss[0].Record(), ss[1].Record()}
	res.BPGN = ss[0].TeamBPGN()
	return res, nil
}

// openTeamSources opens the two recordings (timed formats only), reads
// their first chunks and gives the time of the earlier.
func openTeamSources(ra, rb io.Reader, o TeamOptions) ([2]*teamSource, time.Time, error) {
	var srcs [2]*teamSource
	for i, r := range []io.Reader{ra, rb} {
		rd, err := recording.NewReader(r, o.Format)
		if err != nil {
			return srcs, time.Time{}, fmt.Errorf("recording %d: %w", i+1, err)
		}
		if rd.Format() != recording.Hexlog {
			return srcs, time.Time{}, fmt.Errorf("recording %d (%s): %w", i+1, rd.Format(), ErrUntimed)
		}
		srcs[i] = &teamSource{rd: rd, dec: dgt.NewDecoder(dgt.SingleBoard), first: true}
	}
	for _, src := range srcs {
		if err := src.next(o.BadLine); err != nil {
			return srcs, time.Time{}, err
		}
	}
	start := time.Time{}
	for _, src := range srcs {
		if src.ok && (start.IsZero() || src.c.At.Before(start)) {
			start = src.c.At
		}
	}
	return srcs, start, nil
}

// decode feeds the current chunk's bytes to the decoder and hands each
// whole message on; a damaged one goes to badLine (when set).
func (src *teamSource) decode(badLine func(error), each func(dgt.Message)) {
	src.dec.Feed(src.c.Bytes)
	for {
		m, err := src.dec.Next()
		if errors.Is(err, dgt.ErrNeedMore) {
			return
		}
		if err != nil {
			if badLine != nil {
				badLine(err)
			}
			continue
		}
		each(m)
	}
}

// teamSource is one recording of a team replay and its next chunk.
type teamSource struct {
	rd    *recording.Reader
	dec   *dgt.Decoder
	c     recording.Chunk
	ok    bool // c holds the next chunk
	first bool // no message fed yet
}

// next reads the next chunk (ok false at the end); bad lines are reported
// and skipped.
func (s *teamSource) next(bad func(error)) error {
	for {
		c, err := s.rd.Next()
		if errors.Is(err, io.EOF) {
			s.ok = false
			return nil
		}
		var pe *recording.ParseError
		if errors.As(err, &pe) {
			if bad != nil {
				bad(err)
			}
			continue
		}
		if err != nil {
			s.ok = false
			return err
		}
		s.c, s.ok = c, true
		return nil
	}
}

// appendAlerts appends the alerts of a step.
func appendAlerts(dst []game.Alert, st session.Step) []game.Alert {
	for _, out := range st.Out {
		if a, ok := out.(game.Alert); ok {
			dst = append(dst, a)
		}
	}
	return dst
}
