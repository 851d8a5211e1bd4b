// Package docs holds the documentation; its tests keep the pages true to
// the repository: every link leads to a file that exists, nothing points
// outside the repository, and the configuration reference names every key.
package docs

import (
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
// leaves it (the README once pointed nine times to ../shared).
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
