package recording

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"time"
)

// Errors of bad lines, wrapped in a *ParseError.
var (
	ErrTimestamp   = errors.New("record: bad timestamp")
	ErrDirection   = errors.New("record: bad direction (want < or >)")
	ErrHex         = errors.New("record: bad hex bytes")
	ErrBase64      = errors.New("record: bad base64")
	ErrLineTooLong = errors.New("record: line too long")
)

// MaxLine is the longest line the line formats accept (an EEPROM dump in
// hexlog is about 24 KB).
const MaxLine = 1 << 20

// ParseError reports a bad line; the reader has skipped it.
type ParseError struct {
	Line   int   // 1-based
	Column int   // 1-based byte column
	Err    error // one of the sentinels above
	Detail string
}

// Error returns "line L, column C: …".
func (e *ParseError) Error() string {
	s := fmt.Sprintf("line %d, column %d: %v", e.Line, e.Column, e.Err)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns Err.
func (e *ParseError) Unwrap() error { return e.Err }

// Reader yields the chunks of a recording. It is not safe for concurrent
// use.
type Reader struct {
	format Format
	br     *bufio.Reader
	line   int
	err    error // sticky I/O error
	long   []byte
}

// NewReader returns a Reader of r in format f; with [Auto] it peeks at the
// first bytes to choose (see [Detect]).
func NewReader(r io.Reader, f Format) (*Reader, error) {
	if f > Base64 {
		return nil, fmt.Errorf("%w %d", ErrUnknownFormat, f)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	if f == Auto {
		head, err := br.Peek(4096)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return nil, fmt.Errorf("record: %w", err)
		}
		f = Detect(head)
	}
	return &Reader{format: f, br: br}, nil
}

// Format returns the format being read (the detected one for Auto).
func (r *Reader) Format() Format { return r.format }

// Line returns the number of the last line read (line formats).
func (r *Reader) Line() int { return r.line }

// Detect guesses the format of a recording from its first bytes: hexlog
// when the first line that is neither blank nor a comment parses as a
// hexlog line; base64 when every byte is base64 or white space and the
// first line decodes; raw otherwise (raw DGT traffic always holds header
// bytes ≥ 0x80). Empty input is raw.
func Detect(head []byte) Format {
	rest := head
	for len(rest) > 0 {
		line, cut := rest, true
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest, cut = rest[:i], rest[i+1:], false
		} else {
			rest = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if _, err := parseHexlog(line); err == nil {
			return Hexlog
		}
		if i := bytes.LastIndexByte(line, ' '); cut && i > 0 {
			// The peek may have cut a long line inside a byte pair.
			if _, err := parseHexlog(line[:i]); err == nil {
				return Hexlog
			}
		}
		for _, c := range head {
			if !isBase64Byte(c) {
				return Raw
			}
		}
		if _, err := decodeBase64(line); err == nil {
			return Base64
		}
		return Raw
	}
	return Raw
}

func isBase64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
		c == '+' || c == '/' || c == '=' || c == '\n' || c == '\r' || c == ' ' || c == '\t'
}

