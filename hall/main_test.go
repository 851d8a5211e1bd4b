package hall

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs the package's wall-clock integration tests (integration)
// all at once unless -parallel is given: they wait on emulated hands in
// real time and use little CPU (the whole package under -race takes about
// 4 s of CPU in 45 s of wall clock), so the default of one test per core
// would only make the full suite wait.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "16")
	}
	os.Exit(m.Run())
}
