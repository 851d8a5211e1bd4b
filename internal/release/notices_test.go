package release

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNotices: the standard library's licence, each module's files and
// the web bundle's notice, in that order, each under its title.
func TestNotices(t *testing.T) {
	mods := []ModuleLicence{
		{Path: "example.org/a", Version: "v1.0.0", Files: []LicenceFile{{Name: "LICENSE", Text: []byte("A licence\n")}, {Name: "NOTICE", Text: []byte("A notice")}}},
		{Path: "example.org/b", Version: "v0.2.0", Files: []LicenceFile{{Name: "COPYING", Text: []byte("B licence")}}},
	}
	got := string(Notices("1.2.0", "go1.26.8", []byte("Go licence"), mods, []byte("npm licences")))
	var order []int
	for _, want := range []string{
		"dgtbridge 1.2.0: third-party notices\n",
		"\n==== Go standard library go1.26.8: LICENSE\n\nGo licence\n",
		"\n==== example.org/a v1.0.0: LICENSE\n\nA licence\n",
		"\n==== example.org/a v1.0.0: NOTICE\n\nA notice\n",
		"\n==== example.org/b v0.2.0: COPYING\n\nB licence\n",
		"\n==== web pages (web/dist/assets/licenses.txt)\n\nnpm licences\n",
	} {
		i := strings.Index(got, want)
		if i < 0 {
			t.Fatalf("notices lack %q:\n%s", want, got)
		}
		order = append(order, i)
	}
	for i := 1; i < len(order); i++ {
		if order[i] < order[i-1] {
			t.Errorf("notices out of order:\n%s", got)
		}
	}
}

// TestReadLicences reads the licences of the modules in a small binary
// (testdata/withdeps: the serial library and x/sys), from its build
// information: every one has one. A module without a licence file is an
// error.
func TestReadLicences(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "withdeps")
	build := exec.Command("go", "build", "-o", bin, "./testdata/withdeps")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	_, mods, err := BinaryModules(bin)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range mods {
		paths = append(paths, m.Path)
	}
	if !slices.Contains(paths, "go.bug.st/serial") {
		t.Fatalf("the test binary's modules %v lack viper", paths)
	}
	if err := ReadLicences(context.Background(), root, mods); err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		if len(m.Files) == 0 || len(m.Files[0].Text) == 0 {
			t.Errorf("%s: no licence text", m.Path)
		}
	}

	// go mod download's answer for a module it could not fetch.
	dirs, err := downloadDirs([]byte(`{"Path":"example.org/x","Version":"v1.0.0","Dir":"/nonexistent"}{"Path":"example.org/y","Version":"v1.0.0","Error":"not found"}`))
	if err == nil || !strings.Contains(err.Error(), "example.org/y@v1.0.0: not found") {
		t.Errorf("downloadDirs with an error = %v, %v", dirs, err)
	}
	if !isLicenceFile("LICENSE.md") || !isLicenceFile("COPYING") || !isLicenceFile("license") || isLicenceFile("README.md") {
		t.Error("isLicenceFile")
	}
}
