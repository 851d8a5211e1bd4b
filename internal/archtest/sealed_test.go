package archtest

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// A sealed interface is a named interface of this module with an
// unexported method: only types of this module can implement it, so its
// set of types is closed. TestSealedSwitches checks, over the code of
// every package of the module, that
//
//   - every type switch outside tests on a sealed set listed in
//     [exhaustive] lists every member (a default clause does not excuse a
//     missing one: a member added to the set must be handled, or
//     deliberately ignored, at every switch), and no switch on any sealed
//     interface lists a pointer to a member whose value implements it;
//   - no pointer to such a type is handed where the sealed interface is
//     expected (the members are values: a *T in an []Event would match no
//     case), nor asserted from it, nor a type of another package that
//     satisfies the interface by embedding a member.
//
// The members of a sealed interface are the types of its own package that
// implement it.
//
// Test files are checked in the full suite only (-short: the packages'
// own files).

// pkgInfo is one package of the module as go list reports it.
type pkgInfo struct {
	path, dir            string
	files, tests, xtests []string
}

// checked is one package of the module, type-checked from source (its
// imports come from the compiler's export data). test: the package with
// its test files, or its external test package.
type checked struct {
	path  string
	test  bool
	fset  *token.FileSet
	files []*ast.File
	pkg   *types.Package
	info  *types.Info
}

// loadModule type-checks the packages matching patterns from source,
// with their test files (the package with its internal tests, and its
// external test package, checked apart from the package itself).
func loadModule(t *testing.T, tests bool, patterns ...string) []*checked {
	t.Helper()
	args := []string{"list", "-export", "-deps"}
	if tests {
		args = append(args, "-test")
	}
	if raceBuild {
		args = append(args, "-race") // the builds go test -race makes anyway
	}
	args = append(append(args, "-f",
		"{{.ImportPath}}\t{{.Export}}\t{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .TestGoFiles \" \"}}\t{{join .XTestGoFiles \" \"}}\t{{if .Module}}{{.Module.Path}}{{end}}"), patterns...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		t.Fatalf("go list: %s", msg)
	}
	export := map[string]string{}     // import path → export data
	testExport := map[string]string{} // "import path [pkg.test]" → export data
	var mine []pkgInfo
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			t.Fatalf("go list: bad line %q", line)
		}
		if strings.Contains(f[0], " ") {
			testExport[f[0]] = f[1]
			continue
		}
		export[f[0]] = f[1]
		if f[6] == strings.TrimSuffix(module, "/") && !strings.HasSuffix(f[0], ".test") && f[3]+f[4]+f[5] != "" {
			mine = append(mine, pkgInfo{path: f[0], dir: f[2], files: strings.Fields(f[3]), tests: strings.Fields(f[4]), xtests: strings.Fields(f[5])})
		}
	}
	fset := token.NewFileSet()
	// importer resolves imports for the test build of forTest ("" for the
	// plain build): a package recompiled for that test binary first.
	importer := func(forTest string) types.Importer {
		return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
			p := export[path]
			if forTest != "" {
				if tp, ok := testExport[path+" ["+forTest+".test]"]; ok {
					p = tp
				}
			}
			if p == "" {
				return nil, fmt.Errorf("no export data for %s", path)
			}
			return os.Open(p)
		})
	}
	check := func(path, dir string, names []string, test bool, imp types.Importer) *checked {
		c := &checked{path: path, test: test, fset: fset}
		for _, name := range names {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			c.files = append(c.files, f)
		}
		c.info = &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}
		var err error
		if c.pkg, err = (&types.Config{Importer: imp}).Check(path, fset, c.files, c.info); err != nil {
			t.Fatalf("type-checking %s (tests %v): %v", path, test, err)
		}
		return c
	}
	var res []*checked
	for _, p := range mine {
		if len(p.files) > 0 {
			res = append(res, check(p.path, p.dir, p.files, false, importer("")))
		}
		if len(p.tests) > 0 && tests {
			res = append(res, check(p.path, p.dir, append(append([]string(nil), p.files...), p.tests...), true, importer(p.path)))
		}
		if len(p.xtests) > 0 && tests {
			res = append(res, check(p.path+"_test", p.dir, p.xtests, true, importer(p.path)))
		}
	}
	return res
}

// qname is a named type's qualified name, the key by which types of
// separately checked packages are compared.
func qname(tn *types.TypeName) string { return tn.Pkg().Path() + "." + tn.Name() }

