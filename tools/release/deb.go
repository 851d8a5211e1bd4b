package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dgtbridge/dgtbridge/internal/release"
	"github.com/goreleaser/nfpm/v2"
	"github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
)

const description = `electronic chess boards and clocks to NATS
dgtbridge reads DGT electronic chess boards (USB, serial, DGT bus lines,
Bluetooth) and Open Board Protocol boards with their clocks, reconstructs
the moves, judges them by the event's rules, and publishes the games over
NATS (its own embedded server or an external one), with a delayed public
copy, PGN over HTTP, web pages for spectators and arbiters, and an optional
push to Lichess broadcasts. It runs as a systemd service; a new round is a
configuration edit and "systemctl reload dgtbridge".`

// debPackage writes the Debian package of t into o.out and returns its
// file name.
func debPackage(ctx context.Context, o options, src release.Source, t release.Target, bin string, man []byte) (string, error) {
	version := src.Version()
	binary, err := os.ReadFile(bin)
	if err != nil {
		return "", err
	}
	notices, err := notices(ctx, src, version, bin)
	if err != nil {
		return "", err
	}
	fl, err := release.DebFiles(src.Root, release.Inputs{
		Version: version, Commit: src.Commit, Time: src.Time,
		Binary: binary, ManPage: man, Notices: notices, Maintain: o.maintainer,
	})
	if err != nil {
		return "", err
	}
	stage := filepath.Join(o.out, "stage", t.DebArch)
	if err := os.RemoveAll(stage); err != nil {
		return "", err
	}
	defer os.RemoveAll(filepath.Join(o.out, "stage"))
	if err := release.Stage(filepath.Join(stage, "root"), fl); err != nil {
		return "", err
	}
	postinst, prerm, postrm := release.Scripts()
	scripts := []release.File{
		{Path: "/postinst", Data: postinst, Mode: 0o755},
		{Path: "/prerm", Data: prerm, Mode: 0o755},
		{Path: "/postrm", Data: postrm, Mode: 0o755},
	}
	if err := release.Stage(filepath.Join(stage, "scripts"), scripts); err != nil {
		return "", err
	}
	var contents files.Contents
	for _, f := range fl {
		typ := files.TypeFile
		if f.Conffile {
			typ = files.TypeConfigNoReplace
		}
		contents = append(contents, &files.Content{
			Source:      filepath.Join(stage, "root", filepath.FromSlash(f.Path)),
			Destination: f.Path,
			Type:        typ,
			FileInfo:    &files.ContentFileInfo{Mode: f.Mode, MTime: src.Time, Owner: "root", Group: "root"},
		})
	}
	info := &nfpm.Info{
		Name:          "dgtbridge",
		Arch:          t.DebArch,
		Platform:      "linux",
		Version:       version,
		VersionSchema: "none",
		Release:       release.DebRevision,
		Section:       "misc",
		Priority:      "optional",
		Maintainer:    o.maintainer,
		Description:   description,
		License:       "GPL-3.0-or-later",
		MTime:         src.Time,
		Overridables: nfpm.Overridables{
			Depends:  []string{"adduser"},
			Suggests: []string{"espeak-ng"},
			Contents: contents,
			Umask:    0o022,
			Scripts: nfpm.Scripts{
				PostInstall: filepath.Join(stage, "scripts", "postinst"),
				PreRemove:   filepath.Join(stage, "scripts", "prerm"),
				PostRemove:  filepath.Join(stage, "scripts", "postrm"),
			},
			Deb: nfpm.Deb{Compression: "xz"},
		},
	}
	info = nfpm.WithDefaults(info)
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return "", err
	}
	name := deb.Default.ConventionalFileName(info)
	tmp := filepath.Join(o.out, name+".tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return "", err
	}
	if err := deb.Default.Package(info, f); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return name, os.Rename(tmp, filepath.Join(o.out, name))
}

// notices gathers the third-party notices of the binary bin.
func notices(ctx context.Context, src release.Source, version, bin string) ([]byte, error) {
	goVersion, mods, err := release.BinaryModules(bin)
	if err != nil {
		return nil, err
	}
	if err := release.ReadLicences(ctx, src.Root, mods); err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	goLicence, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "LICENSE"))
	if err != nil {
		return nil, err
	}
	web, err := os.ReadFile(filepath.Join(src.Root, "web", "dist", "assets", "licenses.txt"))
	if err != nil {
		return nil, err
	}
	return release.Notices(version, goVersion, goLicence, mods, web), nil
}
