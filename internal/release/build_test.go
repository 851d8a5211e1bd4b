package release

import (
	"slices"
	"strings"
	"testing"
)

// TestTargets: the three machines, their file names and Debian names.
func TestTargets(t *testing.T) {
	var got []string
	for _, tg := range Targets() {
		got = append(got, tg.DebArch+"="+tg.BinaryName())
	}
	want := []string{"amd64=dgtbridge-linux-amd64", "arm64=dgtbridge-linux-arm64", "armhf=dgtbridge-linux-armv7"}
	if !slices.Equal(got, want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	for _, name := range []string{"armhf", "arm", "amd64"} {
		if _, err := TargetFor(name); err != nil {
			t.Errorf("TargetFor(%q): %v", name, err)
		}
	}
	if _, err := TargetFor("i386"); err == nil || !strings.Contains(err.Error(), "i386") {
		t.Errorf("TargetFor(i386) = %v, want an error naming it", err)
	}
}

// TestBuildEnv: the caller's target, cgo and GOFLAGS (this machine sets
// -buildvcs=false there) never reach a release build.
func TestBuildEnv(t *testing.T) {
	base := []string{"PATH=/usr/bin", "GOFLAGS=-buildvcs=false", "GOARCH=386", "CGO_ENABLED=1", "GOARM=6", "HOME=/root"}
	arm, _ := TargetFor("armhf")
	env := BuildEnv(base, arm)
	want := []string{"PATH=/usr/bin", "HOME=/root", "CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm", "GOFLAGS=", "GOARM=7"}
	if !slices.Equal(env, want) {
		t.Errorf("BuildEnv = %v, want %v", env, want)
	}
	amd, _ := TargetFor("amd64")
	for _, kv := range BuildEnv(base, amd) {
		if strings.HasPrefix(kv, "GOARM=") {
			t.Errorf("amd64 build has %s", kv)
		}
	}
}

// TestBuildFlags: no paths, the VCS stamp forced on, the version linked
// into the variable that "dgtbridge version" prints.
func TestBuildFlags(t *testing.T) {
	f := BuildFlags("1.2.0")
	for _, want := range []string{"-trimpath", "-buildvcs=true", "-ldflags=-s -w -X main.version=1.2.0"} {
		if !slices.Contains(f, want) {
			t.Errorf("BuildFlags = %q, missing %q", f, want)
		}
	}
}
