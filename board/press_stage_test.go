package board

import (
	"slices"
	"testing"
)

// TestPressStages checks the press's stages against their table: every
// change the tracker makes through lookedAt, untentative and unlooked is
// one the table allows (or none), the predicates agree with the stages'
// names, and a change the table does not list panics.
func TestPressStages(t *testing.T) {
	all := []pressStage{pressHeard, pressHeardLooked, pressTentative, pressTentativeLooked, pressRecorded, pressRecordedLooked}
	if len(all) != len(pressChanges) {
		t.Fatalf("%d stages, %d rows in the table", len(all), len(pressChanges))
	}
	for _, s := range all {
		for name, next := range map[string]pressStage{"lookedAt": s.lookedAt(), "untentative": s.untentative(), "unlooked": s.unlooked()} {
			if next != s && !slices.Contains(pressChanges[s], next) {
				t.Errorf("%s: %s gives %s, which the table does not allow", s, name, next)
			}
		}
		if s.lookedAt().looked() != true || s.unlooked().looked() && s.recorded() {
			t.Errorf("%s: looked at %s, anew %s", s, s.lookedAt(), s.unlooked())
		}
		if s.untentative().tentative() || s.untentative().recorded() != s.recorded() {
			t.Errorf("%s: once its answer is fed, %s", s, s.untentative())
		}
		// A heard press is recorded by an answer, never the other way.
		for _, q := range pressChanges[s] {
			if s.recorded() && !q.recorded() {
				t.Errorf("%s may become %s: a recorded press unrecorded", s, q)
			}
		}
	}
	p := pendingPress{stage: pressRecorded}
	defer func() {
		if recover() == nil {
			t.Errorf("a recorded press became heard without a panic")
		}
	}()
	p.to(pressHeard)
}
