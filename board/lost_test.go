package board

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// lostEvents returns the Unexplained events that report the record lost
// and the Explained events that say it was found.
func lostEvents(evs []game.Event) (lost []game.Unexplained, found []game.Explained) {
	for _, e := range evs {
		switch e := e.(type) {
		case game.Unexplained:
			if e.Lost {
				lost = append(lost, e)
			}
		case game.Explained:
			if e.Found {
				found = append(found, e)
			}
		}
	}
	return lost, found
}

// TestRecordLostAtThePress: a board held unexplained on which the clock
// is pressed is a lost record (the players play on), reported once, with
// the last ply that agreed; the board put right finds it again.
func TestRecordLostAtThePress(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	s.move("e2e4", true)
	s.move("e7e5", true)
	s.do("wait")
	s.reset()
	// A white pawn gone and a black queen from nowhere: no move.
	s.do("-h2", "+h5=q", "wait:3s")
	if lost, _ := lostEvents(s.evs); len(lost) != 0 || len(s.kinds()) == 0 {
		t.Fatalf("lost before any press or LostAfter:\n%s", s.dump())
	}
	find[game.Unexplained](s)
	s.do("press", "wait", "press", "wait")
	lost, _ := lostEvents(s.evs)
	if len(lost) != 1 {
		t.Fatalf("%d lost reports, want 1:\n%s", len(lost), s.dump())
	}
	if lost[0].Agreed != 2 || lost[0].Placement != s.tr.Sensed() {
		t.Fatalf("lost report %+v, want agreed 2 and the board's placement", lost[0])
	}
	s.do("-h5", "+h2=P", "wait")
	if _, found := lostEvents(s.evs); len(found) != 1 || found[0].Ply != 2 {
		t.Fatalf("found %+v, want once at ply 2:\n%s", found, s.dump())
	}
}

// TestRecordLostAfterTheSetting: without a press the record is lost once
// nothing has explained the board for LostAfter since it stopped being
// explained, not before.
func TestRecordLostAfterTheSetting(t *testing.T) {
	s := newScript(t, TrackerOptions{LostAfter: 10e9})
	s.move("d2d4", true)
	s.do("wait")
	s.reset()
	s.do("-a2", "+a5=q")
	since := s.now
	s.do("wait:9s")
	if lost, _ := lostEvents(s.evs); len(lost) != 0 {
		t.Fatalf("lost after 9 s of 10:\n%s", s.dump())
	}
	s.do("wait:2s")
	lost, _ := lostEvents(s.evs)
	if len(lost) != 1 || !lost[0].At.Equal(since.Add(10e9)) {
		t.Fatalf("lost %+v, want once at %v", lost, since.Add(10e9))
	}
	if d, ok := s.tr.NextDeadline(); ok && !d.After(s.now) {
		t.Fatalf("a deadline %v is left at %v", d, s.now)
	}
}

// TestSlowHandIsNotALostRecord: pieces held in the hand (a piece lifted
// to think) are no lost record, however long.
func TestSlowHandIsNotALostRecord(t *testing.T) {
	s := newScript(t, TrackerOptions{})
	s.move("e2e4", true)
	s.do("wait", "-g8", "wait:40s", "+f6")
	if lost, _ := lostEvents(s.evs); len(lost) != 0 {
		t.Fatalf("a piece in the hand reported as a lost record:\n%s", s.dump())
	}
}
