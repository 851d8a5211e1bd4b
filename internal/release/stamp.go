package release

import "runtime/debug"

// Stamp returns the commit the running program was built from
// ("unknown" when the build did not record it) and whether the work
// tree had changes, as the Go toolchain stamped them into the binary.
func Stamp() (commit string, modified bool) {
	commit = "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	return commit, modified
}
