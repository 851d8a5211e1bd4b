package release

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/testenv"
)

const usageText = `usage: dgtbridge <command> [flags]

commands:
  run       the daemon: boards to NATS; --check validates the configuration
  version   print version, commit and Go version

"dgtbridge <command> --help" describes a command's flags; a bare "dgtbridge" is "dgtbridge run".
`

const runHelp = `usage: dgtbridge run [--config FILE] [--check] [flags]

Run the daemon: read the configured boards, publish the games over NATS.
SIGHUP (systemctl reload dgtbridge) re-reads the configuration.

.hidden line that starts with a dot, and a back\slash → done

flags:
  -check
    	validate the configuration and exit
  -config string
    	configuration file (default ./dgtbridge.yaml, then /etc/dgtbridge/dgtbridge.yaml)
`

// TestParseCommands reads the command list of "dgtbridge help".
func TestParseCommands(t *testing.T) {
	cmds, err := ParseCommands(usageText)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 2 || cmds[0].Name != "run" || cmds[1].Name != "version" || cmds[1].Summary != "print version, commit and Go version" {
		t.Errorf("ParseCommands = %+v", cmds)
	}
	if _, err := ParseCommands("usage: dgtbridge\n"); err == nil {
		t.Error("a help without commands was accepted")
	}
}

// TestManPage: every command a section with its usage, description and
// flags; roff's special characters escaped; a help that is not one is
// refused.
func TestManPage(t *testing.T) {
	cmds, err := ParseCommands(usageText)
	if err != nil {
		t.Fatal(err)
	}
	cmds[0].Help = runHelp
	cmds[1].Help = "usage: dgtbridge version\n\nPrint the version, the commit and the Go version.\n"
	man, err := ManPage("1.2.0", time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC), cmds)
	if err != nil {
		t.Fatal(err)
	}
	s := string(man)
	for _, want := range []string{
		`.TH DGTBRIDGE 1 "2026\-03\-01" "dgtbridge 1.2.0" "User Commands"`,
		".SS run\n.B dgtbridge run [\\-\\-config FILE] [\\-\\-check] [flags]\n",
		"SIGHUP (systemctl reload dgtbridge) re\\-reads the configuration.\n",
		"\\&.hidden line that starts with a dot, and a back\\eslash \\[u2192] done\n",
		".TP\n.B \\-check\nvalidate the configuration and exit\n",
		".TP\n.BI \\-config \" string\"\nconfiguration file",
		".SS version\n.B dgtbridge version\n.br\nPrint the version, the commit and the Go version.\n",
		".SH FILES\n", "/etc/dgtbridge/dgtbridge.yaml",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the page lacks %q:\n%s", want, s)
		}
	}
	for i, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		for _, r := range l {
			if r > 0x7e {
				t.Errorf("line %d is not ASCII: %q", i+1, l)
				break
			}
		}
	}
	bad := []CommandHelp{{Name: "run", Help: "Run the daemon.\n"}}
	if _, err := ManPage("1.2.0", time.Now(), bad); err == nil || !strings.Contains(err.Error(), "run --help") {
		t.Errorf("a help without a usage line: %v", err)
	}
	bad[0].Help = "usage: dgtbridge run\n\nflags:\n  -x\n    \tx\nstray\n"
	if _, err := ManPage("1.2.0", time.Now(), bad); err == nil || !strings.Contains(err.Error(), "stray") {
		t.Errorf("a stray line among the flags: %v", err)
	}

	// groff reads the page without a warning.
	groff := testenv.LookPath(t, "groff", "apt-get install -y groff-base")
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(s)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("groff -ww: %v\n%s", err, out)
	}
}
