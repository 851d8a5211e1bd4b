package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

var heading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)

// slug is the anchor a Markdown heading gets on GitHub: lower case,
// punctuation dropped (letters, digits, spaces, hyphens and underscores
// kept), spaces turned into hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of the headings of a Markdown file (a
// repeated heading gets -1, -2 … as on GitHub), outside fenced code.
func anchors(t *testing.T, file string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	fenced := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			text.WriteString(line + "\n")
		}
	}
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(text.String(), -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// TestLinkFragments: a link to a section (page.md#section, or #section on
// the same page) names a heading that the page has, so that a renamed
// heading cannot leave the readers of another page at the top of it.
func TestLinkFragments(t *testing.T) {
	cache := map[string]map[string]bool{}
	for _, page := range pages(t) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
				continue
			}
			file, frag, ok := strings.Cut(target, "#")
			if !ok {
				continue
			}
			file = filepath.Join(filepath.Dir(page), file)
			if target[0] == '#' {
				file = page
			}
			if !strings.HasSuffix(file, ".md") {
				continue
			}
			if cache[file] == nil {
				cache[file] = anchors(t, file)
			}
			if !cache[file][frag] {
				t.Errorf("%s links to %s: %s has no heading with the anchor #%s", page, m[1], file, frag)
			}
		}
	}
}

// TestSlug: the anchors GitHub gives headings of these pages.
func TestSlug(t *testing.T) {
	for h, want := range map[string]string{
		"3.3 Payloads":                            "33-payloads",
		"`/healthz` and `dgtbridge status`":       "healthz-and-dgtbridge-status",
		"Changing round without a restart":        "changing-round-without-a-restart",
		"udev rules: stable names for the boards": "udev-rules-stable-names-for-the-boards",
	} {
		if got := slug(h); got != want {
			t.Errorf("slug(%q) = %q, want %q", h, got, want)
		}
	}
}

// TestEveryPageListed: the index and the README's table link every page
// of docs/, so that a new page is found by its readers.
func TestEveryPageListed(t *testing.T) {
	index, err := os.ReadFile("index.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	md, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range md {
		if page == "index.md" {
			continue
		}
		if !strings.Contains(string(index), "]("+page) {
			t.Errorf("index.md does not link %s", page)
		}
		if !strings.Contains(string(readme), "](docs/"+page) {
			t.Errorf("README.md does not link docs/%s", page)
		}
	}
}
