package storage

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The data folder is copied while a daemon may be writing it, without its
// help, by an order and a rule that its formats make safe:
//
//  1. the game journal (games/journal/<n>.seg), in the order of its
//     segments, then the record files (games/<g>.json): a record file is
//     only ever replaced whole (written aside, then renamed), and names
//     the last journal entry it holds, so a record file copied after the
//     journal is as new as the journal's copy or newer, and a segment that
//     disappears meanwhile was written into the record files first;
//  2. then the outbox (outbox/<n>.seg): messages go there only after the
//     journal holds their change, and leave it only once NATS has them,
//     so the outbox copied after the games holds every message of the
//     games' copy not yet in the server's store;
//  3. then the rest: the embedded server's store (nats/, copied after the
//     outbox, so it holds every message the outbox let go of), the
//     recordings (record/), anything else.
//
// The journal and the outbox are append-only logs of checksummed frames:
// each segment is copied up to the end of its last whole frame, so a frame
// the daemon is writing at that moment (not yet flushed, so not yet
// acknowledged to anyone) is left out, as a power cut would. Each game
// is copied as it was at one moment; two games may be a few milliseconds
// apart, which nothing relies on.

// allKinds makes Scan take a frame whatever its kind: a copy keeps every
// frame whose checksum matches.
var allKinds = func() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// ErrBackupTarget: the backup's folder exists already, or is inside the
// data folder (a backup never writes into or over another folder).
var ErrBackupTarget = errors.New("storage: the backup folder exists already")

// BackupReport says what a backup copied.
type BackupReport struct {
	Files int   // files copied
	Bytes int64 // bytes written
	// Trimmed counts the journal and outbox segments copied without the
	// frame being written at that moment.
	Trimmed int
	// Vanished counts files removed by the daemon between the listing of
	// their folder and their copy (a compaction's old segments).
	Vanished int
}

// Backup copies the data folder src into dst, which must not exist: it is
// written as dst+".partial" and renamed to dst once whole and flushed to
// disk, so a folder named dst is always a whole backup. It is safe while a
// daemon writes src (see above) and when none runs. src's format is
// checked first: a folder of a newer format is a *FormatError, nothing
// copied. dst is a data folder a daemon can start on (data_dir).
func Backup(src, dst string) (BackupReport, error) {
	var rep BackupReport
	if _, err := os.Stat(dst); err == nil {
		return rep, fmt.Errorf("%w: %s", ErrBackupTarget, dst)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return rep, err
	}
	st, err := os.Stat(src)
	if err != nil {
		return rep, fmt.Errorf("storage: the data folder: %w", err)
	}
	if !st.IsDir() {
		return rep, fmt.Errorf("storage: the data folder %s is not a folder", src)
	}
	if inside(src, dst) {
		return rep, fmt.Errorf("%w: %s is inside the data folder %s: give a folder elsewhere (another disk is best)", ErrBackupTarget, dst, src)
	}
	format, err := readFormat(src)
	if err != nil {
		return rep, err
	}
	tmp := dst + ".partial"
	if err := os.RemoveAll(tmp); err != nil {
		return rep, err
	}
	c := &copier{src: src, dst: tmp, rep: &rep}
	steps := []func() error{
		func() error { return c.segments("games/journal") },
		func() error { return c.files("games") },
		func() error { return c.segments("outbox") },
		func() error { return c.rest("", map[string]bool{"games": true, "outbox": true, FormatFile: true}) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			os.RemoveAll(tmp)
			return rep, err
		}
	}
	if err := c.write(FormatFile, fmt.Appendf(nil, "dgtbridge data format %d\n", format)); err != nil {
		os.RemoveAll(tmp)
		return rep, err
	}
	if err := c.syncDirs(); err != nil {
		os.RemoveAll(tmp)
		return rep, err
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		return rep, err
	}
	return rep, osFS{}.SyncDir(filepath.Dir(dst))
}

// inside reports whether path p is dir or under it.
func inside(dir, p string) bool {
	d, err1 := filepath.Abs(dir)
	q, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return false
	}
	if r, err := filepath.EvalSymlinks(d); err == nil {
		d = r
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(q)); err == nil {
		q = filepath.Join(r, filepath.Base(q))
	}
	rel, err := filepath.Rel(d, q)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// readFormat returns the format of the data folder dir (1 for a folder
// without a format file), or a *FormatError.
func readFormat(dir string) (int, error) {
	path := filepath.Join(dir, FormatFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 1, nil
	}
	if err != nil {
		return 0, &FormatError{Path: path, Err: err}
	}
	f, err := parseFormat(b)
	if err != nil {
		return 0, &FormatError{Path: path, Err: err}
	}
	if f > DataFormat {
		return f, &FormatError{Path: path, Found: f, Err: ErrNewerFormat}
	}
	return f, nil
}

