package config

import (
	"strings"
	"testing"
)

// TestTrackerReread: the record is reread by default; tracker.reread false
// turns it off; a value that is no boolean names the key.
func TestTrackerReread(t *testing.T) {
	for _, c := range []struct {
		yaml string
		want bool
	}{
		{"", true},
		{"tracker: {reread: false}\n", false},
		{"tracker: {reread: true, lost_after: 30s}\n", true},
	} {
		got, err := load(t, c.yaml, nil)
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		if got.Tracker.Reread != c.want {
			t.Errorf("%q: tracker.reread %v, want %v", c.yaml, got.Tracker.Reread, c.want)
		}
	}
	_, err := load(t, "tracker: {reread: sometimes}\n", nil)
	if err == nil || !strings.Contains(err.Error(), "reread") {
		t.Fatalf("tracker.reread: sometimes: error %v, want one naming the key", err)
	}
}
