// Package storagetest provides a file system for tests whose calls can be
// made to fail or to stall: the daemon's answer to a full disk, an I/O
// error, a process out of file descriptors or a disk that takes seconds to
// flush is then tested like any other input.
package storagetest

import (
	"io/fs"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
)

// Op is a kind of file system call.
type Op uint8

const (
	// Open is OpenFile (creating a file, or opening one).
	Open Op = iota
	// Write is a File's Write or WriteAt.
	Write
	// Sync is a File's Sync (fsync).
	Sync
	// SyncDir is FS.SyncDir.
	SyncDir
	// Rename is FS.Rename.
	Rename
	// Remove is FS.Remove.
	Remove
	// Truncate is a File's Truncate.
	Truncate
	// Mkdir is FS.MkdirAll.
	Mkdir
	numOps
)

var opNames = [numOps]string{"open", "write", "sync", "syncdir", "rename", "remove", "truncate", "mkdir"}

// String names the op.
func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return "op?"
}

// rule is one fault: calls of op on a path containing path (any path when
// empty) fail with err, or wait for release when stall is set.
type rule struct {
	op    Op
	path  string
	err   error
	stall chan struct{}
}

// FS wraps a file system (storage.OS by default) with faults. Without
// faults it passes every call through. Safe for concurrent use; the faults
// can be changed while the daemon runs. Reads never fail.
type FS struct {
	inner storage.FS

	mu    sync.Mutex
	rules []rule
	calls [numOps]atomic.Int64
	fails [numOps]atomic.Int64
	// written: bytes written successfully, by file name.
	written sync.Map // string → *atomic.Int64
}

// New returns a file system over inner (nil: storage.OS) with no faults.
func New(inner storage.FS) *FS { return &FS{inner: storage.Or(inner)} }

// Fail makes every later op on a path containing path ("" any path) fail
// with err (e.g. syscall.ENOSPC, syscall.EIO, syscall.EMFILE), wrapped as
// the os package wraps it, until Heal.
func (f *FS) Fail(op Op, path string, err error) {
	f.mu.Lock()
	f.rules = append(f.rules, rule{op: op, path: path, err: err})
	f.mu.Unlock()
}

// Stall makes every later op on a path containing path wait until the
// returned release is called (or Heal): a disk that does not answer. The
// op then goes through. release may be called more than once.
func (f *FS) Stall(op Op, path string) (release func()) {
	ch := make(chan struct{})
	f.mu.Lock()
	f.rules = append(f.rules, rule{op: op, path: path, stall: ch})
	f.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(ch)
			f.mu.Lock()
			for i, r := range f.rules {
				if r.stall == ch {
					f.rules = append(f.rules[:i], f.rules[i+1:]...)
					break
				}
			}
			f.mu.Unlock()
		})
	}
}

// Heal removes the faults of ops (every fault when none is named) and
// releases their stalled calls.
func (f *FS) Heal(ops ...Op) {
	f.mu.Lock()
	var rules, keep []rule
	for _, r := range f.rules {
		if len(ops) == 0 || slices.Contains(ops, r.op) {
			rules = append(rules, r)
		} else {
			keep = append(keep, r)
		}
	}
	f.rules = keep
	f.mu.Unlock()
	for _, r := range rules {
		if r.stall != nil {
			select {
			case <-r.stall:
			default:
				close(r.stall)
			}
		}
	}
}

// Calls returns how many calls of op were made (failed ones included).
func (f *FS) Calls(op Op) int64 { return f.calls[op].Load() }

// Failed returns how many calls of op failed by a fault.
func (f *FS) Failed(op Op) int64 { return f.fails[op].Load() }

// Written returns how many bytes were written (by Write and WriteAt that
// succeeded) to files whose path contains path ("" every file), since
// the FS was made: what a change costs the disk.
func (f *FS) Written(path string) int64 {
	var n int64
	f.written.Range(func(k, v any) bool {
		if strings.Contains(k.(string), path) {
			n += v.(*atomic.Int64).Load()
		}
		return true
	})
	return n
}

// wrote counts n bytes written to name.
func (f *FS) wrote(name string, n int) {
	if n <= 0 {
		return
	}
	c, ok := f.written.Load(name)
	if !ok {
		c, _ = f.written.LoadOrStore(name, new(atomic.Int64))
	}
	c.(*atomic.Int64).Add(int64(n))
}

// check applies the faults to a call of op on path: it waits out stalls
// and returns the error of the first failing rule.
func (f *FS) check(op Op, path string) error {
	f.calls[op].Add(1)
	for {
		f.mu.Lock()
		var stall chan struct{}
		var err error
		for _, r := range f.rules {
			if r.op != op || !strings.Contains(path, r.path) {
				continue
			}
			if r.stall != nil {
				stall = r.stall
				break
			}
			err = r.err
			break
		}
		f.mu.Unlock()
		if stall != nil {
			<-stall
			continue // released: the rules may have changed
		}
		if err != nil {
			f.fails[op].Add(1)
			return &fs.PathError{Op: op.String(), Path: path, Err: err}
		}
		return nil
	}
}

// OpenFile opens through the inner file system; a fault on Open fails it.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (storage.File, error) {
	if err := f.check(Open, name); err != nil {
		return nil, err
	}
	file, err := f.inner.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &faultyFile{File: file, fs: f, name: name}, nil
}

// ReadFile reads through the inner file system.
func (f *FS) ReadFile(name string) ([]byte, error) { return f.inner.ReadFile(name) }

// ReadDir reads through the inner file system.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) { return f.inner.ReadDir(name) }

// MkdirAll creates through the inner file system unless a Mkdir fault.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	if err := f.check(Mkdir, name); err != nil {
		return err
	}
	return f.inner.MkdirAll(name, perm)
}

// Rename renames through the inner file system unless a Rename fault
// (matched on the new path).
func (f *FS) Rename(oldpath, newpath string) error {
	if err := f.check(Rename, newpath); err != nil {
		return err
	}
	return f.inner.Rename(oldpath, newpath)
}

// Remove removes through the inner file system unless a Remove fault.
func (f *FS) Remove(name string) error {
	if err := f.check(Remove, name); err != nil {
		return err
	}
	return f.inner.Remove(name)
}

// SyncDir syncs through the inner file system unless a SyncDir fault.
func (f *FS) SyncDir(name string) error {
	if err := f.check(SyncDir, name); err != nil {
		return err
	}
	return f.inner.SyncDir(name)
}

// faultyFile is a file whose writes, syncs and truncations go through
// the faults. A failed write writes nothing.
type faultyFile struct {
	storage.File
	fs   *FS
	name string
}

func (f *faultyFile) Write(b []byte) (int, error) {
	if err := f.fs.check(Write, f.name); err != nil {
		return 0, err
	}
	n, err := f.File.Write(b)
	f.fs.wrote(f.name, n)
	return n, err
}

func (f *faultyFile) WriteAt(b []byte, off int64) (int, error) {
	if err := f.fs.check(Write, f.name); err != nil {
		return 0, err
	}
	n, err := f.File.WriteAt(b, off)
	f.fs.wrote(f.name, n)
	return n, err
}

func (f *faultyFile) Sync() error {
	if err := f.fs.check(Sync, f.name); err != nil {
		return err
	}
	return f.File.Sync()
}

func (f *faultyFile) Truncate(size int64) error {
	if err := f.fs.check(Truncate, f.name); err != nil {
		return err
	}
	return f.File.Truncate(size)
}
