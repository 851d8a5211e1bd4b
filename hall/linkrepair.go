package hall

import (
	"time"

	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// repairWithin bounds how long after the damage a link's repair read
// may come for it to stand in for the field updates the damage lost: the
// link asks for the position as soon as it finds bytes damaged, and the
// board answers within tens of milliseconds. In that time a hand may have
// finished a move or be in the middle of one (a king put down, its rook
// still in the hand), which the live feed follows; it cannot have made
// the several plies a catch-up's deeper search looks for.
const repairWithin = 2 * time.Second

// lineDamaged notes a link's Resync at at: bytes of the board were
// damaged (or a check found the position differing) and the link reads
// the position again. The first damage since the last position read is
// kept. Damage before the link delivered any message of the connection
// is not noted: the connection's read catches up.
func (br *boardRun) lineDamaged(at time.Time) {
	if br.damaged.IsZero() && !br.heard.IsZero() {
		br.damaged = at
	}
}

// repairing returns when the damage was found that the position read m
// repairs (lineDamaged), and forgets it; zero when m is no position read,
// none was noted, or the board's log waits for m (recoverOn reads them
// together: the log says what happened).
func (br *boardRun) repairing(m dgt.Message) time.Time {
	if _, ok := m.(dgt.BoardDump); !ok {
		return time.Time{}
	}
	since := br.damaged
	br.damaged = time.Time{}
	if br.boardLog != nil {
		return time.Time{}
	}
	return since
}

// repairRead feeds the position m a link read to repair damage on the
// line found at since (repairing; within repairWithin) as the
// field updates the damage lost: each square it shows otherwise than the
// tracker is fed as a live change at at (squares emptied first: a hand
// lifts before it puts down), so that a hand in the middle of a move is
// followed as the live feed follows it (a piece in the hand is a move in
// progress, a piece set down is looked at again before it is judged: it
// may slide on), and the next field updates complete the move. It
// reports whether it did. Searched as a catch-up read (Tracker.Dump:
// deeper, and for pieces that came back to their squares), a castling in
// progress, the king on g1 and the rook in the hand, was read as four
// plies made and taken back (Kf1 Ke7 Kg1 Ke8) when the board's log, which
// would have explained it, could not be read. A read long after the
// damage, the connection's read, and the reads of relayed and team games
// are fed as before.
func (br *boardRun) repairRead(at, since time.Time, m dgt.Message) bool {
	if since.IsZero() || at.Sub(since) > repairWithin || br.s.Relayed() || br.s.InTeam() || br.s.Tracker() == nil {
		return false
	}
	for _, r := range dgtfeed.Append(nil, m) {
		fr, ok := r.(game.FullRead)
		if !ok {
			continue
		}
		was := br.s.Tracker().Sensed()
		if br.s.Tracker().Rotated() {
			was = session.Rotated(was)
		}
		now := fr.Placement
		at = br.mono(at)
		for _, put := range []bool{false, true} {
			for i := range now.Geo.Size() {
				if now.Sq[i] == was.Sq[i] || (now.Sq[i] != rules.NoPiece) != put {
					continue
				}
				br.apply(br.s.Sense(at, game.SquareChange{Square: rules.Square(i), Piece: now.Sq[i]}))
			}
		}
		return true
	}
	return false
}
