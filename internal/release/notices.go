package release

import (
	"bytes"
	"context"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// ModuleLicence is a Go module compiled into the binary and the texts of
// its licence files.
type ModuleLicence struct {
	Path, Version string
	Files         []LicenceFile
}

// LicenceFile is one licence or notice file of a module.
type LicenceFile struct {
	Name string
	Text []byte
}

// isLicenceFile says whether a file at a module's top is a licence or a
// notice that must travel with the binary.
func isLicenceFile(name string) bool {
	n := strings.ToUpper(name)
	for _, p := range []string{"LICENSE", "LICENCE", "COPYING", "NOTICE", "PATENTS"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// BinaryModules returns the modules the binary at path was built from
// (its build information), the main module left out, sorted by path.
func BinaryModules(path string) (goVersion string, mods []ModuleLicence, err error) {
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	for _, d := range info.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		mods = append(mods, ModuleLicence{Path: d.Path, Version: d.Version})
	}
	slices.SortFunc(mods, func(a, b ModuleLicence) int { return strings.Compare(a.Path, b.Path) })
	return info.GoVersion, mods, nil
}

// ReadLicences fills in the licence files of mods from the module cache
// (go mod download, from the checkout at root). A module without one is
// an error: its notice could not be shipped.
func ReadLicences(ctx context.Context, root string, mods []ModuleLicence) error {
	args := []string{"mod", "download", "-json"}
	for _, m := range mods {
		args = append(args, m.Path+"@"+m.Version)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go mod download: %v", err)
	}
	dirs, err := downloadDirs(out)
	if err != nil {
		return err
	}
	for i := range mods {
		m := &mods[i]
		dir := dirs[m.Path+"@"+m.Version]
		if dir == "" {
			return fmt.Errorf("go mod download did not give the folder of %s@%s", m.Path, m.Version)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.Type().IsRegular() && isLicenceFile(e.Name()) {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					return err
				}
				m.Files = append(m.Files, LicenceFile{Name: e.Name(), Text: b})
			}
		}
		if len(m.Files) == 0 {
			return fmt.Errorf("module %s@%s has no licence file at its top (%s)", m.Path, m.Version, dir)
		}
	}
	return nil
}

// downloadDirs reads the JSON objects "go mod download -json" prints, one
// after the other, into module@version → folder.
func downloadDirs(out []byte) (map[string]string, error) {
	dirs := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var m struct{ Path, Version, Dir, Error string }
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("go mod download -json: %w", err)
		}
		if m.Error != "" {
			return nil, fmt.Errorf("go mod download %s@%s: %s", m.Path, m.Version, m.Error)
		}
		dirs[m.Path+"@"+m.Version] = m.Dir
	}
	return dirs, nil
}

// Notices is the text of /usr/share/doc/dgtbridge/third-party-notices: the
// licence of the Go standard library, of every Go module in the binary,
// and the web bundle's notice (its npm packages' licences).
func Notices(version, goVersion string, goLicence []byte, mods []ModuleLicence, web []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "dgtbridge %s: third-party notices\n\n", version)
	b.WriteString("dgtbridge is free software under the GNU General Public License, version 3 or\n" +
		"later (/usr/share/common-licenses/GPL-3). Its binary contains the Go standard\n" +
		"library and the Go modules below, and its web pages contain the npm packages\n" +
		"listed at the end, each under the licence shown with it.\n")
	section := func(title string, text []byte) {
		fmt.Fprintf(&b, "\n==== %s\n\n", title)
		b.Write(bytes.TrimSpace(text))
		b.WriteString("\n")
	}
	section("Go standard library "+goVersion+": LICENSE", goLicence)
	for _, m := range mods {
		for _, f := range m.Files {
			section(m.Path+" "+m.Version+": "+f.Name, f.Text)
		}
	}
	section("web pages (web/dist/assets/licenses.txt)", web)
	return b.Bytes()
}
