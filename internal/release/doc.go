// Package release makes dgtbridge's release files from a git checkout:
// the daemon built for each [Target] (reproducible: -trimpath, the commit
// stamped by the Go toolchain, the version given at link time), their
// SHA-256 sums, the manual page rendered from the command's own help, the
// third-party notices, and the layout of the Debian package (which file
// goes where, with which mode, and the maintainer scripts).
//
// It uses the standard library and the go and git commands only. The
// Debian archive itself is written by the module in tools/release, which
// brings nfpm and keeps it out of the daemon's go.mod; "go -C tools/release
// run ." is the one command that builds everything into dist/.
package release
