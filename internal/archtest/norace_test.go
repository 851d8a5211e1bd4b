//go:build !race

package archtest

// raceBuild: this test binary was built with -race (race_test.go).
const raceBuild = false
