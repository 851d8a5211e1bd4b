package storage

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// File is an open file of an [FS].
type File interface {
	io.Reader
	io.Writer
	io.ReaderAt
	io.WriterAt
	// Sync commits the file's content to stable storage (fsync).
	Sync() error
	// Truncate changes the file's size.
	Truncate(size int64) error
	// Stat describes the file.
	Stat() (fs.FileInfo, error)
	Close() error
}

// FS is the file system the daemon writes through. Paths are OS paths.
// Errors are the os package's (*fs.PathError, *os.LinkError wrapping a
// syscall.Errno), so errors.Is(err, syscall.ENOSPC) and the like hold.
type FS interface {
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	ReadFile(name string) ([]byte, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	MkdirAll(name string, perm fs.FileMode) error
	Rename(oldpath, newpath string) error
	Remove(name string) error
	// SyncDir fsyncs a directory, making the renames, creations and
	// removals in it durable. A file system without directory fsync
	// (EINVAL) counts as done.
	SyncDir(name string) error
}

// OS is the operating system's file system.
var OS FS = osFS{}

type osFS struct{}

func (osFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err // a nil *os.File must not become a non-nil File
	}
	return f, nil
}

func (osFS) ReadFile(name string) ([]byte, error)         { return os.ReadFile(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error)   { return os.ReadDir(name) }
func (osFS) MkdirAll(name string, perm fs.FileMode) error { return os.MkdirAll(name, perm) }
func (osFS) Rename(oldpath, newpath string) error         { return os.Rename(oldpath, newpath) }
func (osFS) Remove(name string) error                     { return os.Remove(name) }
func (osFS) SyncDir(name string) error {
	d, err := os.Open(name)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) {
		return nil
	}
	return err
}

// Or returns fsys, or [OS] when fsys is nil.
func Or(fsys FS) FS {
	if fsys == nil {
		return OS
	}
	return fsys
}
