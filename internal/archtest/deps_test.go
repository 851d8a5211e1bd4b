package archtest

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/dgtbridge/dgtbridge/"

// rule says what a package may import besides the standard library:
// packages of this module (by path below the module, e.g. "rules/clock";
// "rules/..." allows a tree) and packages of other modules (by path prefix).
type rule struct {
	pkg      string
	internal []string
	external []string
}

// layers is the dependency table of the finished packages, bottom up (see
// docs/architecture.md). The rules engine sees only the standard library;
// rules/game, the vocabulary every layer shares, sees only the engine. The
// board tracker and the adjudicator both build on the vocabulary and
// neither imports the other, nor the DGT codec: each board protocol has
// its translator into the vocabulary (board/dgtfeed for DGT). Nothing under
// rules imports board (TestNoBackArrow).
var layers = []rule{
	{pkg: "rules"},
	// The port as every link sees it: the standard library.
	{pkg: "port"},
	{pkg: "rules/chess", internal: []string{"rules"}},
	{pkg: "rules/xiangqi", internal: []string{"rules"}},
	{pkg: "rules/xiangqi/games"},
	{pkg: "rules/clock", internal: []string{"rules"}},
	{pkg: "rules/perft", internal: []string{"rules", "rules/chess", "rules/xiangqi"}},
	{pkg: "rules/announce", internal: []string{"rules", "rules/chess", "rules/xiangqi"}},
	{pkg: "rules/ruleset", internal: []string{"rules", "rules/clock"}},
	{pkg: "rules/pgn", internal: []string{"rules", "rules/chess", "rules/xiangqi"}},
	{pkg: "rules/teamdrop", internal: []string{"rules", "rules/chess", "rules/ruleset", "rules/clock", "rules/game"}},
	{pkg: "rules/game", internal: []string{"rules"}},
	{pkg: "rules/adjudicator", internal: []string{"rules/..."}},
	{pkg: "dgt", internal: []string{"rules"}},
	{pkg: "dgt/recording", internal: []string{"rules", "dgt"}},
	// The emulator serves its boards on pseudo-terminals (dgt/pty) or on
	// any port.
	{pkg: "dgt/emu", internal: []string{"rules", "dgt", "dgt/pty"}, external: []string{"golang.org/x/sys/unix"}},
	{pkg: "dgt/internal/evq"},
	{pkg: "dgt/link", internal: []string{"rules", "dgt", "dgt/internal/evq", "port"}},
	{pkg: "dgt/bus", internal: []string{"rules", "dgt", "dgt/internal/evq", "port"}},
	{pkg: "dgt/pty", external: []string{"golang.org/x/sys/unix"}},
	// The serial ports: the one package that opens them (go.bug.st/serial
	// and its own termios code) and probes them for DGT boards through
	// dgt/link.
	{pkg: "serialport", internal: []string{"rules", "dgt", "dgt/link", "dgt/internal/evq", "port"}, external: []string{"go.bug.st/serial", "golang.org/x/sys/unix"}},
	// Identifying the boards of a hall (`dgtbridge ports --identify`): the
	// serial ports, the single-board and bus-line probes and the clock
	// commands; the configured boards come in as plain values, never
	// configuration.
	{pkg: "serialport/identify", internal: []string{"rules", "dgt", "dgt/link", "dgt/bus", "dgt/internal/evq", "port", "serialport"}, external: []string{"go.bug.st/serial", "golang.org/x/sys/unix"}},
	// The Open Board Protocol is a codec of its own beside dgt; it sees
	// only the rules vocabulary (squares, pieces, geometries).
	{pkg: "obp", internal: []string{"rules"}},
	{pkg: "obp/link", internal: []string{"rules", "obp", "port"}},
	{pkg: "obp/obpfeed", internal: []string{"rules", "rules/game", "obp", "obp/link", "port"}},
	{pkg: "obp/emu", internal: []string{"rules", "rules/chess", "rules/xiangqi", "obp"}},
	{pkg: "board", internal: []string{"rules/..."}},
	{pkg: "board/dgtfeed", internal: []string{"rules", "rules/game", "dgt"}},
	// The independent generator of real play (hands, scan, clock) sees the
	// rules and the vocabulary only: never dgt/emu, whose hands it checks.
	{pkg: "internal/handsim", internal: []string{"obp", "rules", "rules/chess", "rules/game", "rules/xiangqi", "rules/teamdrop", "rules/ruleset", "rules/clock"}},
	{pkg: "systemd/sdnotify"},
	{pkg: "internal/fsf", internal: []string{"internal/testenv"}},
	// The pairing file reader is pure: bytes in, pairings out.
	{pkg: "pairings"},
	// Configuration: reading, validating, comparing the running one with a
	// reload's (Diff). It sees the rule sets and clocks it names and the
	// pairing files it reads, viper and its file formats; no board, no
	// NATS, no hall.
	{pkg: "config", internal: []string{"rules", "rules/clock", "rules/ruleset", "pairings"}, external: viperDeps},
	// The Lichess push speaks HTTP and knows nothing of boards or NATS: the
	// daemon hands it each round's PGN.
	{pkg: "lichess"},
	// broadcast sees the game's vocabulary and payloads and NATS (the
	// embedded server and its own dependencies), never configuration.
	{pkg: "broadcast", internal: []string{"rules/...", "web", "broadcast/storage", "broadcast/httpauth", "internal/metrics"}, external: natsDeps},
	// httpauth checks staff credentials (written out or bcrypt): the
	// standard library and bcrypt only.
	{pkg: "broadcast/httpauth", external: []string{"golang.org/x/crypto"}},
	// storage is the disk seam (and the journals' frames): the standard
	// library only; its fault-injecting file system sees nothing else.
	{pkg: "broadcast/storage"},
	{pkg: "broadcast/storage/storagetest", internal: []string{"broadcast/storage"}},
	// web holds the built pages (embedded files), nothing else.
	{pkg: "web"},
	// A game's record and its PGN: the rules and the vocabulary only.
	{pkg: "hall/gamerecord", internal: []string{"rules/..."}},
	// The game store (the journal, the record files, their repair): the
	// disk seam, the record and the engine under it; never a board, the
	// adjudicator, NATS or a serial port.
	{pkg: "hall/gamestore", internal: storeDeps},
	// The per-game core: the tracker, the adjudicator, the record and the
	// DGT codec's messages (replayed recordings), never a link, NATS or
	// storage.
	{pkg: "hall/session", internal: []string{"rules/...", "board", "board/dgtfeed", "dgt", "hall/gamerecord"}},
	// Replay reads recordings into sessions: the codecs and their
	// translators (the OBP reader splits lines with obp/link), the session;
	// never NATS or storage.
	{pkg: "hall/replay", internal: []string{"rules/...", "dgt", "dgt/recording", "obp/...", "port", "board/...", "hall/session", "hall/gamerecord"}},
	// The daemon's runtime: every board's goroutine from the link to the
	// publisher. It sees the protocols, the tracker, the per-game core and
	// the publisher, never configuration or a serial library.
	{pkg: "hall", internal: []string{"rules/...", "board/...", "dgt", "dgt/bus", "dgt/link", "dgt/recording", "dgt/internal/evq", "obp/...", "port", "broadcast/...", "hall/session", "hall/gamerecord", "hall/gamestore", "internal/metrics", "web"}, external: natsDeps},
	// The demo's scripts drive emulated boards and read the feed as a
	// client: no runtime, no configuration.
	{pkg: "hall/demo", internal: []string{"rules/...", "board/...", "dgt", "dgt/emu", "dgt/pty", "obp", "obp/emu", "hall/session", "hall/gamerecord"}, external: natsDeps},
	// The daemon's assembly turns a configuration into the running hall:
	// embedded NATS, publisher, HTTP, the hall's boards, Lichess, the
	// LiveChess API, status, reloads.
	// No emulator, demo or test support: those are the command's.
	{pkg: "internal/daemon", internal: []string{"rules/...", "board/...", "dgt", "dgt/bus", "dgt/link", "dgt/recording", "dgt/internal/evq", "obp", "obp/link", "obp/obpfeed", "port", "serialport", "serialport/identify",
		"broadcast/...", "config", "pairings", "hall", "hall/gamerecord", "hall/gamestore", "hall/session", "internal/metrics", "lichess", "livechess", "status", "systemd/sdnotify", "web", "rehearse", "rehearse/watch"},
		external: append(append([]string{"go.bug.st/serial", "github.com/coder/websocket"}, natsDeps...), viperDeps...)},
	// The demo: the daemon on hall/demo's emulated room.
	{pkg: "internal/demorun", internal: []string{"..."}, external: append(append([]string{"go.bug.st/serial", "github.com/coder/websocket", "golang.org/x/sys/unix"}, natsDeps...), viperDeps...)},
	// The command line's conventions: the standard library and the
	// terminal.
	{pkg: "internal/cli", external: []string{"golang.org/x/term", "golang.org/x/sys"}},
	// The command parses the command line and calls the packages above.
	{pkg: "cmd/dgtbridge", internal: []string{"..."}, external: append(append(append([]string{"go.bug.st/serial", "github.com/coder/websocket", "golang.org/x/term"}, natsDeps...), viperDeps...), "golang.org/x/text")},
	// Test support.
	{pkg: "dgt/dgttest", internal: []string{"rules/...", "dgt", "internal/testenv"}},
	{pkg: "internal/testenv"},
	{pkg: "internal/browser", internal: []string{"internal/testenv"}, external: []string{"github.com/chromedp", "github.com/go-json-experiment/json"}},
	// Packages of tests alone (docs' links, the unit file, this table) and
	// the magic-table generator: the standard library.
	{pkg: "docs"},
	{pkg: "systemd"},
	{pkg: "internal/archtest"},
	{pkg: "rules/chess/internal/magicgen"},
	// status reads the hall's observations and records and writes the
	// status bucket: above the hall, below the command.
	// It reads a rehearsal's checklist from the bucket too.
	{pkg: "status", internal: []string{"rules/...", "board/...", "dgt/...", "obp/...", "broadcast/...", "hall/...", "port", "web", "internal/metrics", "rehearse"}, external: natsDeps},
	// The rehearsal's runtime reads the daemon as a client (the status
	// bucket through status, the feeds) and the embedded server's
	// connections, and asks Lichess over HTTP: no configuration, and the
	// hall only as status sees it.
	{pkg: "rehearse/watch", internal: []string{"rules/...", "board/...", "dgt/...", "obp/...", "broadcast/...", "hall/...", "port", "web", "internal/metrics", "rehearse", "status"}, external: natsDeps},
	// The rehearsal's checklist is a pure core over the game vocabulary.
	{pkg: "rehearse", internal: []string{"rules", "rules/game"}},
	// The metrics writer is the standard library only.
	{pkg: "internal/metrics"},
	// The LiveChess-compatible API reads the daemon's feed (the broadcast
	// payloads over NATS) and speaks WebSocket; nothing of the hall.
	{pkg: "livechess", internal: []string{"rules/...", "broadcast", "broadcast/storage", "broadcast/httpauth", "web", "internal/metrics"},
		external: append([]string{"github.com/coder/websocket"}, natsDeps...)},
	// Its test client is written from the protocol alone.
	{pkg: "internal/lcclient", external: []string{"github.com/coder/websocket"}},
	// The release builder runs the go and git commands and reads files:
	// the standard library only (nfpm, which writes the Debian archives,
	// is in the module under tools/release).
	{pkg: "internal/release"},
	// The load test drives emulated boards and reads the daemon's NATS
	// feed as any client would: no daemon package.
	{pkg: "internal/loadtest", internal: []string{"rules/...", "dgt", "dgt/emu", "dgt/pty"}, external: natsDeps},
}