// Next returns the next chunk; io.EOF at the end; a *[ParseError] for a
// bad line, after which Next may be called again; any other error is the
// underlying reader's and is returned again by every later call.
func (r *Reader) Next() (Chunk, error) {
	if r.format == Raw {
		return r.nextRaw()
	}
	for {
		line, err := r.readLine()
		if err != nil {
			return Chunk{}, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || (r.format == Hexlog && line[0] == '#') {
			continue
		}
		var c Chunk
		if r.format == Hexlog {
			c, err = parseHexlog(line)
		} else {
			var b []byte
			b, err = decodeBase64(line)
			c = Chunk{Dir: FromBoard, Bytes: b}
		}
		if err != nil {
			pe := err.(*ParseError)
			pe.Line = r.line
			return Chunk{}, pe
		}
		return c, nil
	}
}

func (r *Reader) nextRaw() (Chunk, error) {
	if r.err != nil {
		return Chunk{}, r.err
	}
	buf := make([]byte, 4096)
	for empty := 0; ; empty++ {
		n, err := r.br.Read(buf)
		if err != nil {
			r.err = err
		}
		if n > 0 {
			return Chunk{Dir: FromBoard, Bytes: buf[:n:n]}, nil
		}
		if err != nil {
			return Chunk{}, err
		}
		if empty >= 100 {
			r.err = io.ErrNoProgress
			return Chunk{}, r.err
		}
	}
}

// readLine returns the next line without its newline; the slice is valid
// until the next call. Lines longer than MaxLine are reported and skipped.
func (r *Reader) readLine() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	r.long = r.long[:0]
	tooLong := false
	for {
		frag, err := r.br.ReadSlice('\n')
		if tooLong || len(r.long)+len(frag) > MaxLine {
			tooLong = true
			r.long = r.long[:0]
		} else if len(r.long) > 0 || err == bufio.ErrBufferFull {
			r.long = append(r.long, frag...)
			frag = r.long
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && (len(frag) > 0 || tooLong):
			r.err = io.EOF // last line without newline; EOF next time
		case err != nil:
			r.err = err
			return nil, err
		}
		r.line++
		if tooLong {
			return nil, &ParseError{Line: r.line, Column: MaxLine + 1, Err: ErrLineTooLong}
		}
		return bytes.TrimRight(frag, "\n"), nil
	}
}

// parseHexlog parses one trimmed hexlog line.
func parseHexlog(line []byte) (Chunk, error) {
	sp := bytes.IndexByte(line, ' ')
	if sp < 0 {
		return Chunk{}, &ParseError{Column: 1, Err: ErrTimestamp, Detail: "no direction and bytes"}
	}
	at, err := time.Parse(time.RFC3339Nano, string(line[:sp]))
	if err != nil {
		return Chunk{}, &ParseError{Column: 1, Err: ErrTimestamp, Detail: err.Error()}
	}
	i := sp + 1
	if i >= len(line) || (line[i] != '<' && line[i] != '>') {
		return Chunk{}, &ParseError{Column: i + 1, Err: ErrDirection}
	}
	c := Chunk{At: at, Dir: Dir(line[i])}
	i++
	if i < len(line) && line[i] != ' ' && line[i] != '\t' {
		return Chunk{}, &ParseError{Column: i + 1, Err: ErrDirection, Detail: "no space after the direction"}
	}
	c.Bytes = make([]byte, 0, (len(line)-i)/2)
	for i < len(line) {
		if line[i] == ' ' || line[i] == '\t' {
			i++
			continue
		}
		hi, ok1 := unhex(line[i])
		if !ok1 || i+1 >= len(line) {
			return Chunk{}, &ParseError{Column: i + 1, Err: ErrHex}
		}
		lo, ok2 := unhex(line[i+1])
		if !ok2 {
			return Chunk{}, &ParseError{Column: i + 2, Err: ErrHex}
		}
		c.Bytes = append(c.Bytes, hi<<4|lo)
		i += 2
	}
	if len(c.Bytes) == 0 {
		return Chunk{}, &ParseError{Column: len(line) + 1, Err: ErrHex, Detail: "no bytes"}
	}
	return c, nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// decodeBase64 decodes a trimmed line, padded or not.
func decodeBase64(line []byte) ([]byte, error) {
	enc := base64.StdEncoding
	if len(line)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	b := make([]byte, enc.DecodedLen(len(line)))
	n, err := enc.Decode(b, line)
	if err != nil {
		col := 1
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			col = int(ce) + 1
		}
		return nil, &ParseError{Column: col, Err: ErrBase64}
	}
	if n == 0 {
		return nil, &ParseError{Column: 1, Err: ErrBase64, Detail: "no bytes"}
	}
	return b[:n], nil
}
