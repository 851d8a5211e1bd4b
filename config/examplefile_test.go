package config

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestExampleFileHasEveryKey: config/example/dgtbridge.yaml mentions every
// key of the configuration (set, or shown in a comment), so that a key
// added to Config without a word in the example fails here; and the
// example loads.
func TestExampleFileHasEveryKey(t *testing.T) {
	data, err := os.ReadFile("example/dgtbridge.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var walk func(t0 reflect.Type, path string)
	walk = func(t0 reflect.Type, path string) {
		for t0.Kind() == reflect.Pointer || t0.Kind() == reflect.Slice {
			t0 = t0.Elem()
		}
		if t0.Kind() != reflect.Struct || t0.PkgPath() != pkgPath {
			return
		}
		for _, name := range tags(t0) {
			f, _ := fieldByTag(t0, name)
			key := join(path, name)
			if !regexp.MustCompile(`(^|[\s{,#-])` + regexp.QuoteMeta(name) + `:`).MatchString(text) {
				t.Errorf("the example does not mention %s", key)
			}
			walk(f.Type, key)
		}
	}
	walk(reflect.TypeFor[Config](), "")
	if _, err := Load(LoadOptions{File: "example/dgtbridge.yaml"}); err != nil {
		t.Errorf("the example does not load: %v", err)
	}
	if strings.Contains(text, "\t") {
		t.Error("the example has tabs (YAML forbids them for indentation)")
	}
}
