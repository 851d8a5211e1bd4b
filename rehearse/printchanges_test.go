package rehearse

import (
	"strings"
	"testing"
	"time"
)

// TestPrintChanges: a line is written when its state changes (with its
// reason), not while it stays, and a line waiting in the first report is
// not written.
func TestPrintChanges(t *testing.T) {
	var out strings.Builder
	at := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	p := PrintChanges(&out, func() time.Time { return at })
	p(Report{Lines: []Line{{Subject: "board 1", State: Waiting}, {Subject: "user arbiter1", State: Failed, Reason: "wrong password"}}})
	at = at.Add(time.Minute)
	p(Report{Lines: []Line{{Subject: "board 1", State: Passed}, {Subject: "user arbiter1", State: Failed, Reason: "wrong password"}}})
	want := "09:00:00 " + string(Failed) + "  user arbiter1: wrong password\n" +
		"09:01:00 " + string(Passed) + "  board 1\n"
	if got := out.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
