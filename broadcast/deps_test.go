package broadcast

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the direction of imports (conventions G1):
// broadcast may see board and rules types (and so, through board, dgt's
// types) but never configuration, viper or the serial port.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"github.com/spf13/viper", "go.bug.st/serial", "github.com/dgtbridge/dgtbridge/config"} {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("broadcast depends on %s", dep)
			}
		}
	}
}
