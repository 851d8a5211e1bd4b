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
// constants named Kind… of the rules' vocabulary (rules/game), where every
// kind is declared.
func alertKinds(t *testing.T) []string {
	t.Helper()
	kinds := kindConsts(t, "../rules/game")
	if len(kinds) < 40 {
		t.Fatalf("only %d alert kinds found in the code: %v", len(kinds), kinds)
	}
	return kinds
}

// kindConsts returns the values of the string constants named Kind… in
// the non-test Go files of the folders.
func kindConsts(t *testing.T, dirs ...string) []string {
	t.Helper()
	var kinds []string
	fset := token.NewFileSet()
	for _, dir := range dirs {
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
	return kinds
}

// TestAlertKindsInOnePlace: no package but the vocabulary declares an
// alert kind (a constant named Kind… holding a string): one definition
// of each, so the same kind is never declared twice.
func TestAlertKindsInOnePlace(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != ".." || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() && p != filepath.Join("..", "rules", "game") {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if k := kindConsts(t, dirs...); len(k) > 0 {
		t.Errorf("alert kinds declared outside rules/game: %v", k)
	}
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
