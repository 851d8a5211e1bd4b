package main

import (
	"context"
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/internal/daemon"
	"github.com/dgtbridge/dgtbridge/internal/release"
)

// runFlags are the flags of "run": where the configuration is and the
// overrides of its keys (the flags source of the configuration).
type runFlags struct {
	file, dataDir, natsURL, httpListen string
}

// load loads the configuration the flags name.
func (f runFlags) load() (config.Config, error) {
	over := map[string]any{}
	if f.dataDir != "" {
		over["data_dir"] = f.dataDir
	}
	if f.natsURL != "" {
		over["nats.url"] = f.natsURL
	}
	switch f.httpListen {
	case "":
	case "off":
		over["http.listen"] = ""
	default:
		over["http.listen"] = f.httpListen
	}
	return config.Load(config.LoadOptions{File: f.file, Overrides: over})
}

// runRun implements "dgtbridge run [--config FILE] [--check]", also what
// a bare "dgtbridge" does: the daemon. With --check it only validates the
// configuration, the pairing file and the token file (docs/contract.md §1).
// SIGHUP re-reads the configuration (the daemon package's reloader).
func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("run", "[--config FILE] [--check] [flags]",
		"Run the daemon: read the configured boards, publish the games over NATS, serve the PGN feeds.\n"+
			"SIGHUP (systemctl reload dgtbridge) re-reads the configuration and the pairing file for the next games.\n"+
			"With --check, validate the configuration, the pairing file and the token file, open nothing, and exit.", stderr)
	var rf runFlags
	fs.StringVar(&rf.file, "config", "", "configuration file (default ./dgtbridge.yaml, then /etc/dgtbridge/dgtbridge.yaml)")
	check := fs.Bool("check", false, "validate the configuration and exit: 0 when valid, 1 naming every bad key")
	fs.StringVar(&rf.dataDir, "data-dir", "", "override data_dir")
	fs.StringVar(&rf.natsURL, "nats-url", "", "override nats.url (an external NATS server)")
	fs.StringVar(&rf.httpListen, "http-listen", "", `override http.listen ("off" disables HTTP)`)
	logger := fs.Logger("info", stderr)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("run: unexpected argument %q (the configuration is given with --config FILE)", fs.Arg(0))}
	}
	log, err := logger()
	if err != nil {
		return err
	}

	cfg, err := rf.load()
	if err != nil {
		return err
	}
	if *check {
		daemon.PrintCheck(stdout, &cfg)
		return nil
	}
	if err := cfg.Unsupported(); err != nil {
		return err
	}
	commit, modified := release.Stamp()
	log.Info("dgtbridge starting", "version", version, "commit", commit, "modified", modified)
	if cfg.File != "" {
		log.Info("configuration read", "file", cfg.File)
	}
	return daemon.RunConfigured(ctx, cfg, daemon.Options{Reload: rf.load, Version: version, Commit: commit}, log)
}
