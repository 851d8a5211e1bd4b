package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// langs are the pages' languages; en is the reference table.
var langs = []string{"en", "de", "vi"}

func table(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("src", "i18n", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("src/i18n/%s.json: %v", lang, err)
	}
	return m
}

var placeholder = regexp.MustCompile(`\{\w+\}`)

// TestTranslationTables: every language has every key of every other, no
// empty string where English has one, and the same {placeholders}.
func TestTranslationTables(t *testing.T) {
	tables := map[string]map[string]string{}
	all := map[string]bool{}
	for _, l := range langs {
		tables[l] = table(t, l)
		for k := range tables[l] {
			all[k] = true
		}
	}
	for _, l := range langs {
		for k := range all {
			v, ok := tables[l][k]
			if !ok {
				t.Errorf("src/i18n/%s.json lacks the key %q", l, k)
				continue
			}
			en := tables["en"][k]
			if v == "" && en != "" && !strings.HasPrefix(k, "say.") {
				t.Errorf("src/i18n/%s.json: %q is empty", l, k)
			}
			want := placeholder.FindAllString(en, -1)
			got := placeholder.FindAllString(v, -1)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Errorf("src/i18n/%s.json: %q has placeholders %v, English %v", l, k, got, want)
			}
		}
	}
}

// letters is text a reader would have to translate (a word of two
// letters or more).
var letters = regexp.MustCompile(`\p{L}{2,}`)

// TestPagesTextFromTables: the HTML pages hold no text of their own (every
// word comes from the tables through data-i18n), and every data-i18n key
// is in the tables.
func TestPagesTextFromTables(t *testing.T) {
	en := table(t, "en")
	pages, _ := filepath.Glob("*.html")
	if len(pages) < 3 {
		t.Fatalf("pages: %v", pages)
	}
	for _, p := range pages {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				for _, a := range n.Attr {
					if strings.HasPrefix(a.Key, "data-i18n") {
						if _, ok := en[a.Val]; !ok {
							t.Errorf("%s: <%s %s=%q>: no such key in the tables", p, n.Data, a.Key, a.Val)
						}
					}
					if (a.Key == "title" || a.Key == "aria-label" || a.Key == "placeholder") && letters.MatchString(a.Val) {
						t.Errorf("%s: <%s %s=%q>: text outside the tables", p, n.Data, a.Key, a.Val)
					}
				}
			}
			if n.Type == html.TextNode && letters.MatchString(n.Data) && n.Parent != nil && n.Parent.Data != "script" && n.Parent.Data != "style" {
				// The product's name is not translated.
				if strings.Trim(n.Data, " ·\n") != "dgtbridge" {
					t.Errorf("%s: text %q outside the tables", p, strings.TrimSpace(n.Data))
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
	}
}

// literals returns the string literals of a TypeScript source with their
// line numbers (comments skipped; a template literal's ${…} parts left
// out of its text).
func literals(src string) (out []struct {
	line int
	text string
}) {
	line := 1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			line++
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return out
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 3
		case c == '\'' || c == '"' || c == '`':
			start := line
			var b strings.Builder
			depth := 0
			for i++; i < len(src); i++ {
				d := src[i]
				if d == '\n' {
					line++
				}
				if d == '\\' {
					i++
					continue
				}
				if c == '`' && d == '$' && i+1 < len(src) && src[i+1] == '{' {
					depth++
					i++
					b.WriteByte(' ')
					continue
				}
				if depth > 0 {
					if d == '}' {
						depth--
					}
					continue
				}
				if d == c {
					break
				}
				b.WriteByte(d)
			}
			out = append(out, struct {
				line int
				text string
			}{start, b.String()})
		}
	}
	return out
}

// words is text that would need translating: two words of letters.
var words = regexp.MustCompile(`\p{L}{2,}[ ]+\p{L}{2,}`)

// notShown are literals of the scripts with words that no reader sees: CSS
// class lists and selectors, NATS client names.
var notShown = regexp.MustCompile(`^(card card-|dgtbridge |input,textarea|cg-board )|^[.#\[]|\]`)

// TestScriptsTextFromTables: the pages' scripts hold no sentence of their
// own: every literal with words in it is a CSS class list or selector.
func TestScriptsTextFromTables(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("src", "*.ts"))
	if len(files) == 0 {
		t.Fatal("no scripts in src/")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range literals(string(b)) {
			if words.MatchString(l.text) && !notShown.MatchString(l.text) {
				t.Errorf("%s:%d: text %q outside the tables", f, l.line, l.text)
			}
		}
	}
}