// sealedOf returns the qualified name of the sealed interface t is (nil
// otherwise).
func sealedOf(t types.Type) (string, *types.Interface, bool) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !strings.HasPrefix(n.Obj().Pkg().Path(), module) {
		return "", nil, false
	}
	it, ok := n.Underlying().(*types.Interface)
	if !ok {
		return "", nil, false
	}
	for i := 0; i < it.NumMethods(); i++ {
		if !it.Method(i).Exported() {
			return qname(n.Obj()), it, true
		}
	}
	return "", nil, false
}

// members maps each sealed interface to the module's types implementing
// it: name → true when the value type implements it (false: only the
// pointer does).
type members map[string]map[string]bool

func collectMembers(pkgs []*checked) members {
	m := members{}
	for _, c := range pkgs {
		if c.test {
			continue
		}
		// The sealed interfaces this package can see: its own and its
		// imports' (transitively, as the export data lists them).
		seen := map[*types.Package]bool{}
		var walk func(p *types.Package)
		ifaces := map[string]*types.Interface{}
		walk = func(p *types.Package) {
			if seen[p] {
				return
			}
			seen[p] = true
			for _, name := range p.Scope().Names() {
				if tn, ok := p.Scope().Lookup(name).(*types.TypeName); ok {
					if q, it, ok := sealedOf(tn.Type()); ok {
						ifaces[q] = it
					}
				}
			}
			for _, q := range p.Imports() {
				walk(q)
			}
		}
		walk(c.pkg)
		for _, name := range c.pkg.Scope().Names() {
			tn, ok := c.pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			if _, isIface := tn.Type().Underlying().(*types.Interface); isIface {
				continue
			}
			for q, it := range ifaces {
				if !strings.HasPrefix(q, c.pkg.Path()+".") || strings.Contains(strings.TrimPrefix(q, c.pkg.Path()+"."), ".") {
					// A type of another package implements a sealed
					// interface only by embedding a member: it is not
					// one (and may not be handed as the interface).
					continue
				}
				val := types.Implements(tn.Type(), it)
				if val || types.Implements(types.NewPointer(tn.Type()), it) {
					if m[q] == nil {
						m[q] = map[string]bool{}
					}
					m[q][qname(tn)] = val
				}
			}
		}
	}
	return m
}

// exhaustive lists the sealed sets whose type switches must list every
// member (outside tests): the vocabularies the wiring dispatches on. Add a
// set here when its consumers should hear of every new member.
var exhaustive = []string{
	"rules/game.Sensed",
	"rules/game.Event",
	"rules/game.Verdict",
	"rules/game.Payload",
	"rules/game.LogEntry",
	"rules/clock.Event",
	"rehearse.Check",
	"rehearse.Event",
}

// memberName returns the qualified name of t, or of the type t points to
// (ptr true).
func memberName(t types.Type) (name string, ptr bool, ok bool) {
	if p, isPtr := types.Unalias(t).(*types.Pointer); isPtr {
		t, ptr = p.Elem(), true
	}
	n, isNamed := types.Unalias(t).(*types.Named)
	if !isNamed || n.Obj().Pkg() == nil {
		return "", false, false
	}
	return qname(n.Obj()), ptr, true
}

func TestSealedSwitches(t *testing.T) {
	// The test files too in the full suite (a few seconds more).
	pkgs := loadModule(t, !testing.Short(), module+"...")
	m := collectMembers(pkgs)
	if len(m) == 0 {
		t.Fatal("no sealed interface found: the checker is broken")
	}
	var errs []string
	seen := map[string]bool{} // a package's own files are checked again with its tests
	for _, c := range pkgs {
		for _, e := range checkPackage(c, m) {
			if !seen[e] {
				seen[e] = true
				errs = append(errs, e)
			}
		}
	}
	sort.Strings(errs)
	for _, e := range errs {
		t.Error(e)
	}
}

