package loadtest

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// TestLoadTestSmall builds the daemon and runs a small load test: six
// boards on two bus lines of three, eight plies each.
// Every move must arrive once and right, and the report must hold every
// figure.
func TestLoadTestSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: builds the daemon and plays for about 30 s")
	}
	goBin := testenv.LookPath(t, "go", "Go from go.dev")
	dir := t.TempDir()
	bin := filepath.Join(dir, "dgtbridge")
	if out, err := exec.Command(goBin, "build", "-o", bin, "../../cmd/dgtbridge").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var log strings.Builder
	rep, err := Run(ctx, Options{Boards: 6, Bus: 3, Plies: 8, Interval: 1500 * time.Millisecond,
		Daemon: bin, Dir: filepath.Join(dir, "run"), Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	var out strings.Builder
	rep.Print(&out)
	t.Log(out.String())
	if rep.Expected != 48 || rep.Received != 48 || rep.Lost+rep.Wrong+rep.Duplicated != 0 {
		t.Errorf("moves: %+v", rep)
	}
	if rep.Lines != 2 || rep.Delay.N+rep.Unattributed != 48 || rep.FromPress.N != 48 || rep.Polls.N == 0 || rep.RSSMaxMB <= 0 || rep.CPUCores <= 0 {
		t.Errorf("figures missing: %+v", rep)
	}
}
