// Package docs holds the documentation; its tests keep the pages true to
// the repository: every link leads to a file that exists, nothing points
// outside the repository (neither a page nor a Go comment), and the
// configuration reference names every key.
package docs

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/config"
)

// pages returns README.md and every page of docs/.
func pages(t *testing.T) []string {
	t.Helper()
	md, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../README.md"}, md...)
}

var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestLinksStayInTheRepo: every relative link of the README and the docs
// names a file or folder of the repository (a #fragment aside), and none
// leaves it (the README once pointed nine times outside it).
func TestLinksStayInTheRepo(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "#") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			abs, err := filepath.Abs(filepath.Join(filepath.Dir(page), target))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(abs, root+string(filepath.Separator)) {
				t.Errorf("%s links outside the repository: %s", page, m[1])
				continue
			}
			if _, err := os.Stat(abs); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, m[1])
			}
		}
		if strings.Contains(string(data), "../shared") {
			t.Errorf("%s mentions ../shared, which is not part of the repository", page)
		}
	}
}

// outside names what a comment or a page must not say: a file outside the
// repository (the repository holds what a reader needs, in docs/), or the
// history of the work instead of the product (a figure says which commit
// it was measured on, a decision says why).
var outside = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`\bspec[s]/|\.\./shared\b|/work/shared\b|\bshared/(specs|notes|data)/`), "cites a file outside the repository"},
	{regexp.MustCompile(`\b(interfaces|dgt-protocol|conventions|fide-laws|livechess-api|rules-references|chess960-and-team-variant|design)\.md\b`), "cites a specification outside the repository"},
	{regexp.MustCompile(`\bconventions (§|G[0-9])|\bdesign card\b|\binterfaces §|(?i)\bspec(ification)?('s)? (§|R[0-9])|§[0-9.]+ of the spec\b`), "cites a specification outside the repository"},
	{regexp.MustCompile(`(?i)\b(session|issue)s? #?[0-9]+(\.[0-9]+)?`), "speaks of the history of the work"},
	{regexp.MustCompile(`(?i)\bround [0-9]+ of the work\b|\bthe first round of the work\b`), "speaks of the history of the work"},
}

// skipDirs are not the repository's own words: version control, installed
// packages, and testdata (quoted user data: PGN, recordings, pairings).
var skipDirs = map[string]bool{".git": true, "node_modules": true, "testdata": true, ".cache": true}

// TestNothingCitesOutsideTheRepo: no Go comment and no Markdown file of the
// repository cites a file outside it or speaks of the history of the work
// (a session or an issue of the work, with its number). Go code (string
// literals, paths a test reads) is not a comment and is not checked.
func TestNothingCitesOutsideTheRepo(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		var lines []numbered
		switch filepath.Ext(path) {
		case ".go":
			lines, err = goComments(path)
		case ".md":
			lines, err = mdLines(path)
		default:
			return nil
		}
		if err != nil {
			return err
		}
		files++
		for _, l := range lines {
			for _, o := range outside {
				if m := o.re.FindString(l.text); m != "" {
					t.Errorf("%s:%d %s (%q): %s", rel, l.n, o.what, m, strings.TrimSpace(l.text))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go and Markdown files found under %s: the walk missed the repository", files, root)
	}
}

// numbered is a line of text and its line number in its file.
type numbered struct {
	n    int
	text string
}

// goComments returns the comment lines of a Go file.
func goComments(path string) ([]numbered, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	var out []numbered
	for _, g := range f.Comments {
		for _, c := range g.List {
			n := fset.Position(c.Slash).Line
			for i, l := range strings.Split(c.Text, "\n") {
				out = append(out, numbered{n + i, l})
			}
		}
	}
	return out, nil
}

// mdLines returns the lines of a Markdown file.
func mdLines(path string) ([]numbered, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []numbered
	for i, l := range strings.Split(string(data), "\n") {
		out = append(out, numbered{i + 1, l})
	}
	return out, nil
}

// TestReferenceNamesEveryKey: configuration.md names every key of the
// configuration (the last part of its path, in backquotes), so that a key
// added to config without a word in the reference fails here.
func TestReferenceNamesEveryKey(t *testing.T) {
	data, err := os.ReadFile("configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var walk func(ty reflect.Type, path string)
	walk = func(ty reflect.Type, path string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct {
			return
		}
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			key := tag
			if path != "" {
				key = path + "." + tag
			}
			inner := f.Type
			for inner.Kind() == reflect.Pointer || inner.Kind() == reflect.Slice {
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct && inner.PkgPath() == ty.PkgPath() {
				walk(f.Type, key) // a section: its keys are what is named
				continue
			}
			if !strings.Contains(text, "`"+key+"`") && !strings.Contains(text, "`"+tag+"`") && !strings.Contains(text, "."+tag+"`") {
				t.Errorf("configuration.md does not name %s", key)
			}
		}
	}
	walk(reflect.TypeFor[config.Config](), "")
}
