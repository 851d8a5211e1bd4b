package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/internal/loadtest"
)

// runLoadtest runs the load test of internal/loadtest and prints its
// report: this binary (or --daemon) is started as the daemon under test.
func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("loadtest", "[--boards N] [--bus 32] [--dir DIR] [flags]",
		"Start emulated DGT boards on pseudo-terminals (on bus lines of --bus boards), a daemon reading them\n"+
			"(\"dgtbridge run\" with a configuration written in --dir, recording on, its data in --dir), play a\n"+
			"random game on every board with a ply every --interval, and report the moves lost, wrong and\n"+
			"duplicated, the alerts raised, the daemon's own delay (from the board's answer that completed the\n"+
			"move, holding its press and its last square change, to the MoveEvent), the delays from the first\n"+
			"answer holding the press and from the press, the poll interval of every board, and the daemon's\n"+
			"RSS and CPU. With --kill-after, the daemon is killed mid-game and started again: the report says which\n"+
			"moves the outage held up and how soon they came, and times the others as usual.", stderr)
	boards := fs.Int("boards", 500, "how many boards play")
	bus := fs.Int("bus", 32, "boards per DGT bus line (1: each board on its own port)")
	interval := fs.Duration("interval", 2*time.Second, "time between two plies of a board")
	plies := fs.Int("plies", 40, "plies per game")
	seed := fs.Uint64("seed", 1, "seed of the games")
	dir := fs.String("dir", "", "folder for the daemon's configuration, data and log (default: a new folder under the system's temporary folder); it must be on the disk to test")
	daemon := fs.String("daemon", "", "the dgtbridge binary to test (default: this one)")
	delay := fs.Duration("public-delay", 15*time.Minute, "event.public_delay of the daemon")
	profile := fs.String("profile", "", "write a CPU profile of the daemon taken during play to this `file` (with --pprof, or a daemon that serves /debug/pprof/)")
	pprof := fs.Bool("pprof", false, "turn the daemon's http.pprof on")
	extra := fs.String("config", "", "YAML `text` appended to the daemon's configuration")
	kill := fs.Duration("kill-after", 0, "kill the daemon (SIGKILL) this long after the games begin and start it again --down later (0: no kill)")
	down := fs.Duration("down", 15*time.Second, "with --kill-after: how long the daemon stays down")
	var env []string
	fs.Func("daemon-env", "`KEY=VALUE` added to the daemon's environment (repeatable), e.g. GOMEMLIMIT=350MiB", func(v string) error {
		if k, _, ok := strings.Cut(v, "="); !ok || k == "" {
			return fmt.Errorf("want KEY=VALUE, got %q", v)
		}
		env = append(env, v)
		return nil
	})
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("loadtest takes no arguments, got %q", fs.Args())}
	}
	if *boards < 1 || *bus < 1 || *bus > 64 {
		return cli.UsageError{Err: fmt.Errorf("loadtest: --boards must be at least 1 and --bus 1 to 64")}
	}
	if *daemon == "" {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		*daemon = exe
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "dgtbridge-loadtest-")
		if err != nil {
			return err
		}
		*dir = d
	}
	fmt.Fprintf(stderr, "loadtest: daemon %s, data in %s\n", *daemon, *dir)
	rep, err := loadtest.Run(ctx, loadtest.Options{Boards: *boards, Bus: *bus, Interval: *interval, Plies: *plies, Seed: *seed,
		Daemon: *daemon, Dir: *dir, PublicDelay: *delay, Profile: *profile, Pprof: *pprof, ExtraConfig: *extra, DaemonEnv: env, Log: stderr,
		Kill: *kill, Down: *down})
	if err != nil {
		return err
	}
	rep.Print(stdout)
	return nil
}
