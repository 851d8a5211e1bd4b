package recording

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// TimeLayout is the timestamp layout the hexlog writer uses: RFC 3339 in
// UTC with microseconds.
const TimeLayout = "2006-01-02T15:04:05.000000Z07:00"

// LogWriter writes hexlog lines to an io.Writer. It batches them: a line
// is written within FlushDelay (250 ms) of being logged, or at once when
// 64 KB are waiting, so a busy board costs one write system call per batch
// instead of one per chunk; [LogWriter.Flush] writes what waits. It is safe
// for concurrent use. After the first write error it writes nothing more
// and reports that error from every later call and from Err.
type LogWriter struct {
	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	err   error
	timer *time.Timer // pending flush, nil when nothing waits
}

// Batching limits of [LogWriter].
const (
	FlushDelay = 250 * time.Millisecond
	maxBatch   = 64 << 10
)

// NewLogWriter returns a LogWriter on w.
func NewLogWriter(w io.Writer) *LogWriter { return &LogWriter{w: w} }

const hexDigits = "0123456789abcdef"

// AppendLine appends the hexlog line for a chunk, newline included.
func AppendLine(b []byte, at time.Time, dir Dir, p []byte) []byte {
	b = at.UTC().AppendFormat(b, TimeLayout)
	b = append(b, ' ', byte(dir))
	for _, c := range p {
		b = append(b, ' ', hexDigits[c>>4], hexDigits[c&0x0F])
	}
	return append(b, '\n')
}

// Log adds one line; it is written within FlushDelay. Empty chunks are
// not logged. It returns the first write error met so far (a line that
// waits has not met its own yet).
func (l *LogWriter) Log(at time.Time, dir Dir, p []byte) error {
	if len(p) == 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	l.buf = AppendLine(l.buf, at, dir, p)
	switch {
	case len(l.buf) >= maxBatch:
		l.flushLocked()
	case l.timer == nil:
		l.timer = time.AfterFunc(FlushDelay, func() { l.Flush() })
	}
	return l.err
}

// Flush writes the lines that wait and returns the first write error.
func (l *LogWriter) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushLocked()
	return l.err
}

func (l *LogWriter) flushLocked() {
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	if len(l.buf) == 0 || l.err != nil {
		l.buf = l.buf[:0]
		return
	}
	if _, err := l.w.Write(l.buf); err != nil {
		l.err = fmt.Errorf("record: %w", err)
	}
	if cap(l.buf) > 2*maxBatch {
		l.buf = nil // a burst grew it: do not keep it
	} else {
		l.buf = l.buf[:0]
	}
}

// Err returns the first write error, or nil.
func (l *LogWriter) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Tap is a port that records its traffic: every Read is logged as
// board→host and every Write as host→board, with the time from its
// clock. A failing log does not fail the port (the board matters more
// than its recording); the first log error is kept in [Tap.Err]. Read
// and Write may be called from different goroutines.
type Tap struct {
	rw  io.ReadWriter
	log *LogWriter
	now func() time.Time
}

// NewTap returns a Tap on port rw logging to log. now is the time source
// (nil: time.Now).
func NewTap(rw io.ReadWriter, log *LogWriter, now func() time.Time) *Tap {
	if now == nil {
		now = time.Now
	}
	return &Tap{rw: rw, log: log, now: now}
}

// Read reads from the port and logs the bytes read, stamped when Read
// returns.
func (t *Tap) Read(p []byte) (int, error) {
	n, err := t.rw.Read(p)
	if n > 0 {
		_ = t.log.Log(t.now(), FromBoard, p[:n])
	}
	return n, err
}

// Write writes to the port and logs the bytes written, stamped when
// Write was called.
func (t *Tap) Write(p []byte) (int, error) {
	at := t.now()
	n, err := t.rw.Write(p)
	if n > 0 {
		_ = t.log.Log(at, ToBoard, p[:n])
	}
	return n, err
}

// SetReadDeadline passes a read deadline on to the port when it takes one
// (os.ErrNoDeadline otherwise), so a port read with deadlines (dgt/bus)
// keeps doing so when recorded.
func (t *Tap) SetReadDeadline(d time.Time) error {
	if p, ok := t.rw.(interface{ SetReadDeadline(time.Time) error }); ok {
		return p.SetReadDeadline(d)
	}
	return os.ErrNoDeadline
}

// Close closes the port if it is an io.Closer and flushes the log (which
// stays open: it is the caller's).
func (t *Tap) Close() error {
	var err error
	if c, ok := t.rw.(io.Closer); ok {
		err = c.Close()
	}
	t.log.Flush()
	return err
}

// Err returns the first logging error, or nil.
func (t *Tap) Err() error { return t.log.Err() }

// Flush writes the log's waiting lines and returns its first error.
func (t *Tap) Flush() error { return t.log.Flush() }

// FileTimeLayout names recording files: the start time in UTC, with no
// characters that need quoting in a shell.
const FileTimeLayout = "20060102T150405.000Z"

// Path returns `<dataDir>/record/<boardID>/<start>.hexlog`. boardID must
// be a single path element.
func Path(dataDir, boardID string, start time.Time) (string, error) {
	if boardID == "" || boardID == "." || boardID == ".." || strings.ContainsAny(boardID, `/\`) {
		return "", fmt.Errorf("record: board id %q is not a plain name", boardID)
	}
	return filepath.Join(dataDir, "record", boardID, start.UTC().Format(FileTimeLayout)+".hexlog"), nil
}

// Create makes the directories and creates (or appends to) the recording
// file of a board started at start; see [Path].
func Create(dataDir, boardID string, start time.Time) (*os.File, error) {
	p, err := Path(dataDir, boardID, start)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	for _, d := range []string{filepath.Dir(dir), dir} { // record/ and record/<board>/
		if st, err := os.Stat(d); err == nil && st.Mode().Perm()&^DirMode != 0 {
			_ = os.Chmod(d, st.Mode()&(os.ModeSetgid|os.ModeSticky)|st.Mode().Perm()&DirMode)
		}
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, FileMode)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	if st, err := f.Stat(); err == nil && st.Mode().Perm()&^FileMode != 0 {
		_ = f.Chmod(st.Mode().Perm() & FileMode)
	}
	return f, nil
}

// FileMode and DirMode are the widest modes of the recordings and their
// folders: the daemon's user and group only (a recording holds every move
// as it is played). [Create] never makes them wider, whatever the umask,
// and narrows wider ones (an older version's); it cannot narrow what it
// does not own, and then leaves it.
const (
	FileMode os.FileMode = 0o640
	DirMode  os.FileMode = 0o750
)
