package hall

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamestore"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// TestSessionResume: a record saved after three plies and loaded again
// resumes at ply 4 with the same revision, and a takeback after the resume
// reaches back before it (the tracker was rebuilt from the whole record).
func TestSessionResume(t *testing.T) {
	dir := t.TempDir()
	o := sessionOptions(t)
	s, err := session.NewSession(o, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	at, out := play(t, s, t0, "e2e4", "e7e5", "g1f3")
	if evs := moveEvents(out); len(evs) != 3 || evs[2].Ply != 3 || evs[2].SAN != "Nf3" {
		t.Fatalf("move events %+v", evs)
	}
	s.Record().Revision = 2 // as after two corrections
	if err := gamestore.SaveRecord(dir, s.Record()); err != nil {
		t.Fatal(err)
	}
	rec, ok, err := gamestore.LoadRecord(dir, o.Info.Game)
	if err != nil || !ok {
		t.Fatalf("load: %v %v", ok, err)
	}
	r, err := session.NewSession(o, rec, at)
	if err != nil {
		t.Fatal(err)
	}
	if r.Tracker().Completed() != 3 || r.Adjudicator().Ply() != 3 {
		t.Fatalf("resumed at tracker ply %d, adjudicator ply %d", r.Tracker().Completed(), r.Adjudicator().Ply())
	}
	at, out = play(t, r, at, "b8c6")
	evs := moveEvents(out)
	if len(evs) != 1 || evs[0].Ply != 4 || evs[0].Revision != 2 || evs[0].UCI != "b8c6" {
		t.Fatalf("after resume: %+v", evs)
	}
	// Takeback to ply 1 (pieces put back): a Correction at revision 3.
	st := r.Sense(at.Add(5*time.Second), game.FullRead{Placement: r.Tracker().PositionAt(1).Placement()})
	var corr *game.Correction
	for _, o := range st.Out {
		if c, ok := o.(game.Correction); ok {
			corr = &c
		}
	}
	if corr == nil || corr.Ply != 1 || corr.Revision != 3 || len(r.Record().Moves) != 1 {
		t.Fatalf("takeback: %+v, record %v", corr, r.Record().UCIs())
	}
}
