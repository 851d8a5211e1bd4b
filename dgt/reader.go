package dgt

import (
	"errors"
	"io"
)

// maxEmptyReads is how many (0, nil) reads in a row a Reader tolerates
// before reporting io.ErrNoProgress, as bufio does.
const maxEmptyReads = 100

// Reader reads typed board→host messages from an io.Reader (a serial
// port, a recording). It follows encoding/json.Decoder and bufio.Scanner:
// the I/O error is sticky, frame errors are not. It is not safe for
// concurrent use.
type Reader struct {
	r   io.Reader
	d   Decoder
	buf []byte
	err error // sticky read error
}

// NewReader returns a Reader decoding r in mode m.
func NewReader(r io.Reader, m Mode) *Reader {
	return &Reader{r: r, d: Decoder{mode: m}, buf: make([]byte, 512)}
}

// Decoder returns the underlying decoder (to switch its mode, read its
// offset).
func (r *Reader) Decoder() *Decoder { return &r.d }

// ReadMessage returns the next message. A *[FrameError] reports skipped
// bytes and is not sticky: call ReadMessage again. When the underlying
// reader fails (io.EOF included), a frame left incomplete is reported
// first as ErrTruncated, then the read error is returned on this and
// every later call. Reads that return no bytes and no error 100 times in
// a row fail with io.ErrNoProgress. ReadMessage blocks only in the
// underlying Read.
func (r *Reader) ReadMessage() (Message, error) {
	empty := 0
	for {
		m, err := r.d.Next()
		if !errors.Is(err, ErrNeedMore) {
			return m, err
		}
		if r.err != nil {
			if err := r.d.Flush(); err != nil {
				return nil, err
			}
			return nil, r.err
		}
		n, err := r.r.Read(r.buf)
		if n > 0 {
			r.d.Feed(r.buf[:n])
			empty = 0
		} else if err == nil {
			if empty++; empty >= maxEmptyReads {
				err = io.ErrNoProgress
			}
		}
		if err != nil {
			r.err = err
		}
	}
}
