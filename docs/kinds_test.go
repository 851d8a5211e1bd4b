package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// alertKinds returns the alert kinds the code defines: the string
// constants named Kind… of the packages that raise alerts (the rules'
// vocabulary, the team-drop match, the hall, the publisher).
func alertKinds(t *testing.T) []string {
	t.Helper()
	var kinds []string
	fset := token.NewFileSet()
	for _, dir := range []string{"../rules/game", "../rules/teamdrop", "../hall", "../broadcast"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if !strings.HasPrefix(name.Name, "Kind") || i >= len(vs.Values) {
							continue
						}
						lit, ok := vs.Values[i].(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							continue
						}
						v, _ := strconv.Unquote(lit.Value)
						kinds = append(kinds, v)
					}
				}
			}
		}
	}
	if len(kinds) < 40 {
		t.Fatalf("only %d alert kinds found in the code: %v", len(kinds), kinds)
	}
	return kinds
}

// TestEveryAlertKindDocumented: every alert kind the daemon can raise is
// named in the contract (so programs know it) and has its row in
// troubleshooting.md (so the arbiter knows what to do).
func TestEveryAlertKindDocumented(t *testing.T) {
	for _, page := range []string{"contract.md", "troubleshooting.md"} {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range alertKinds(t) {
			if !strings.Contains(string(data), "`"+k+"`") {
				t.Errorf("%s does not name the alert kind `%s`", page, k)
			}
		}
	}
}
