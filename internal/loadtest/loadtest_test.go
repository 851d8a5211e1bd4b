package loadtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
	bin := daemonBinary(t)
	dir := t.TempDir()
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

// TestLoadTestKill kills the daemon (SIGKILL) in the middle of four
// boards' games, each alone on its port, and starts it again 3 s later
// while the boards play on: every move arrives right (the ones made
// meanwhile rebuilt from the boards' logs) or a moves_missing alert says
// which are not, the report names the moves the outage held up, and the
// other moves are timed as usual.
func TestLoadTestKill(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: builds the daemon and plays for about 30 s")
	}
	bin := daemonBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var log strings.Builder
	rep, err := Run(ctx, Options{Boards: 4, Bus: 1, Plies: 16, Interval: time.Second, Kill: 6 * time.Second, Down: 3 * time.Second,
		Daemon: bin, Dir: filepath.Join(dir, "run"), Log: &log})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	var out strings.Builder
	rep.Print(&out)
	t.Log(out.String())
	o := rep.Outage
	if o == nil || o.Killed < 6*time.Second || o.Down < 3*time.Second || o.Back < o.Down {
		t.Fatalf("outage: %+v", o)
	}
	if rep.Wrong != 0 || rep.Lost > 0 && rep.Alerts["moves_missing"] == 0 {
		t.Errorf("moves lost or wrong without a moves_missing alert: %+v\n%s", rep, strings.Join(rep.Mismatches, "\n"))
	}
	if o.Held == 0 || o.Caught.N != o.Held-o.Missing || o.Missing > rep.Lost || rep.Duplicated != 0 {
		t.Errorf("moves held up by the outage: %+v (lost %d)", o, rep.Lost)
	}
	if rep.FromPress.N != rep.Received-(o.Held-o.Missing) {
		t.Errorf("press -> MoveEvent timed %d moves, want the %d right ones not held up", rep.FromPress.N, rep.Received-(o.Held-o.Missing))
	}
}

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// daemonBinary builds the daemon once for the package's tests.
func daemonBinary(t *testing.T) string {
	t.Helper()
	goBin := testenv.LookPath(t, "go", "Go from go.dev")
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dgtbridge-loadtest-bin-")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "dgtbridge")
		if out, err := exec.Command(goBin, "build", "-o", built, "../../cmd/dgtbridge").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built != "" {
		os.RemoveAll(filepath.Dir(built))
	}
	os.Exit(code)
}
