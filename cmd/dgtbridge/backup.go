package main

import (
	"context"
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/internal/cli"
)

// runBackup implements "dgtbridge backup [--config FILE | --data-dir DIR]
// DIR": a consistent copy of the data folder (data_dir) into DIR, a folder
// that must not exist yet, whether the daemon runs or not
// (storage.Backup; docs/operations.md).
func runBackup(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("backup", "[--config FILE | --data-dir DIR] DIR",
		"Copy the data folder (data_dir: the game records, the outbox, the embedded NATS store, the recordings)\n"+
			"into DIR, a folder that must not exist yet, while the daemon runs or not. The copy is a data folder a\n"+
			"daemon starts on: every game resumes from it (docs/operations.md, \"Backup and restore\").", stderr)
	file := fs.String("config", "", "configuration file whose data_dir is copied (default ./dgtbridge.yaml, then /etc/dgtbridge/dgtbridge.yaml)")
	dataDir := fs.String("data-dir", "", "the data folder to copy (instead of the configuration's data_dir)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.UsageError{Err: fmt.Errorf("backup: give the folder to copy into, once (e.g. dgtbridge backup /media/usb/dgtbridge-round3)")}
	}
	if *dataDir != "" && *file != "" {
		return cli.UsageError{Err: fmt.Errorf("backup: give --config or --data-dir, not both")}
	}
	src := *dataDir
	if src == "" {
		cfg, err := config.Load(config.LoadOptions{File: *file})
		if err != nil {
			return err
		}
		src = cfg.DataDir
	}
	rep, err := storage.Backup(src, fs.Arg(0))
	if err != nil {
		return fmt.Errorf("backup of %s: %w", src, err)
	}
	fmt.Fprintf(stdout, "backup of %s in %s: %d files, %d bytes\n", src, fs.Arg(0), rep.Files+1, rep.Bytes)
	return nil
}
