package release

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Paths of the installed package.
const (
	BinPath      = "/usr/bin/dgtbridge"
	UnitPath     = "/lib/systemd/system/dgtbridge.service"
	RulesPath    = "/lib/udev/rules.d/70-dgt.rules"
	ConfigPath   = "/etc/dgtbridge/dgtbridge.yaml"
	PairingsPath = "/etc/dgtbridge/pairings.csv"
	ManPath      = "/usr/share/man/man1/dgtbridge.1.gz"
	DocDir       = "/usr/share/doc/dgtbridge"
	StateDir     = "/var/lib/dgtbridge"
)

// File is one file of the Debian package: its path once installed, its
// bytes, its mode, and whether it is a conffile (an upgrade keeps the
// organiser's edited copy; dpkg asks when both changed).
type File struct {
	Path     string
	Data     []byte
	Mode     fs.FileMode
	Conffile bool
}

// Inputs are what the package is made of besides the checkout's own files.
type Inputs struct {
	Version  string    // the release's version (Source.Version)
	Commit   string    // the commit, named in the changelog
	Time     time.Time // the commit's time: the changelog's date
	Binary   []byte    // the daemon built for the package's target
	ManPage  []byte    // roff (ManPage), compressed here
	Notices  []byte    // Notices, compressed here
	Maintain string    // the Maintainer field: "Name <address>"
}

// DebFiles lists the package's files, reading the unit, the udev rules,
// the example configuration and pairing file and the operations guide
// from the checkout at root.
func DebFiles(root string, in Inputs) ([]File, error) {
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) }
	unit, err := read("systemd/dgtbridge.service")
	if err != nil {
		return nil, err
	}
	if unit, err = PackagedUnit(unit); err != nil {
		return nil, err
	}
	rules, err := read("systemd/70-dgt.rules")
	if err != nil {
		return nil, err
	}
	example, err := read("config/example/dgtbridge.yaml")
	if err != nil {
		return nil, err
	}
	conf, err := InstalledConfig(example)
	if err != nil {
		return nil, err
	}
	pairings, err := read("config/example/pairings.csv")
	if err != nil {
		return nil, err
	}
	ops, err := read("docs/operations.md")
	if err != nil {
		return nil, err
	}
	return []File{
		{Path: BinPath, Data: in.Binary, Mode: 0o755},
		{Path: UnitPath, Data: unit, Mode: 0o644},
		{Path: RulesPath, Data: rules, Mode: 0o644},
		{Path: ConfigPath, Data: conf, Mode: 0o640, Conffile: true},
		{Path: PairingsPath, Data: pairings, Mode: 0o644, Conffile: true},
		{Path: ManPath, Data: Gzip(in.ManPage), Mode: 0o644},
		{Path: DocDir + "/copyright", Data: Copyright(in.Time), Mode: 0o644},
		{Path: DocDir + "/changelog.Debian.gz", Data: Gzip(Changelog(in.Version, in.Commit, in.Maintain, in.Time)), Mode: 0o644},
		{Path: DocDir + "/third-party-notices.txt.gz", Data: Gzip(in.Notices), Mode: 0o644},
		// The unit's Documentation= names this file, so it stays uncompressed.
		{Path: DocDir + "/operations.md", Data: ops, Mode: 0o644},
		{Path: "/usr/share/lintian/overrides/dgtbridge", Data: []byte(lintianOverrides), Mode: 0o644},
	}, nil
}

// lintianOverrides are the lintian tags the package raises on purpose.
const lintianOverrides = `# Go links its runtime and every module into one binary; it is built
# without cgo so that the same file runs on every system of its
# architecture.
dgtbridge: statically-linked-binary [usr/bin/dgtbridge]
# The configuration may hold NATS passwords: readable by root and the
# service's group only (postinst sets the group).
dgtbridge: non-standard-file-perm 0640 != 0644 [etc/dgtbridge/dgtbridge.yaml]
`

