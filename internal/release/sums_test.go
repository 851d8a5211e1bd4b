package release

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// TestWriteSums: one line per file, sorted, that sha256sum -c accepts, and
// that fails it when a file changes.
func TestWriteSums(t *testing.T) {
	dir := t.TempDir()
	data := map[string]string{"b.deb": "package", "a-linux-amd64": "binary"}
	for n, d := range data {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteSums(dir, []string{"b.deb", "a-linux-amd64"}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, SumsFile))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%x  a-linux-amd64\n%x  b.deb\n", sha256.Sum256([]byte("binary")), sha256.Sum256([]byte("package")))
	if string(got) != want {
		t.Errorf("SHA256SUMS:\n%s\nwant:\n%s", got, want)
	}
	tool := testenv.LookPath(t, "sha256sum", "apt-get install -y coreutils")
	check := exec.Command(tool, "-c", "--quiet", SumsFile)
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("sha256sum -c: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.deb"), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	check = exec.Command(tool, "-c", "--quiet", SumsFile)
	check.Dir = dir
	if err := check.Run(); err == nil {
		t.Error("sha256sum -c accepted a changed file")
	}
	if err := WriteSums(dir, []string{"../x"}); err == nil {
		t.Error("WriteSums accepted a path")
	}
}
