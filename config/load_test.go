package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// writeFile writes a config file into a temporary folder and returns its path.
func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// load loads body as a YAML file with no search paths.
func load(t *testing.T, body string, overrides map[string]any) (Config, error) {
	t.Helper()
	return Load(LoadOptions{File: writeFile(t, "c.yaml", body), Overrides: overrides})
}

func TestExampleGolden(t *testing.T) {
	c, err := Load(LoadOptions{File: "testdata/example.yaml"})
	if err != nil {
		t.Fatalf("the example of interfaces.md §2 must load: %v", err)
	}
	got, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := "testdata/example.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("config of the example differs from %s:\n%s", golden, got)
	}
	if c.File != "testdata/example.yaml" {
		t.Errorf("File = %q", c.File)
	}
	b := c.Effective(c.Boards[0])
	if b.Ruleset != "fide2018-standard" || b.TimeControl != "5400+30" || b.Variant != "chess" {
		t.Errorf("effective board: ruleset %q time control %q variant %q", b.Ruleset, b.TimeControl, b.Variant)
	}
	if id := c.GameID(b); id != "open2026.1.1" {
		t.Errorf("GameID = %q", id)
	}
}

// TestExampleMatchesSpec keeps testdata/example.yaml equal to the example
// configuration of the contract's specification, read where the project
// keeps it beside the repository (the test says so when it is absent).
func TestExampleMatchesSpec(t *testing.T) {
	// The contract as the project keeps it, beside the repository.
	path := filepath.Join("..", "..", "shared", "specs", "interfaces.md")
	spec, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		testenv.Unavailable(t, path+" is absent (a clone of the repository alone): cannot compare the example with the contract")
	}
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(spec), "```yaml\n")
	if !ok {
		t.Fatal("interfaces.md has no yaml block")
	}
	block, _, _ := strings.Cut(rest, "```")
	ours, err := os.ReadFile("testdata/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if block != string(ours) {
		t.Error("testdata/example.yaml differs from the yaml example of interfaces.md §2; copy it again and run go test -update")
	}
}

func TestNoFileDefaults(t *testing.T) {
	c, err := Load(LoadOptions{SearchPaths: []string{filepath.Join(t.TempDir(), "missing.yaml")}})
	if err != nil {
		t.Fatalf("no file must work: %v", err)
	}
	want := Defaults()
	if c.DataDir != want.DataDir || c.NATS.Prefix != "dgt" || c.Event.PublicDelay != 15*time.Minute ||
		c.Event.Ruleset != "fide2018-standard" || c.Penalties != PenaltiesAlert || !c.Record || len(c.Boards) != 0 {
		t.Errorf("defaults not applied: %+v", c)
	}
	if c.File != "" {
		t.Errorf("File = %q, want none", c.File)
	}
	if err := want.Validate(); err != nil {
		t.Errorf("Defaults() does not validate: %v", err)
	}
}

func TestSearchPaths(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first.yaml")
	second := writeFile(t, "second.yaml", "data_dir: /second\n")
	c, err := Load(LoadOptions{SearchPaths: []string{first, second}})
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/second" || c.File != second {
		t.Errorf("got data_dir %q from %q, want /second from %q", c.DataDir, c.File, second)
	}
	if err := os.WriteFile(first, []byte("data_dir: /first\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err = Load(LoadOptions{SearchPaths: []string{first, second}})
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/first" {
		t.Errorf("data_dir %q, want the first file's", c.DataDir)
	}
}

func TestFileErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts func(t *testing.T) LoadOptions
	}{
		{"missing explicit file", func(t *testing.T) LoadOptions {
			return LoadOptions{File: filepath.Join(t.TempDir(), "nope.yaml")}
		}},
		{"explicit directory", func(t *testing.T) LoadOptions { return LoadOptions{File: t.TempDir()} }},
		{"bad yaml", func(t *testing.T) LoadOptions {
			return LoadOptions{File: writeFile(t, "bad.yaml", "nats: [unclosed\n")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(tc.opts(t))
			if !errors.Is(err, ErrFile) {
				t.Fatalf("err = %v, want ErrFile", err)
			}
		})
	}
}

func TestJSONFile(t *testing.T) {
	c, err := Load(LoadOptions{File: writeFile(t, "c.json", `{"event":{"id":"j1","public_delay":"90s"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if c.Event.ID != "j1" || c.Event.PublicDelay != 90*time.Second {
		t.Errorf("got %+v", c.Event)
	}
}

func TestPrecedence(t *testing.T) {
	file := "data_dir: /from/file\nnats:\n  url: nats://file:4222\nevent:\n  id: fileevent\n  public_delay: 10m\n"
	for _, tc := range []struct {
		name      string
		env       map[string]string
		overrides map[string]any
		check     func(c Config) string
	}{
		{"file over defaults", nil, nil, func(c Config) string {
			if c.DataDir != "/from/file" || c.NATS.Prefix != "dgt" {
				return "file or defaults lost"
			}
			return ""
		}},
		{"env data_dir", map[string]string{"DGTBRIDGE_DATA_DIR": "/from/env"}, nil, func(c Config) string {
			if c.DataDir != "/from/env" {
				return "DGTBRIDGE_DATA_DIR ignored: " + c.DataDir
			}
			return ""
		}},
		{"env nested", map[string]string{"DGTBRIDGE_NATS_URL": "nats://env:4222", "DGTBRIDGE_EVENT_PUBLIC_DELAY": "2m", "DGTBRIDGE_NATS_EMBEDDED_LISTEN": "127.0.0.1:5222"}, nil, func(c Config) string {
			if c.NATS.URL != "nats://env:4222" || c.Event.PublicDelay != 2*time.Minute || c.NATS.Embedded.Listen != "127.0.0.1:5222" {
				return "nested env ignored"
			}
			return ""
		}},
		{"env bool and empty", map[string]string{"DGTBRIDGE_RECORD": "false", "DGTBRIDGE_HTTP_LISTEN": ""}, nil, func(c Config) string {
			if c.Record || c.HTTP.Listen != "" {
				return "record/http.listen from env ignored"
			}
			return ""
		}},
		{"flags over env", map[string]string{"DGTBRIDGE_DATA_DIR": "/from/env"}, map[string]any{"data_dir": "/from/flag", "event.public_delay": "0"}, func(c Config) string {
			if c.DataDir != "/from/flag" || c.Event.PublicDelay != 0 {
				return "override lost: " + c.DataDir
			}
			return ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			c, err := load(t, file, tc.overrides)
			if err != nil {
				t.Fatal(err)
			}
			if msg := tc.check(c); msg != "" {
				t.Error(msg)
			}
		})
	}
}
