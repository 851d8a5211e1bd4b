package xiangqi

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the rules engine free of anything but the standard
// library and package rules (conventions G1).
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch dep {
		case "github.com/dgtbridge/dgtbridge/rules", "github.com/dgtbridge/dgtbridge/rules/xiangqi":
		default:
			t.Errorf("rules/xiangqi depends on %s", dep)
		}
	}
}
