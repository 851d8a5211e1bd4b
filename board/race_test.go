//go:build race

package board_test

// raceBuild: this test binary was built with -race (the full suite, CI):
// the heaviest corpus tests play fewer games there, the race detector
// making them five to ten times slower; `go test ./board/` plays them all.
const raceBuild = true