// checkPackage returns the findings in package c.
func checkPackage(c *checked, m members) []string {
	var errs []string
	report := func(n ast.Node, format string, args ...any) {
		errs = append(errs, c.fset.Position(n.Pos()).String()+": "+fmt.Sprintf(format, args...))
	}
	// expect checks that expression e, used where type want is expected,
	// is not a pointer to a member of a sealed interface.
	expect := func(e ast.Expr, want types.Type) {
		q, _, ok := sealedOf(want)
		if !ok {
			return
		}
		tv, ok := c.info.Types[e]
		if !ok || tv.Type == nil {
			return
		}
		name, ptr, ok := memberName(tv.Type)
		if !ok {
			return
		}
		if _, member := m[q][name]; !member && !types.IsInterface(tv.Type) {
			report(e, "%s handed as %s: not one of its members (it embeds one?)", tv.Type, q)
		}
		if ptr && m[q][name] {
			report(e, "*%s handed as %s: its members are values", name, q)
		}
	}
	for _, f := range c.files {
		var sigs []*types.Signature // enclosing functions, innermost last
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if obj, ok := c.info.Defs[n.Name].(*types.Func); ok && n.Body != nil {
					sigs = append(sigs, obj.Type().(*types.Signature))
					ast.Inspect(n.Body, visit)
					sigs = sigs[:len(sigs)-1]
				}
				return false
			case *ast.FuncLit:
				if sig, ok := c.info.Types[n].Type.(*types.Signature); ok {
					sigs = append(sigs, sig)
					ast.Inspect(n.Body, visit)
					sigs = sigs[:len(sigs)-1]
				}
				return false
			case *ast.TypeSwitchStmt:
				errs = append(errs, checkSwitch(c, n, m)...)
			case *ast.ReturnStmt:
				if len(sigs) > 0 {
					res := sigs[len(sigs)-1].Results()
					if res.Len() == len(n.Results) {
						for i, r := range n.Results {
							expect(r, res.At(i).Type())
						}
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						if tv, ok := c.info.Types[n.Lhs[i]]; ok {
							expect(n.Rhs[i], tv.Type)
						}
					}
				}
			case *ast.ValueSpec:
				if n.Type != nil {
					for _, v := range n.Values {
						expect(v, c.info.Types[n.Type].Type)
					}
				}
			case *ast.SendStmt:
				if ch, ok := c.info.Types[n.Chan].Type.Underlying().(*types.Chan); ok {
					expect(n.Value, ch.Elem())
				}
			case *ast.CompositeLit:
				tv := c.info.Types[n]
				if tv.Type == nil {
					break
				}
				var elem types.Type
				switch u := tv.Type.Underlying().(type) {
				case *types.Slice:
					elem = u.Elem()
				case *types.Array:
					elem = u.Elem()
				case *types.Map:
					elem = u.Elem()
				}
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						el = kv.Value
						if st, ok := tv.Type.Underlying().(*types.Struct); ok {
							if id, ok := kv.Key.(*ast.Ident); ok {
								for i := 0; i < st.NumFields(); i++ {
									if st.Field(i).Name() == id.Name {
										expect(el, st.Field(i).Type())
									}
								}
							}
							continue
						}
					}
					if elem != nil {
						expect(el, elem)
					}
				}
			case *ast.CallExpr:
				checkCall(c, n, expect)
			case *ast.TypeAssertExpr:
				if n.Type == nil {
					break // x.(type): checkSwitch
				}
				q, _, ok := sealedOf(c.info.Types[n.X].Type)
				if !ok {
					break
				}
				if name, ptr, ok := memberName(c.info.Types[n.Type].Type); ok && ptr && m[q][name] {
					report(n, "assertion of %s to *%s: its members are values", q, name)
				}
			}
			return true
		}
		ast.Inspect(f, visit)
	}
	return errs
}

// checkCall checks the arguments of a call (append included).
func checkCall(c *checked, call *ast.CallExpr, expect func(ast.Expr, types.Type)) {
	if id, ok := call.Fun.(*ast.Ident); ok {
		if b, ok := c.info.Uses[id].(*types.Builtin); ok {
			if b.Name() == "append" && len(call.Args) > 1 && call.Ellipsis == token.NoPos {
				if s, ok := c.info.Types[call.Args[0]].Type.Underlying().(*types.Slice); ok {
					for _, a := range call.Args[1:] {
						expect(a, s.Elem())
					}
				}
			}
			return
		}
	}
	sig, ok := c.info.Types[call.Fun].Type.(*types.Signature)
	if !ok {
		return
	}
	ps := sig.Params()
	for i, a := range call.Args {
		switch {
		case sig.Variadic() && i >= ps.Len()-1 && call.Ellipsis == token.NoPos:
			expect(a, ps.At(ps.Len()-1).Type().(*types.Slice).Elem())
		case i < ps.Len():
			expect(a, ps.At(i).Type())
		}
	}
}

