package release

import "fmt"

// Target is one machine the release is built for.
type Target struct {
	GOARCH string // amd64, arm64, arm
	GOARM  string // "7" for arm, "" otherwise
	// DebArch is Debian's name of the architecture (amd64, arm64, armhf).
	DebArch string
}

// Targets are the release's machines: 64-bit PCs, Raspberry Pis with a
// 64-bit system, and those with a 32-bit one (ARMv7 and newer; docs/install.md
// says which Pi is which).
func Targets() []Target {
	return []Target{
		{GOARCH: "amd64", DebArch: "amd64"},
		{GOARCH: "arm64", DebArch: "arm64"},
		{GOARCH: "arm", GOARM: "7", DebArch: "armhf"},
	}
}

// TargetFor returns the target whose Debian architecture or GOARCH is
// name.
func TargetFor(name string) (Target, error) {
	for _, t := range Targets() {
		if t.DebArch == name || t.GOARCH == name {
			return t, nil
		}
	}
	return Target{}, fmt.Errorf("no release target %q: give amd64, arm64 or armhf", name)
}

// Suffix names the target in file names: linux-amd64, linux-arm64,
// linux-armv7.
func (t Target) Suffix() string {
	if t.GOARCH == "arm" {
		return "linux-armv" + t.GOARM
	}
	return "linux-" + t.GOARCH
}

// BinaryName is the file name of the target's binary in dist/.
func (t Target) BinaryName() string { return "dgtbridge-" + t.Suffix() }