// storeDeps are what the game store may see: the disk seam, the record,
// the engine it renders with and the vocabulary (no rules/adjudicator).
var storeDeps = []string{"broadcast/storage", "hall/gamerecord", "rules", "rules/chess", "rules/xiangqi", "rules/clock",
	"rules/ruleset", "rules/pgn", "rules/teamdrop", "rules/game"}

// viperDeps are the modules viper and its file formats pull in.
var viperDeps = []string{
	"github.com/spf13",
	"github.com/go-viper/mapstructure/v2",
	"github.com/fsnotify/fsnotify",
	"github.com/pelletier/go-toml/v2",
	"github.com/sagikazarmark/locafero",
	"github.com/sourcegraph/conc",
	"github.com/subosito/gotenv",
	"go.yaml.in/yaml/v3",
	"golang.org/x/sys",
	"golang.org/x/text",
}

// natsDeps are the modules the NATS client and the embedded nats-server
// pull in.
var natsDeps = []string{
	"github.com/nats-io",
	"github.com/klauspost/compress",
	"github.com/minio/highwayhash",
	"github.com/antithesishq/antithesis-sdk-go",
	"golang.org/x/crypto",
	"golang.org/x/sys",
	"golang.org/x/time",
}

// TestDependencies lists the dependencies of every package of [layers]
// with one `go list` and checks them against the table.
func TestDependencies(t *testing.T) {
	args := []string{"list", "-f", `{{.ImportPath}} {{join .Deps " "}}`}
	for _, r := range layers {
		args = append(args, module+r.pkg)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		t.Fatalf("go list: %s", msg)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			deps[strings.TrimPrefix(f[0], module)] = f[1:]
		}
	}
	for _, r := range layers {
		t.Run(r.pkg, func(t *testing.T) {
			d, ok := deps[r.pkg]
			if !ok {
				t.Fatalf("go list did not list %s", r.pkg)
			}
			for _, err := range r.check(d) {
				t.Error(err)
			}
		})
	}
}