// checkSwitch checks one type switch.
func checkSwitch(c *checked, n *ast.TypeSwitchStmt, m members) []string {
	var x ast.Expr
	switch a := n.Assign.(type) {
	case *ast.AssignStmt:
		x = a.Rhs[0].(*ast.TypeAssertExpr).X
	case *ast.ExprStmt:
		x = a.X.(*ast.TypeAssertExpr).X
	}
	q, _, ok := sealedOf(c.info.Types[x].Type)
	if !ok {
		return nil
	}
	var errs []string
	pos := c.fset.Position(n.Pos()).String()
	listed := map[string]bool{}
	for _, cl := range n.Body.List {
		for _, e := range cl.(*ast.CaseClause).List {
			name, ptr, ok := memberName(c.info.Types[e].Type)
			if !ok {
				continue
			}
			if ptr && m[q][name] {
				errs = append(errs, fmt.Sprintf("%s: switch on %s lists *%s: its members are values", pos, q, name))
			}
			listed[name] = true
		}
	}
	if strings.HasSuffix(c.fset.Position(n.Pos()).Filename, "_test.go") || !slices.Contains(exhaustive, strings.TrimPrefix(q, module)) {
		// A test may look for some members only; the pointer check
		// above holds for it too.
		return errs
	}
	var missing []string
	for name := range m[q] {
		if !listed[name] {
			missing = append(missing, strings.TrimPrefix(name, module))
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		errs = append(errs, fmt.Sprintf("%s: switch on %s misses %s", pos, q, strings.Join(missing, ", ")))
	}
	return errs
}

// TestSealedChecker makes sure the checker finds what it must, on a small
// package type-checked from source, so that TestSealedSwitches can fail.
func TestSealedChecker(t *testing.T) {
	const src = `package fake

type Ev interface{ ev() }

type A struct{}
type B struct{}
type C struct{}

func (A) ev() {}
func (B) ev() {}
func (*C) ev() {}

func all(e Ev) int {
	switch e.(type) {
	case A, B, *C:
		return 1
	}
	return 0
}

func missing(e Ev) int {
	switch e.(type) {
	case A:
		return 1
	default:
		return 0
	}
}

func pointerCase(e Ev) bool {
	switch e.(type) {
	case *A, B, *C:
		return true
	}
	_, ok := e.(*B)
	return ok
}

func leak() []Ev {
	a := &A{}
	out := []Ev{a}
	out = append(out, &B{})
	var one Ev = &A{}
	return append(out, one, &C{})
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "fake.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := &checked{path: module + "internal/archtest/fake", fset: fset, files: []*ast.File{f},
		info: &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}}
	if c.pkg, err = (&types.Config{}).Check(c.path, fset, c.files, c.info); err != nil {
		t.Fatal(err)
	}
	m := collectMembers([]*checked{c})
	q := c.path + ".Ev"
	exhaustive = append(exhaustive, "internal/archtest/fake.Ev")
	defer func() { exhaustive = exhaustive[:len(exhaustive)-1] }()
	if len(m[q]) != 3 || !m[q][c.path+".A"] || m[q][c.path+".C"] {
		t.Fatalf("members %v", m)
	}
	got := checkPackage(c, m)
	want := []string{
		"fake.go:22:2: switch on " + q + " misses internal/archtest/fake.B, internal/archtest/fake.C",
		"fake.go:31:2: switch on " + q + " lists *" + c.path + ".A",
		"fake.go:35:11: assertion of " + q + " to *" + c.path + ".B",
		"fake.go:41:14: *" + c.path + ".A handed as " + q,
		"fake.go:42:20: *" + c.path + ".B handed as " + q,
		"fake.go:43:15: *" + c.path + ".A handed as " + q,
	}
	if len(got) != len(want) {
		t.Fatalf("findings:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d: %s\nwant prefix %s", i, got[i], want[i])
		}
	}
	// A type of another package that embeds a member satisfies the
	// interface but is not a member: handing it as one is refused.
	const src2 = `package fake2

import "github.com/dgtbridge/dgtbridge/internal/archtest/fake"

type W struct{ fake.A }

func f() []fake.Ev { return []fake.Ev{W{}, fake.B{}} }
`
	f2, err := parser.ParseFile(fset, "fake2.go", src2, 0)
	if err != nil {
		t.Fatal(err)
	}
	c2 := &checked{path: module + "internal/archtest/fake2", fset: fset, files: []*ast.File{f2},
		info: &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}}
	imp := importerFunc(func(string) (*types.Package, error) { return c.pkg, nil })
	if c2.pkg, err = (&types.Config{Importer: imp}).Check(c2.path, fset, c2.files, c2.info); err != nil {
		t.Fatal(err)
	}
	m = collectMembers([]*checked{c, c2})
	if len(m[q]) != 3 {
		t.Errorf("members with fake2: %v", m[q])
	}
	got = checkPackage(c2, m)
	if len(got) != 1 || !strings.HasPrefix(got[0], "fake2.go:7:39: "+c2.path+".W handed as "+q+": not one of its members") {
		t.Errorf("fake2 findings: %q", got)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
