package hall

import (
	"context"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// A game whose stored record was damaged (a record file that did not
// parse, a journal segment with bad bytes or cut short: notes at load) is
// recovered, before its board starts, from what was published of it: the
// MoveEvents, Corrections and Result of the game in the <P>_GAMES stream
// and those still in the publisher's outbox (Options.History,
// *broadcast.Publisher.History), read for at most Options.HistoryWait.
// What the disk kept and what was published are merged (mergeHistory):
// the published plies that follow what the disk kept, or the published
// record when it is of a later revision. The board then starts from the
// merged record, like any game resumed after a restart: what was played
// while the daemon was down is caught up from the board. The other boards
// do not wait (those on the same bus line wait with it: the line's
// goroutine starts its boards in turn). Team-drop games are not recovered
// so (a match needs its events, which are not published); they keep what
// the disk held.

// DefaultHistoryWait is the default Options.HistoryWait.
const DefaultHistoryWait = 15 * time.Second

// historyResult is what the history of a damaged game gave.
type historyResult struct {
	h   broadcast.History
	err error
}

// fetchHistories starts reading the history of every damaged game; each
// board's start waits for its own (boardRun.recoverHistory).
func (h *Hall) fetchHistories(ctx context.Context) {
	if h.o.History == nil {
		return
	}
	for _, br := range h.boards {
		if len(br.notes) == 0 || br.team != nil {
			continue
		}
		ch := make(chan historyResult, 1)
		br.history = ch
		g := br.b.Session.Info.Game
		go func() {
			ctx, cancel := context.WithTimeout(ctx, h.o.HistoryWait)
			defer cancel()
			hist, err := h.o.History(ctx, g)
			ch <- historyResult{hist, err}
		}()
	}
}

// recoverHistory waits for the history of a damaged game and makes the
// record the board starts from of it and what the disk kept; the arbiter
// is told what came from where (a note for the record_damaged alert).
func (br *boardRun) recoverHistory(now time.Time) {
	if br.history == nil {
		return
	}
	r := <-br.history
	br.history = nil
	g := br.b.Session.Info.Game
	rec, note := mergeHistory(br.rec, r.h, br.b.Session, now)
	if r.err != nil {
		if len(r.h.Payloads) == 0 {
			note = "what was published of it could not be read"
		}
		note += fmt.Sprintf(" (the stream %s was not read in full: %v)", r.h.Stream, r.err)
		br.log.Error("damaged record: the published record was not read in full", "err", r.err)
	}
	br.notes = append(br.notes, note)
	if rec != br.rec {
		br.rec, br.recovered = rec, true
	}
	br.log.Warn("damaged record: recovered from what was published", "game", g, "note", note, "moves", len(movesOrNil(rec)))
}

// movesOrNil returns the record's moves (none for a nil record).
func movesOrNil(r *gamerecord.Record) []gamerecord.Ply {
	if r == nil {
		return nil
	}
	return r.Moves
}

// published is a game's record as published (a History played in order).
type published struct {
	rev   int
	base  []string // the UCIs the revision's correction set (nil: from the start)
	corr  *game.Correction
	moves map[int]game.MoveEvent // of rev, by ply
	from  map[int]bool           // plies that were still in the outbox
	res   *game.Result
}

// replayHistory plays a History: corrections cut the record and start a
// revision, moves of the revision add or replace their ply, the last
// result counts.
func replayHistory(h broadcast.History) published {
	p := published{moves: map[int]game.MoveEvent{}, from: map[int]bool{}}
	for i, pl := range h.Payloads {
		switch v := pl.(type) {
		case game.Correction:
			if v.Revision < p.rev {
				continue
			}
			kept := map[int]game.MoveEvent{}
			for ply, ev := range p.moves {
				if ply <= v.Ply && ply <= len(v.Moves) && v.Moves[ply-1] == ev.UCI {
					kept[ply] = ev
				}
			}
			c := v
			p.rev, p.base, p.corr, p.moves = v.Revision, v.Moves[:min(v.Ply, len(v.Moves))], &c, kept
		case game.MoveEvent:
			if v.Revision < p.rev {
				continue
			}
			if v.Revision > p.rev { // its correction was not published
				p.rev, p.base, p.corr, p.moves = v.Revision, nil, nil, map[int]game.MoveEvent{}
			}
			p.moves[v.Ply] = v
			p.from[v.Ply] = i >= h.FromStream
		case game.Result:
			r := v
			p.res = &r
		case game.Alert, game.Announcement, game.ClockEvent:
			// Not part of the record: alerts and announcements are
			// the arbiter's and the relay's, clock events are
			// carried by the moves' own clock fields.
		}
	}
	return p
}

// ply is the record's ply made of a MoveEvent.
func plyOf(ev game.MoveEvent) gamerecord.Ply {
	return gamerecord.Ply{UCI: ev.UCI, SAN: ev.SAN, FEN: ev.FEN, Clock: ev.Clock, EMTMS: ev.EMTMS, At: ev.At.Time, Pockets: ev.Pockets}
}

// baseMoves returns the plies of p's correction (those published with
// their details; the others replayed from the start for their SAN and
// FEN), or nil when they do not replay.
func (p published) baseMoves(r *gamerecord.Record) ([]gamerecord.Ply, bool) {
	pos, err := pgn.Position(r.Variant(), r.StartFEN)
	if err != nil {
		return nil, false
	}
	var out []gamerecord.Ply
	for i, u := range p.base {
		m, err := pos.ParseMove(u)
		if err != nil {
			return nil, false
		}
		san := pos.SAN(m)
		if pos, err = pos.Play(m); err != nil {
			return nil, false
		}
		if ev, ok := p.moves[i+1]; ok && ev.UCI == u {
			out = append(out, plyOf(ev))
			continue
		}
		out = append(out, gamerecord.Ply{UCI: u, SAN: san, FEN: pos.FEN(), At: p.corr.At.Time})
	}
	return out, true
}

// mergeHistory returns the record a damaged game starts from: local (what
// the disk kept, nil: nothing) and the published plies that follow it, or
// the published record when it is of a later revision than local (or
// local is nil); and a note saying what came from where. local itself is
// returned when nothing was added.
func mergeHistory(local *gamerecord.Record, h broadcast.History, o session.SessionOptions, now time.Time) (*gamerecord.Record, string) {
	p := replayHistory(h)
	if len(p.moves) == 0 && p.corr == nil && p.res == nil {
		return local, fmt.Sprintf("nothing more was published of it (stream %s)", h.Stream)
	}
	var rec *gamerecord.Record
	var moves []gamerecord.Ply
	switch {
	case local != nil && local.Revision > p.rev:
		return local, fmt.Sprintf("the stream %s holds an older revision of it (%d, the disk's is %d): the disk's record is kept",
			h.Stream, p.rev, local.Revision)
	case local != nil && local.Revision == p.rev:
		for i, m := range local.Moves {
			if ev, ok := p.moves[i+1]; ok && ev.UCI != m.UCI {
				return local, fmt.Sprintf("the stream %s differs from the disk at ply %d (%s, the disk %s): the disk's record is kept",
					h.Stream, i+1, ev.UCI, m.UCI)
			}
		}
		cp := *local
		rec, moves = &cp, local.Moves
	default:
		if local != nil {
			cp := *local
			rec = &cp
		} else {
			rec = gamerecord.NewRecord(o.Info, o.StartFEN, now)
			if ev, ok := p.moves[1]; ok {
				rec.Started = ev.At.Add(-time.Duration(ev.EMTMS) * time.Millisecond)
			}
		}
		base, ok := p.baseMoves(rec)
		if !ok {
			return local, fmt.Sprintf("the record published in the stream %s does not replay: the disk's record is kept", h.Stream)
		}
		rec.Revision, rec.LastCorrection = p.rev, p.corr
		if local == nil || local.Revision != p.rev {
			rec.Result, rec.Termination, rec.Article, rec.Provisional = "*", "", "", false
		}
		moves = base
	}
	kept := 0 // of the disk's plies
	if local != nil && local.Revision == p.rev {
		kept = len(moves)
	}
	moves = append([]gamerecord.Ply(nil), moves...)
	for ply := len(moves) + 1; ; ply++ {
		ev, ok := p.moves[ply]
		if !ok {
			break
		}
		moves = append(moves, plyOf(ev))
	}
	rec.Moves = moves
	rec.Published = len(moves)
	if n := len(moves); n > 0 && moves[n-1].Clock != nil {
		rec.Clock = moves[n-1].Clock
	}
	if r := p.res; r != nil && r.Revision == rec.Revision && (rec.Result == "" || rec.Result == "*") {
		rec.Result, rec.Termination, rec.Article, rec.Provisional = r.Result, r.Termination, r.Article, r.Provisional
	}
	rec.UpdatedAt = now
	var stream, outbox []int
	for ply := kept + 1; ply <= len(moves); ply++ {
		if p.from[ply] {
			outbox = append(outbox, ply)
		} else {
			stream = append(stream, ply)
		}
	}
	what := "the disk kept " + plies(kept)
	if local == nil {
		what = "the disk kept nothing of it"
	} else if rec.Revision != local.Revision {
		what = fmt.Sprintf("the disk kept revision %d (%s); the stream %s has revision %d", local.Revision, plies(len(local.Moves)),
			h.Stream, rec.Revision)
	}
	switch {
	case len(stream)+len(outbox) == 0:
		what += fmt.Sprintf("; the stream %s holds no move after them", h.Stream)
	default:
		if len(stream) > 0 {
			what += fmt.Sprintf("; %s recovered from the stream %s", span(stream), h.Stream)
		}
		if len(outbox) > 0 {
			what += fmt.Sprintf("; %s from the outbox (not sent yet)", span(outbox))
		}
	}
	return rec, what + fmt.Sprintf(": the record now has %s", plies(len(moves)))
}

// plies says "n plies".
func plies(n int) string {
	if n == 1 {
		return "1 ply"
	}
	return fmt.Sprintf("%d plies", n)
}

// span says which plies of an increasing list: "ply 7", "plies 7-12".
func span(ps []int) string {
	if len(ps) == 1 {
		return fmt.Sprintf("ply %d", ps[0])
	}
	return fmt.Sprintf("plies %d-%d", ps[0], ps[len(ps)-1])
}
