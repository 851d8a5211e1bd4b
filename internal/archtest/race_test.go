//go:build race

package archtest

// raceBuild: this test binary was built with -race. The export data
// loadModule asks go list for is then built with -race too: in the full
// suite (go test -race ./...) those are the very builds the other
// packages' tests need, found in the build cache, instead of a second,
// uninstrumented build of the whole module with its tests (about two
// CPU-minutes, most of this package's time in CI).
const raceBuild = true
