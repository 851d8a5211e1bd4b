package systemd

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

// TestVerifyUnit runs `systemd-analyze verify` on dgtbridge.service, with
// ExecStart pointed at a stand-in executable (verify insists that the
// binary exists). Any warning fails the test, since verify exits 0 on
// unknown keys. Without systemd-analyze the test skips on a developer's
// machine and fails in CI (CI=true): install it with
// `apt-get install -y systemd`.
func TestVerifyUnit(t *testing.T) {
	tool := testenv.LookPath(t, "systemd-analyze", "apt-get install -y systemd")
	unit, err := os.ReadFile("dgtbridge.service")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "dgtbridge")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	const exec0 = "ExecStart=/usr/local/bin/dgtbridge "
	if !strings.Contains(string(unit), exec0) {
		t.Fatalf("the unit has no %q line", exec0)
	}
	patched := strings.Replace(string(unit), exec0, "ExecStart="+bin+" ", 1)
	path := filepath.Join(dir, "dgtbridge.service")
	if err := os.WriteFile(path, []byte(patched), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "verify", path)
	cmd.Env = append(os.Environ(), "SYSTEMD_LOG_COLOR=0")
	out, err := cmd.CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// unitSettings returns the Key=Value lines of the unit, in order.
func unitSettings(t *testing.T) [][2]string {
	t.Helper()
	f, err := os.Open("dgtbridge.service")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var kv [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("unit line %q is not Key=Value", line)
		}
		kv = append(kv, [2]string{k, v})
	}
	return kv
}

// TestUnitContract checks the settings the daemon and the install notes
// rely on.
func TestUnitContract(t *testing.T) {
	kv := unitSettings(t)
	has := func(k, v string) bool {
		for _, p := range kv {
			if p[0] == k && p[1] == v {
				return true
			}
		}
		return false
	}
	for _, want := range [][2]string{
		{"Type", "notify"},
		{"Restart", "on-failure"},
		{"User", "dgtbridge"},
		{"StateDirectory", "dgtbridge"},
		{"ConfigurationDirectory", "dgtbridge"},
		{"Environment", "DGTBRIDGE_DATA_DIR=/var/lib/dgtbridge"},
		{"DevicePolicy", "closed"},
		{"DeviceAllow", "char-ttyACM rw"},
		{"DeviceAllow", "char-ttyUSB rw"},
		{"DeviceAllow", "char-rfcomm rw"},
		{"ProtectSystem", "strict"},
		{"ProtectHome", "yes"},
		{"PrivateTmp", "yes"},
		{"NoNewPrivileges", "yes"},
		{"WatchdogSec", "30s"},
		{"ExecReload", "/bin/kill -HUP $MAINPID"},
	} {
		t.Run(want[0]+"="+want[1], func(t *testing.T) {
			if !has(want[0], want[1]) {
				t.Errorf("dgtbridge.service lacks %s=%s", want[0], want[1])
			}
		})
	}
	groups := false
	for _, p := range kv {
		if p[0] == "SupplementaryGroups" && strings.Contains(" "+p[1]+" ", " dialout ") {
			groups = true
		}
	}
	if !groups {
		t.Error("dgtbridge.service: SupplementaryGroups lacks dialout")
	}
}

// TestUdevRules checks that every rule line of 70-dgt.rules is made of
// known udev operators and that the DGT devices get group, mode and a
// /dev/dgt/ name (udevadm verify needs systemd ≥ 253, newer than Debian 12).
func TestUdevRules(t *testing.T) {
	data, err := os.ReadFile("70-dgt.rules")
	if err != nil {
		t.Fatal(err)
	}
	var body []string
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		for _, tok := range splitRule(line) {
			if !validToken(tok) {
				t.Errorf("70-dgt.rules:%d: %q is not KEY op \"value\"", i+1, tok)
			}
		}
		body = append(body, line)
	}
	all := strings.Join(body, "\n")
	for _, want := range []string{`GROUP="dialout"`, `MODE="0660"`, `SYMLINK+="dgt/`, `ATTRS{idVendor}=="04d8", ATTRS{idProduct}=="000a"`, `ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001"`, `ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6015"`, `ATTRS{idVendor}=="067b", ATTRS{idProduct}=="2303"`, `ATTRS{idVendor}=="10c4", ATTRS{idProduct}=="ea60"`, `ATTRS{idVendor}=="1a86", ATTRS{idProduct}=="7523"`, `SYMLINK+="dgt/by-path/$env{ID_PATH}"`, `SYMLINK+="dgt/by-path/$env{ID_PATH}-port$env{.DGT_PORT}"`, `LABEL="dgt_end"`, `ENV{ID_MM_DEVICE_IGNORE}="1"`} {
		if !strings.Contains(all, want) {
			t.Errorf("70-dgt.rules lacks %s", want)
		}
	}
}

// splitRule splits a rule line at the commas between tokens.
func splitRule(line string) []string {
	var toks []string
	inQuote := false
	start := 0
	for i, c := range line {
		switch {
		case c == '"':
			inQuote = !inQuote
		case c == ',' && !inQuote:
			toks = append(toks, strings.TrimSpace(line[start:i]))
			start = i + 1
		}
	}
	return append(toks, strings.TrimSpace(line[start:]))
}

func validToken(tok string) bool {
	for _, op := range []string{"==", "!=", "+=", "-=", ":=", "="} {
		k, v, ok := strings.Cut(tok, op)
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		v = strings.TrimSpace(v)
		return k != "" && !strings.ContainsAny(k, " \"=") && len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"'
	}
	return false
}
