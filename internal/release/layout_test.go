package release

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/config"
)

// root is the checkout's top, seen from this package's folder.
const root = "../.."

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !r.ModTime.IsZero() || r.Name != "" {
		t.Errorf("gzip header has time %v and name %q: the same input would not give the same bytes", r.ModTime, r.Name)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDebFiles: the package's files, their modes, which are conffiles,
// and that the compressed ones hold what was given.
func TestDebFiles(t *testing.T) {
	in := Inputs{Version: "1.2.0", Commit: "abc", Time: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Binary: []byte("ELF"), ManPage: []byte(".TH X\n"), Notices: []byte("notices\n"), Maintain: "M <m@example.org>"}
	files, err := DebFiles(root, in)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]File{}
	for _, f := range files {
		if _, dup := byPath[f.Path]; dup {
			t.Errorf("%s twice", f.Path)
		}
		byPath[f.Path] = f
		if f.Conffile != strings.HasPrefix(f.Path, "/etc/") {
			t.Errorf("%s: conffile %v", f.Path, f.Conffile)
		}
	}
	want := map[string]fs.FileMode{
		BinPath: 0o755, UnitPath: 0o644, RulesPath: 0o644, ConfigPath: 0o640, PairingsPath: 0o644, ManPath: 0o644,
		DocDir + "/copyright": 0o644, DocDir + "/changelog.Debian.gz": 0o644,
		DocDir + "/third-party-notices.txt.gz": 0o644, DocDir + "/operations.md": 0o644,
		"/usr/share/lintian/overrides/dgtbridge": 0o644,
	}
	for p, mode := range want {
		f, ok := byPath[p]
		if !ok {
			t.Errorf("no %s", p)
			continue
		}
		if f.Mode != mode {
			t.Errorf("%s: mode %o, want %o", p, f.Mode, mode)
		}
	}
	if len(files) != len(want) {
		t.Errorf("%d files, want %d", len(files), len(want))
	}
	if got := gunzip(t, byPath[ManPath].Data); string(got) != ".TH X\n" {
		t.Errorf("man page %q", got)
	}
	if got := gunzip(t, byPath[DocDir+"/third-party-notices.txt.gz"].Data); string(got) != "notices\n" {
		t.Errorf("notices %q", got)
	}
	cl := string(gunzip(t, byPath[DocDir+"/changelog.Debian.gz"].Data))
	if !strings.HasPrefix(cl, "dgtbridge (1.2.0-1) unstable; urgency=medium\n") || !strings.HasSuffix(cl, " -- M <m@example.org>  Sun, 01 Mar 2026 12:00:00 +0000\n") || !strings.Contains(cl, "commit abc") {
		t.Errorf("changelog:\n%s", cl)
	}
	if cp := string(byPath[DocDir+"/copyright"].Data); !strings.Contains(cp, "\nCopyright: 2026 the dgtbridge authors\nLicense: GPL-3+\n") {
		t.Errorf("copyright:\n%s", cp)
	}
	if cp := string(Copyright(time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC))); !strings.Contains(cp, "\nCopyright: 2026-2028 the dgtbridge authors\n") {
		t.Errorf("copyright in 2028:\n%s", cp)
	}
	if string(byPath[BinPath].Data) != "ELF" {
		t.Error("the binary is not the one given")
	}
	if !bytes.Equal(Gzip([]byte("x")), Gzip([]byte("x"))) {
		t.Error("Gzip gives different bytes for the same input")
	}
}

// TestPackagedUnit: the package's unit starts /usr/bin/dgtbridge with the
// installed configuration; a unit without the expected line is refused.
func TestPackagedUnit(t *testing.T) {
	unit, err := os.ReadFile(filepath.Join(root, "systemd/dgtbridge.service"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := PackagedUnit(unit)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(got, []byte("\nExecStart=/usr/bin/dgtbridge run --config /etc/dgtbridge/dgtbridge.yaml\n")) || bytes.Contains(got, []byte("/usr/local")) {
		t.Errorf("packaged unit:\n%s", got)
	}
	if _, err := PackagedUnit([]byte("[Service]\nExecStart=/opt/dgtbridge run\n")); err == nil {
		t.Error("a unit without /usr/local/bin/dgtbridge was accepted")
	}
}

// TestInstalledConfig: the installed configuration loads (with its
// pairing file beside it, as installed), keeps its data in the state
// folder, and says how to use it; an example without the data_dir line
// is refused.
func TestInstalledConfig(t *testing.T) {
	example, err := os.ReadFile(filepath.Join(root, "config/example/dgtbridge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	conf, err := InstalledConfig(example)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pairings, err := os.ReadFile(filepath.Join(root, "config/example/pairings.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"dgtbridge.yaml": conf, "pairings.csv": pairings} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := config.Load(config.LoadOptions{File: filepath.Join(dir, "dgtbridge.yaml")})
	if err != nil {
		t.Fatalf("the installed configuration does not load: %v", err)
	}
	if c.DataDir != StateDir {
		t.Errorf("data_dir = %q, want %q", c.DataDir, StateDir)
	}
	if !bytes.HasPrefix(conf, []byte("# /etc/dgtbridge/dgtbridge.yaml, installed by the dgtbridge package")) || !bytes.HasSuffix(conf, example[bytes.Index(example, []byte("\nrecord:")):]) {
		t.Error("the installed configuration is not the header, then the example")
	}
	if _, err := InstalledConfig([]byte("data_dir: /srv\n")); err == nil {
		t.Error("an example without data_dir: ./data was accepted")
	}
}

// TestScripts: the maintainer scripts are valid sh, and say what the
// package promises: the user in dialout, the state folder 0750, data and
// configuration removed on purge only.
func TestScripts(t *testing.T) {
	postinst, prerm, postrm := Scripts()
	for name, s := range map[string][]byte{"postinst": postinst, "prerm": prerm, "postrm": postrm} {
		if !bytes.HasPrefix(s, []byte("#!/bin/sh\n")) {
			t.Errorf("%s does not start with #!/bin/sh", name)
		}
		cmd := exec.Command("sh", "-n")
		cmd.Stdin = bytes.NewReader(s)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sh -n %s: %v\n%s", name, err, out)
		}
	}
	for _, want := range []string{"adduser --quiet --system --group --home /var/lib/dgtbridge", "for group in dialout audio", "-m 0750 /var/lib/dgtbridge"} {
		if !bytes.Contains(postinst, []byte(want)) {
			t.Errorf("postinst lacks %q", want)
		}
	}
	purge := postrm[bytes.Index(postrm, []byte("\npurge)")):]
	purge = purge[:bytes.Index(purge, []byte(";;"))]
	if !bytes.Contains(purge, []byte("rm -rf /var/lib/dgtbridge /etc/dgtbridge")) || bytes.Count(postrm, []byte("rm -rf")) != 1 {
		t.Errorf("postrm removes data elsewhere than on purge:\n%s", postrm)
	}
}
