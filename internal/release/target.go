package release

import "fmt"

// Target is one machine the release is built for.
type Target struct {
	GOARCH string // amd64, arm64, arm
	GOARM  string // "7" for arm, "" otherwise
	// DebArch is Debian's name of the architecture (amd64, arm64, armhf).
	DebArch string
	// Machines says which machines run it, for docs and the checksum list.
	Machines string
}

// Targets are the release's machines: 64-bit PCs, 64-bit Raspberry Pi OS
// (Pi 3, 4, 5), and 32-bit ARMv7 systems (older Pis, 32-bit Raspberry Pi OS).
func Targets() []Target {
	return []Target{
		{GOARCH: "amd64", DebArch: "amd64", Machines: "64-bit PCs and laptops (x86-64)"},
		{GOARCH: "arm64", DebArch: "arm64", Machines: "Raspberry Pi 3, 4, 5 with a 64-bit system"},
		{GOARCH: "arm", GOARM: "7", DebArch: "armhf", Machines: "Raspberry Pi 2, 3, 4 with a 32-bit system (ARMv7)"},
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
