package announce_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps rules/announce free of hardware, NATS and configuration
// (conventions.md G1): it may import the standard library and rules only.
func TestDeps(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to list dependencies: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/dgtbridge/dgtbridge/rules/announce").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if !strings.Contains(strings.SplitN(dep, "/", 2)[0], ".") {
			continue // standard library
		}
		if dep != "github.com/dgtbridge/dgtbridge/rules" && dep != "github.com/dgtbridge/dgtbridge/rules/announce" {
			t.Errorf("rules/announce depends on %s", dep)
		}
	}
}
