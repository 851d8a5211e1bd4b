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

// FileMode and DirMode are the widest modes of what the daemon writes
// through [OS]: read and written by its user, read by its group, nothing
// for others (game records and journals hold the live games, minutes
// ahead of the public copy). [OS] never creates anything wider, whatever
// mode a caller asks for and whatever the umask (which can only narrow
// it), and narrows a file it opens for writing that is wider (left by an
// older version or a copy). A folder that already exists is left as it is:
// data_dir may be a folder the daemon does not own alone (a sticky /tmp, a
// home), which it must not change.
const (
	FileMode fs.FileMode = 0o640
	DirMode  fs.FileMode = 0o750
)

// OS is the operating system's file system.
var OS FS = osFS{}

type osFS struct{}

func (osFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	f, err := os.OpenFile(name, flag, perm&FileMode)
	if err != nil {
		return nil, err // a nil *os.File must not become a non-nil File
	}
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		narrow(f, FileMode)
	}
	return f, nil
}

// narrow takes from f the permission bits outside widest. A file the
// daemon cannot change (another user's) is left as it is: the write
// matters more.
func narrow(f interface {
	Stat() (fs.FileInfo, error)
	Chmod(fs.FileMode) error
}, widest fs.FileMode) {
	if st, err := f.Stat(); err == nil && st.Mode().Perm()&^widest != 0 {
		_ = f.Chmod(st.Mode().Perm() & widest)
	}
}

func (osFS) ReadFile(name string) ([]byte, error)         { return os.ReadFile(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error)   { return os.ReadDir(name) }
func (osFS) MkdirAll(name string, perm fs.FileMode) error { return os.MkdirAll(name, perm&DirMode) }
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