// copier copies files of src into dst (same relative paths).
type copier struct {
	src, dst string
	rep      *BackupReport
	dirs     []string // made, to be flushed
}

// mkdir makes dst's folder rel (and its parents).
func (c *copier) mkdir(rel string) error {
	d := filepath.Join(c.dst, rel)
	if err := os.MkdirAll(d, DirMode); err != nil {
		return err
	}
	if !slices.Contains(c.dirs, d) {
		c.dirs = append(c.dirs, d)
	}
	return nil
}

// list returns the entries of src's folder rel (none when it does not
// exist).
func (c *copier) list(rel string) ([]fs.DirEntry, error) {
	es, err := os.ReadDir(filepath.Join(c.src, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return es, err
}

// segments copies the segment files <n>.seg of folder rel in the order of
// n, each up to the end of its last whole frame.
func (c *copier) segments(rel string) error {
	es, err := c.list(rel)
	if err != nil {
		return err
	}
	names := map[uint64]string{}
	var ids []uint64
	for _, e := range es {
		base, ok := strings.CutSuffix(e.Name(), ".seg")
		if id, err := strconv.ParseUint(base, 10, 64); ok && err == nil && e.Type().IsRegular() {
			ids = append(ids, id)
			names[id] = e.Name()
		}
	}
	slices.Sort(ids)
	if err := c.mkdir(rel); err != nil {
		return err
	}
	for _, id := range ids {
		if err := c.copyFile(filepath.Join(rel, names[id]), true); err != nil {
			return err
		}
	}
	// What else the folder holds (segments set aside as damaged, kept
	// as evidence) is copied whole.
	for _, e := range es {
		base, ok := strings.CutSuffix(e.Name(), ".seg")
		if _, err := strconv.ParseUint(base, 10, 64); ok && err == nil || !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".tmp-") {
			continue
		}
		if err := c.copyFile(filepath.Join(rel, e.Name()), false); err != nil {
			return err
		}
	}
	return nil
}

// files copies the regular files of folder rel (not its subfolders), but
// not files being written aside (".tmp-…").
func (c *copier) files(rel string) error {
	es, err := c.list(rel)
	if err != nil {
		return err
	}
	if err := c.mkdir(rel); err != nil {
		return err
	}
	for _, e := range es {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".tmp-") {
			continue
		}
		if err := c.copyFile(filepath.Join(rel, e.Name()), false); err != nil {
			return err
		}
	}
	return nil
}

// rest copies everything under rel whole but the entries skip names.
func (c *copier) rest(rel string, skip map[string]bool) error {
	es, err := c.list(rel)
	if err != nil {
		return err
	}
	if err := c.mkdir(rel); err != nil {
		return err
	}
	for _, e := range es {
		name := filepath.Join(rel, e.Name())
		switch {
		case skip[name]:
		case e.IsDir():
			if err := c.rest(name, nil); err != nil {
				return err
			}
		case e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".tmp-"):
			if err := c.copyFile(name, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyFile copies src's file rel to dst: whole, or (framed) up to the end
// of its last whole frame. A file gone meanwhile is counted, not an error.
func (c *copier) copyFile(rel string, framed bool) error {
	in, err := os.Open(filepath.Join(c.src, rel))
	if errors.Is(err, fs.ErrNotExist) {
		c.rep.Vanished++
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	n := st.Size()
	if framed {
		res, err := Scan(in, n, allKinds, func(int64, []byte) error { return nil })
		if err != nil {
			return fmt.Errorf("storage: backup: %s: %w", rel, err)
		}
		if res.End < n {
			c.rep.Trimmed++
		}
		n = res.End
	}
	out, err := os.OpenFile(filepath.Join(c.dst, rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm()|0o600)
	if err != nil {
		return err
	}
	m, err := io.Copy(out, io.NewSectionReader(in, 0, n))
	if err == nil && m < n && !framed {
		// The file shrank while it was read: it is not a file the
		// daemon writes (those only grow or are replaced whole).
		err = fmt.Errorf("storage: backup: %s shrank while it was copied", rel)
	}
	if serr := out.Sync(); err == nil {
		err = serr
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("storage: backup: %s: %w", rel, err)
	}
	c.rep.Files++
	c.rep.Bytes += m
	return nil
}

// write writes a file of dst.
func (c *copier) write(rel string, b []byte) error {
	f, err := os.OpenFile(filepath.Join(c.dst, rel), os.O_WRONLY|os.O_CREATE|os.O_EXCL, FileMode)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDirs flushes every folder made, deepest first.
func (c *copier) syncDirs() error {
	slices.SortFunc(c.dirs, func(a, b string) int { return len(b) - len(a) })
	for _, d := range c.dirs {
		if err := (osFS{}).SyncDir(d); err != nil {
			return err
		}
	}
	return nil
}