// Gzip compresses b as Debian wants documentation and manual pages: best
// compression, no name and no time in the header (the same bytes every
// build).
func Gzip(b []byte) []byte {
	var out bytes.Buffer
	w, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// unitExec is the unit's ExecStart for a binary installed by hand; the
// package's binary is in /usr/bin.
const unitExec = "ExecStart=/usr/local/bin/dgtbridge "

// PackagedUnit is the systemd unit with ExecStart on the package's binary.
func PackagedUnit(unit []byte) ([]byte, error) {
	if bytes.Count(unit, []byte(unitExec)) != 1 {
		return nil, fmt.Errorf("systemd/dgtbridge.service: no single %q line to point at %s", unitExec, BinPath)
	}
	return bytes.Replace(unit, []byte(unitExec), []byte("ExecStart="+BinPath+" "), 1), nil
}

// exampleDataDir is the example's data_dir line; the installed
// configuration keeps its data where the unit does.
const exampleDataDir = "\ndata_dir: ./data\n"

// configHeader opens the installed configuration.
const configHeader = `# /etc/dgtbridge/dgtbridge.yaml, installed by the dgtbridge package, which
# keeps your edits on upgrades (a conffile). The service reads it:
#   sudo dgtbridge run --check --config /etc/dgtbridge/dgtbridge.yaml
#   sudo systemctl enable --now dgtbridge      # the first time
#   sudo systemctl reload dgtbridge            # after each edit (a new round)
# The boards below are an example: list yours.
#
`

// InstalledConfig is the example configuration as the package installs
// it: a header saying how to use it, and data_dir on the service's state
// folder.
func InstalledConfig(example []byte) ([]byte, error) {
	if bytes.Count(example, []byte(exampleDataDir)) != 1 {
		return nil, fmt.Errorf("config/example/dgtbridge.yaml: no single %q line to point at %s", strings.TrimSpace(exampleDataDir), StateDir)
	}
	out := bytes.Replace(example, []byte(exampleDataDir), []byte("\ndata_dir: "+StateDir+"\n"), 1)
	return append([]byte(configHeader), out...), nil
}

// firstYear is the year of the first release.
const firstYear = 2026

// Copyright is /usr/share/doc/dgtbridge/copyright, in Debian's
// machine-readable format, for a commit made at t.
func Copyright(t time.Time) []byte {
	years := fmt.Sprint(firstYear)
	if y := t.UTC().Year(); y > firstYear {
		years += fmt.Sprintf("-%d", y)
	}
	return []byte(`Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: dgtbridge
Comment: The binary also contains the Go standard library and Go modules, and
 its web pages contain npm packages: their licences are in
 /usr/share/doc/dgtbridge/third-party-notices.txt.gz.

Files: *
Copyright: ` + years + ` the dgtbridge authors
License: GPL-3+

License: GPL-3+
 This program is free software: you can redistribute it and/or modify it
 under the terms of the GNU General Public License as published by the Free
 Software Foundation, either version 3 of the License, or (at your option)
 any later version.
 .
 This program is distributed in the hope that it will be useful, but WITHOUT
 ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for
 more details.
 .
 On Debian systems, the complete text of the GNU General Public License
 version 3 can be found in "/usr/share/common-licenses/GPL-3".
`)
}

// DebRevision is the Debian revision of every package: the packaging
// changes only with the source.
const DebRevision = "1"

// Changelog is the package's changelog.Debian: one entry, for the commit.
func Changelog(version, commit, maintainer string, t time.Time) []byte {
	return []byte(fmt.Sprintf("dgtbridge (%s-%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n",
		version, DebRevision, commit, maintainer, t.UTC().Format("Mon, 02 Jan 2006 15:04:05 -0700")))
}

//go:embed debian/postinst debian/prerm debian/postrm
var scripts embed.FS

// Scripts are the maintainer scripts: postinst creates the system user
// (group dialout) and the state folder, prerm stops the service on
// removal, postrm removes data and configuration on purge only.
func Scripts() (postinst, prerm, postrm []byte) {
	read := func(n string) []byte {
		b, err := scripts.ReadFile("debian/" + n)
		if err != nil {
			panic(err) // embedded above: cannot happen
		}
		return b
	}
	return read("postinst"), read("prerm"), read("postrm")
}

// Stage writes files under dir (dir + each file's path), with their modes.
func Stage(dir string, files []File) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, f.Mode); err != nil {
			return err
		}
		if err := os.Chmod(p, f.Mode); err != nil {
			return err
		}
	}
	return nil
}
