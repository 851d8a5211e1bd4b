package arbiter_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps the adjudicator free of hardware I/O, NATS and
// configuration (conventions.md G1). It reads the tracker's event types
// (package board, which brings the dgt codec types), nothing else outside
// rules.
func TestDeps(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to list dependencies: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/dgtbridge/dgtbridge/rules/arbiter").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	banned := []string{"github.com/nats-io/", "go.bug.st/serial", "github.com/spf13/", "golang.org/x/sys",
		"github.com/dgtbridge/dgtbridge/config", "github.com/dgtbridge/dgtbridge/broadcast", "github.com/dgtbridge/dgtbridge/cmd",
		"github.com/dgtbridge/dgtbridge/dgt/pty", "github.com/dgtbridge/dgtbridge/dgt/link"}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range banned {
			if strings.HasPrefix(dep, b) {
				t.Errorf("rules/arbiter depends on %s", dep)
			}
		}
	}
}
