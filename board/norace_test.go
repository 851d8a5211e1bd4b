//go:build !race

package board_test

// raceBuild: see race_test.go.
const raceBuild = false
