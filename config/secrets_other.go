//go:build !unix

package config

import "io/fs"

func fileGroup(fs.FileInfo) (int, bool) { return 0, false }
