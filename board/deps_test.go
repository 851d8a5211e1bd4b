package board

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps: board knows positions and sensor events, not NATS, serial
// ports or configuration (conventions.md G1).
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/dgtbridge/dgtbridge/board").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"github.com/nats-io/", "go.bug.st/serial", "github.com/spf13/viper"} {
			if strings.HasPrefix(dep, bad) {
				t.Errorf("board depends on %s", dep)
			}
		}
	}
}
