package clock_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDeps keeps rules/clock pure (conventions.md G1): the standard library
// and these rules packages only.
func TestDeps(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to list dependencies: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", "github.com/dgtbridge/dgtbridge/rules/clock").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := []string{"github.com/dgtbridge/dgtbridge/rules", "github.com/dgtbridge/dgtbridge/rules/clock"}
	for _, dep := range strings.Fields(string(out)) {
		if !strings.Contains(strings.SplitN(dep, "/", 2)[0], ".") {
			continue // standard library
		}
		if !slices.Contains(allowed, dep) {
			t.Errorf("rules/clock depends on %s", dep)
		}
	}
}