// check returns an error for every dependency r does not allow.
func (r rule) check(deps []string) []error {
	var errs []error
	for _, dep := range deps {
		first, _, _ := strings.Cut(dep, "/")
		if !strings.Contains(first, ".") {
			continue // standard library
		}
		if !r.allows(dep) {
			errs = append(errs, fmt.Errorf("%s depends on %s", r.pkg, dep))
		}
	}
	return errs
}

func (r rule) allows(dep string) bool {
	if p, ok := strings.CutPrefix(dep, module); ok {
		if p == r.pkg {
			return true
		}
		for _, a := range r.internal {
			if a == "..." {
				return true
			}
			if tree, ok := strings.CutSuffix(a, "/..."); ok && (p == tree || strings.HasPrefix(p, tree+"/")) || p == a {
				return true
			}
		}
		return false
	}
	return slices.ContainsFunc(r.external, func(e string) bool { return dep == e || strings.HasPrefix(dep, e+"/") })
}

// TestRuleCheck makes sure the checker itself refuses what the table
// forbids, so that TestDependencies can fail.
func TestRuleCheck(t *testing.T) {
	std := []string{"fmt", "internal/abi", "vendor/golang.org/x/net/dns/dnsmessage"}
	for _, tt := range []struct {
		name string
		r    rule
		deps []string
		bad  int
	}{
		{"stdlib only", rule{pkg: "rules"}, std, 0},
		{"own package", rule{pkg: "rules"}, []string{module + "rules"}, 0},
		{"allowed sibling", rule{pkg: "rules/chess", internal: []string{"rules"}}, []string{module + "rules"}, 0},
		{"not a tree", rule{pkg: "rules/chess", internal: []string{"rules"}}, []string{module + "rules/clock"}, 1},
		{"tree", rule{pkg: "board", internal: []string{"rules/..."}}, []string{module + "rules", module + "rules/chess"}, 0},
		{"tree prefix is not a tree", rule{pkg: "board", internal: []string{"rules/..."}}, []string{module + "rulesx"}, 1},
		{"NATS", rule{pkg: "rules/arbiter", internal: []string{"rules/..."}}, []string{"github.com/nats-io/nats.go", module + "broadcast"}, 2},
		{"external allowed", rule{pkg: "dgt/pty", external: []string{"golang.org/x/sys/unix"}}, []string{"golang.org/x/sys/unix"}, 0},
		{"store: no adjudicator, board, NATS or serial", rule{pkg: "hall/gamestore", internal: storeDeps},
			[]string{module + "rules/game", module + "broadcast/storage", module + "rules/adjudicator", module + "board", "github.com/nats-io/nats.go", "go.bug.st/serial"}, 4},
		{"external sibling", rule{pkg: "dgt/pty", external: []string{"golang.org/x/sys/unix"}}, []string{"golang.org/x/sys/unixy", "go.bug.st/serial"}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.check(tt.deps); len(got) != tt.bad {
				t.Errorf("check(%v) = %v, want %d errors", tt.deps, got, tt.bad)
			}
		})
	}
}

