package recording

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
)

// fakeClock returns t0, t0+1ms, t0+2ms, …
func fakeClock(t0 time.Time) func() time.Time {
	n := 0
	return func() time.Time {
		n++
		return t0.Add(time.Duration(n-1) * time.Millisecond)
	}
}

// port is a board end: Read returns the scripted replies, Write collects.
type port struct {
	replies [][]byte
	written bytes.Buffer
	closed  bool
}

func (p *port) Read(b []byte) (int, error) {
	if len(p.replies) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.replies[0])
	p.replies[0] = p.replies[0][n:]
	if len(p.replies[0]) == 0 {
		p.replies = p.replies[1:]
	}
	return n, nil
}
func (p *port) Write(b []byte) (int, error) { return p.written.Write(b) }
func (p *port) Close() error                { p.closed = true; return nil }

func TestTapRoundTrip(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 14, 0, 0, 123456000, time.FixedZone("ICT", 7*3600))
	ver, _ := dgt.Encode(dgt.Version{Major: 1, Minor: 2})
	up, _ := dgt.Encode(dgt.FieldUpdate{Field: 36, Piece: dgt.WhitePawn})
	p := &port{replies: [][]byte{ver, up}}
	var log bytes.Buffer
	tap := NewTap(p, NewLogWriter(&log), fakeClock(t0))

	if _, err := tap.Write([]byte{0x4B, 0x4D}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3)
	var got []byte
	for {
		n, err := tap.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
	}
	if !bytes.Equal(got, append(ver, up...)) || !bytes.Equal(p.written.Bytes(), []byte{0x4B, 0x4D}) {
		t.Fatalf("port traffic changed: % x / % x", got, p.written.Bytes())
	}
	if err := tap.Close(); err != nil || !p.closed {
		t.Fatal("Close did not reach the port")
	}
	wantFirst := "2026-11-22T07:00:00.123456Z > 4b 4d\n"
	if !strings.HasPrefix(log.String(), wantFirst) {
		t.Fatalf("log starts %q, want %q", log.String(), wantFirst)
	}

	r, err := NewReader(bytes.NewReader(log.Bytes()), Auto)
	if err != nil || r.Format() != Hexlog {
		t.Fatalf("format %v, %v", r.Format(), err)
	}
	var chunks []Chunk
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, c)
	}
	// One write, then reads of 3, 2 (version), 3, 2 (update) bytes.
	if len(chunks) != 5 {
		t.Fatalf("%d chunks: %v", len(chunks), chunks)
	}
	var fromBoard []byte
	for i, c := range chunks {
		if want := t0.Add(time.Duration(i) * time.Millisecond); !c.At.Equal(want) {
			t.Fatalf("chunk %d at %v, want %v", i, c.At, want)
		}
		if (i == 0) != (c.Dir == ToBoard) {
			t.Fatalf("chunk %d dir %v", i, c.Dir)
		}
		if c.Dir == FromBoard {
			fromBoard = append(fromBoard, c.Bytes...)
		}
	}
	if !bytes.Equal(fromBoard, got) {
		t.Fatalf("recorded % x, read % x", fromBoard, got)
	}
	if err := tap.Flush(); err != nil {
		t.Fatal(err)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n++; w.n > 1 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestTapLogFailureKeepsPort(t *testing.T) {
	p := &port{}
	tap := NewTap(p, NewLogWriter(&failWriter{}), nil)
	for i := 0; i < 3; i++ {
		if n, err := tap.Write([]byte{0x42}); n != 1 || err != nil {
			t.Fatalf("write %d: %d %v", i, n, err)
		}
		tap.Flush() // one batch per write: the second fails
	}
	if p.written.Len() != 3 {
		t.Fatalf("port got %d bytes", p.written.Len())
	}
	if err := tap.Err(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Err = %v", err)
	}
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 11, 22, 14, 5, 6, 789000000, time.UTC)
	f, err := Create(dir, "r1b3", start)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := filepath.Join(dir, "record", "r1b3", "20261122T140506.789Z.hexlog")
	if f.Name() != want {
		t.Fatalf("created %s, want %s", f.Name(), want)
	}
	lw := NewLogWriter(f)
	if err := lw.Log(start, FromBoard, []byte{0x8E, 0, 5, 0x24, 1}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(want); len(b) != 0 {
		t.Fatalf("a line written at once, not batched: %q", b)
	}
	if err := lw.Flush(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(want)
	if string(b) != "2026-11-22T14:05:06.789000Z < 8e 00 05 24 01\n" {
		t.Fatalf("file holds %q", b)
	}
	for _, bad := range []string{"", "..", "a/b", `a\b`, "."} {
		if _, err := Path(dir, bad, start); err == nil {
			t.Errorf("board id %q accepted", bad)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for i, n := range []string{"auto", "hexlog", "raw", "base64"} {
		if f, err := ParseFormat(n); err != nil || f != Format(i) || f.String() != n {
			t.Errorf("%s: %v %v", n, f, err)
		}
	}
	if _, err := ParseFormat("pcap"); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("pcap: %v", err)
	}
	if _, err := NewReader(strings.NewReader(""), Format(9)); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("Format(9): %v", err)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Format
	}{
		{"empty", "", Raw},
		{"hexlog", "2026-11-22T14:00:00Z < 8e 00 05 24 01\n", Hexlog},
		{"hexlog after comment", "# board 1\n\n2026-11-22T14:00:00.5+07:00 > 4b\n", Hexlog},
		{"base64", "jgAFNAA=\njgAFJAE=\n", Base64},
		{"raw", "\x8e\x00\x05\x24\x01", Raw},
		{"text that is neither", "hello world\n", Raw},
		{"base64 alphabet but bad", "abcde\n", Raw},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect([]byte(tt.in)); got != tt.want {
				t.Fatalf("Detect = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBadLines(t *testing.T) {
	in := strings.Join([]string{
		"2026-11-22T14:00:00Z < 8e 00 05 24 01",
		"yesterday < 8e",
		"2026-11-22T14:00:01Z ! 8e",
		"2026-11-22T14:00:01Z <8e",
		"2026-11-22T14:00:02Z < 8e 0x",
		"2026-11-22T14:00:02Z < 8e0",
		"2026-11-22T14:00:02Z <",
		"2026-11-22T14:00:03Z > 4B4d",
	}, "\n")
	r, err := NewReader(strings.NewReader(in), Hexlog)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		err       error
		line, col int
	}{{nil, 1, 0}, {ErrTimestamp, 2, 1}, {ErrDirection, 3, 22}, {ErrDirection, 4, 23}, {ErrHex, 5, 28}, {ErrHex, 6, 26}, {ErrHex, 7, 23}, {nil, 8, 0}}
	for i, w := range want {
		c, err := r.Next()
		var pe *ParseError
		switch {
		case w.err == nil && err != nil:
			t.Fatalf("line %d: %v", w.line, err)
		case w.err != nil && (!errors.As(err, &pe) || !errors.Is(err, w.err) || pe.Line != w.line || pe.Column != w.col):
			t.Fatalf("case %d: got %v, want %v at line %d column %d", i, err, w.err, w.line, w.col)
		}
		if i == 7 && (!bytes.Equal(c.Bytes, []byte{0x4B, 0x4D}) || c.Dir != ToBoard) {
			t.Fatalf("last line: %+v", c)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	if r.Line() != 8 {
		t.Fatalf("Line = %d", r.Line())
	}

	r, _ = NewReader(strings.NewReader("jgAFNAA=\nj*AF\n\njgAFJAE\n"), Base64)
	if c, err := r.Next(); err != nil || len(c.Bytes) != 5 || !c.At.IsZero() {
		t.Fatalf("base64 1: %v %v", c, err)
	}
	var pe *ParseError
	if _, err := r.Next(); !errors.As(err, &pe) || !errors.Is(err, ErrBase64) || pe.Line != 2 || pe.Column != 2 {
		t.Fatalf("base64 2: %v", err)
	}
	if c, err := r.Next(); err != nil || !bytes.Equal(c.Bytes, []byte{0x8E, 0, 5, 0x24, 1}) {
		t.Fatalf("base64 unpadded: %v %v", c, err)
	}
}

func TestLongLine(t *testing.T) {
	in := "2026-11-22T14:00:00Z < " + strings.Repeat("00 ", MaxLine/3+10) + "\n2026-11-22T14:00:01Z < 8e\n"
	r, _ := NewReader(strings.NewReader(in), Hexlog)
	if _, err := r.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("long line: %v", err)
	}
	if c, err := r.Next(); err != nil || r.Line() != 2 || len(c.Bytes) != 1 {
		t.Fatalf("after long line: %v %v line %d", c, err, r.Line())
	}
	// A long line that fits: an EEPROM dump.
	ee := bytes.Repeat([]byte{0x7F}, 0x1F00)
	line := AppendLine(nil, time.Unix(0, 0), FromBoard, ee)
	r, _ = NewReader(bytes.NewReader(line), Auto)
	if c, err := r.Next(); err != nil || !bytes.Equal(c.Bytes, ee) {
		t.Fatalf("EEPROM line: %d bytes, %v", len(c.Bytes), err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

func TestStickyError(t *testing.T) {
	boom := errors.New("boom")
	for _, f := range []Format{Hexlog, Raw, Base64} {
		r, _ := NewReader(io.MultiReader(strings.NewReader("x"), errReader{boom}), f)
		var last error
		for i := 0; i < 4; i++ {
			_, last = r.Next()
		}
		if last != boom {
			t.Errorf("%v: %v", f, last)
		}
	}
}

// TestCapturesDecode reads the shared base64 captures, auto-detected, and
// as raw bytes, and decodes every chunk with the dgt decoder.
func TestCapturesDecode(t *testing.T) {
	dir := dgttest.Dir(t)
	for _, name := range dgttest.Names() {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(dir, name+".inbytes"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			lines := 0
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				lines++
			}
			f.Seek(0, io.SeekStart)
			r, err := NewReader(f, Auto)
			if err != nil || r.Format() != Base64 {
				t.Fatalf("format %v %v", r.Format(), err)
			}
			var raw []byte
			n := decodeChunks(t, r, &raw)
			if n != lines {
				t.Fatalf("%d messages from %d lines", n, lines)
			}
			rr, _ := NewReader(bytes.NewReader(raw), Auto)
			if rr.Format() != Raw {
				t.Fatalf("raw detected as %v", rr.Format())
			}
			if n := decodeChunks(t, rr, nil); n != lines {
				t.Fatalf("raw: %d messages from %d lines", n, lines)
			}
		})
	}
}

func decodeChunks(t *testing.T, r *Reader, keep *[]byte) int {
	t.Helper()
	d := dgt.NewDecoder(dgt.SingleBoard)
	n := 0
	for {
		c, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		if keep != nil {
			*keep = append(*keep, c.Bytes...)
		}
		d.Feed(c.Bytes)
		for {
			_, err := d.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
}

// FuzzReader: no input makes a reader panic or loop.
func FuzzReader(f *testing.F) {
	f.Add([]byte("2026-11-22T14:00:00Z < 8e 00 05 24 01\n"), uint8(0))
	f.Add([]byte("jgAFNAA=\n"), uint8(3))
	f.Add([]byte("\x8e\x00\x05"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, format uint8) {
		r, err := NewReader(bytes.NewReader(data), Format(format%4))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatal("reader loops")
			}
			c, err := r.Next()
			if err == io.EOF {
				return
			}
			var pe *ParseError
			if err != nil && !errors.As(err, &pe) {
				t.Fatalf("unexpected error %v", err)
			}
			if err == nil && len(c.Bytes) == 0 {
				t.Fatal("empty chunk")
			}
		}
	})
}
