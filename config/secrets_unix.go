//go:build unix

package config

import (
	"io/fs"
	"syscall"
)

func fileGroup(st fs.FileInfo) (int, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(s.Gid), true
}