// TestNoBackArrow checks that no package of the rules tree depends on the
// board tree, whatever the table above says: the vocabulary is at the
// bottom (rules/game), the adjudication beside the tracker, not below it.
func TestNoBackArrow(t *testing.T) {
	out, err := exec.Command("go", "list", "-e", "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"rules/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		n++
		for _, dep := range f[1:] {
			if p, ok := strings.CutPrefix(dep, module); ok && (p == "board" || strings.HasPrefix(p, "board/")) {
				t.Errorf("%s depends on %s", strings.TrimPrefix(f[0], module), dep)
			}
		}
	}
	if n < 8 {
		t.Fatalf("go list listed %d packages under rules", n)
	}
}

// soleImporters names, for the libraries that touch the outside world,
// the only packages of the module that may import them directly (one
// package opens serial ports, one package reads configuration).
var soleImporters = map[string][]string{
	"go.bug.st/serial":       {"serialport"},
	"github.com/spf13/viper": {"config"},
}

// TestSoleImporters checks [soleImporters] over every package of the
// module (go list -e: a package that does not build yet still lists its
// imports).
func TestSoleImporters(t *testing.T) {
	out, err := exec.Command("go", "list", "-e", "-f", `{{.ImportPath}} {{join .Imports " "}}`, module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		pkg := strings.TrimPrefix(f[0], module)
		for _, imp := range f[1:] {
			for lib, allowed := range soleImporters {
				if (imp == lib || strings.HasPrefix(imp, lib+"/")) && !slices.Contains(allowed, pkg) {
					t.Errorf("%s imports %s; only %v may", pkg, imp, allowed)
				}
			}
		}
	}
}

// TestEveryPackageHasARow fails when a package of the module has no row in
// [layers]: a new package says what it may import when it is made.
func TestEveryPackageHasARow(t *testing.T) {
	out, err := exec.Command("go", "list", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	rows := map[string]bool{}
	for _, r := range layers {
		rows[r.pkg] = true
	}
	for _, p := range strings.Fields(string(out)) {
		if p = strings.TrimPrefix(p, module); !rows[p] {
			t.Errorf("package %s has no row in the dependency table (internal/archtest/deps_test.go)", p)
		}
	}
}
