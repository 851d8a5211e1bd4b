package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/dgtbridge/dgtbridge/broadcast/hall"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/systemd/sdnotify"
)

// runRun implements "dgtbridge run [--config FILE]" (interfaces.md §1), also
// what a bare "dgtbridge" does: the daemon. Flags override the file and the
// environment.
func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", "[--config FILE] [flags]",
		"Run the daemon: read the configured DGT boards, publish the games over NATS, serve the PGN feeds.", stderr)
	file := fs.String("config", "", "configuration file (default ./dgtbridge.yaml, then /etc/dgtbridge/dgtbridge.yaml)")
	dataDir := fs.String("data-dir", "", "override data_dir")
	natsURL := fs.String("nats-url", "", "override nats.url (an external NATS server)")
	httpListen := fs.String("http-listen", "", `override http.listen ("off" disables HTTP)`)
	level := fs.String("log-level", "info", "log level: debug, info, warn or error")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("run: unexpected argument %q (the configuration is given with --config FILE)", fs.Arg(0))}
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return usageError{fmt.Errorf("run: --log-level %q: want debug, info, warn or error", *level)}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lv}))

	over := map[string]any{}
	if *dataDir != "" {
		over["data_dir"] = *dataDir
	}
	if *natsURL != "" {
		over["nats.url"] = *natsURL
	}
	switch *httpListen {
	case "":
	case "off":
		over["http.listen"] = ""
	default:
		over["http.listen"] = *httpListen
	}
	cfg, err := config.Load(config.LoadOptions{File: *file, Overrides: over})
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	if cfg.File != "" {
		log.Info("configuration read", "file", cfg.File)
	}
	if len(cfg.Boards) == 0 {
		return errNoBoards
	}
	claims := &portClaims{}
	boards, err := hallBoards(&cfg, func(b config.Board) (hall.Board, error) {
		if strings.TrimSpace(b.Port) == "" {
			return hall.Board{}, errors.New("no port: give a device path (e.g. /dev/ttyACM0) or auto")
		}
		return hall.Board{Open: serialOpener(b.Port, claims, 0, log.With("port", b.Port))}, nil
	}, log)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	n, err := sdnotify.New()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Warn("systemd notification socket unusable", "err", err)
	}
	defer n.Close()
	return runDaemon(ctx, cfg, daemonHooks{Boards: boards}, log, n)
}
