package broadcast

import (
	"testing"
	"time"
)

// TestStatusBucketWrittenByDaemonOnly: organisers and arbiters cannot put
// into the status bucket (a forged "connected" would hide a dead board);
// they may read it.
func TestStatusBucketWrittenByDaemonOnly(t *testing.T) {
	srv := startServer(t, t.TempDir(), testUsers...)
	defer srv.Shutdown()
	s, _ := NewSubjects("dgt")
	for _, u := range []struct{ name, pw string }{{"hall", "hall-pw"}, {"arb", "arb-pw"}} {
		c := connectAs(t, srv, u.name, u.pw)
		subj := "$KV." + s.StatusBucket() + ".r1-b1"
		if err := c.nc.Publish(subj, []byte(`{"connected":true}`)); err != nil {
			t.Fatal(err)
		}
		c.nc.Flush()
		if !c.violation(subj, 5*time.Second) {
			t.Errorf("%s could publish on %s", u.name, subj)
		}
		sub, err := c.nc.SubscribeSync("$KV." + s.StatusBucket() + ".>")
		if err != nil {
			t.Fatal(err)
		}
		c.nc.Flush()
		if c.violation("$KV."+s.StatusBucket(), 200*time.Millisecond) {
			t.Errorf("%s may not read the status bucket", u.name)
		}
		sub.Unsubscribe()
	}
}
