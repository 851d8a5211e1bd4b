package board

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestValue: every event type of the package (every struct embedding
// Stamp) comes back from Value as a value equal to what its pointer
// points to, and values pass through unchanged.
func TestValue(t *testing.T) {
	at := time.Date(2026, 2, 8, 8, 1, 2, 0, time.UTC)
	events := []Event{
		&Ambiguous{Stamp: Stamp{at}}, &BoardMismatch{Stamp: Stamp{at}}, &BoardsAgree{Stamp: Stamp{at}},
		&ClockChanged{Stamp: Stamp{at}}, &ClockWithoutMove{Stamp: Stamp{at}}, &Correction{Stamp: Stamp{at}, Ply: 3},
		&DisplacedPieces{Stamp: Stamp{at}}, &Explained{Stamp: Stamp{at}}, &IllegalMove{Stamp: Stamp{at}, Text: "Ng1-g3"},
		&MoveCompleted{Stamp: Stamp{at}, Ply: 7, SAN: "Nf3"}, &MoveMade{Stamp: Stamp{at}, Ply: 7}, &MoveRetracted{Stamp: Stamp{at}},
		&OrientationChanged{Stamp: Stamp{at}, Rotated: true}, &ResultGesture{Stamp: Stamp{at}, Result: "1-0"},
		&SetupDetected{Stamp: Stamp{at}, N960: 518}, &TouchEvidence{Stamp: Stamp{at}, Rule: "TM-1"},
		&TurnStarted{Stamp: Stamp{at}}, &Unexplained{Stamp: Stamp{at}},
	}
	covered := map[string]bool{}
	for _, ev := range events {
		v := Value(ev)
		pv := reflect.ValueOf(ev)
		if reflect.TypeOf(v) != pv.Type().Elem() {
			t.Errorf("Value(%T) is a %T, want the value type", ev, v)
			continue
		}
		if !reflect.DeepEqual(v, pv.Elem().Interface()) {
			t.Errorf("Value(%T) = %+v, want %+v", ev, v, pv.Elem().Interface())
		}
		if again := Value(v); !reflect.DeepEqual(again, v) {
			t.Errorf("Value of the value %T changed it", v)
		}
		covered[pv.Type().Elem().Name()] = true
	}
	// Every struct type of the package that embeds Stamp is an event and
	// must be in the table above (and so in Value).
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fld := range st.Fields.List {
				if id, ok := fld.Type.(*ast.Ident); ok && len(fld.Names) == 0 && id.Name == "Stamp" && !covered[ts.Name.Name] {
					t.Errorf("event type %s is not covered by Value", ts.Name.Name)
				}
			}
			return true
		})
	}
}
