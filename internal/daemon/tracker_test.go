package daemon

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
)

// TestTrackerOptionsFollowTheConfiguration: every tracker key of the
// configuration reaches the boards' trackers, tracker.reread both ways.
func TestTrackerOptionsFollowTheConfiguration(t *testing.T) {
	for _, reread := range []bool{true, false} {
		c := config.Tracker{PressGrace: 700 * time.Millisecond, HandHold: 3 * time.Second, LostAfter: 25 * time.Second, Reread: reread}
		o := trackerOptions(c)
		if o.PressGrace != c.PressGrace || o.HandHold != c.HandHold || o.LostAfter != c.LostAfter || o.Reread != reread {
			t.Errorf("tracker %+v gave %+v", c, o)
		}
	}
	if d := config.Defaults(); !trackerOptions(d.Tracker).Reread {
		t.Errorf("the default configuration's boards do not reread")
	}
}
