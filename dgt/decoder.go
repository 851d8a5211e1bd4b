package dgt

import "errors"

// Decoder is an incremental, non-blocking decoder of the board→host byte
// stream: [Decoder.Feed] bytes as they arrive (in chunks of any size),
// then call [Decoder.Next] until it returns ErrNeedMore. It is pure (no
// goroutines, no I/O, no clock) and not safe for concurrent use; the
// goroutine that owns the port owns its Decoder.
//
// Resynchronisation: only header bytes have bit 7 set, so after
// garbage, an unknown id, an impossible length, a frame cut short by a
// header byte or a bad bus checksum, the decoder reports one *[FrameError]
// and resumes at the next header byte. Data bytes that follow a rejected
// header (unknown id, bad length) belong to that frame and are dropped
// silently. Errors are never sticky: every call to Next either returns a
// message, or an error after consuming at least one byte, or ErrNeedMore
// having consumed everything it could; so it never stalls.
type Decoder struct {
	mode       Mode
	buf        []byte
	r          int   // buf[r:] is unconsumed
	off        int64 // stream offset of buf[r]
	discarding bool  // dropping the data of a rejected frame
}

// NewDecoder returns a decoder for mode m (SingleBoard or Bus; the ids
// overlap).
func NewDecoder(m Mode) *Decoder { return &Decoder{mode: m} }

// Mode returns the decoder's mode.
func (d *Decoder) Mode() Mode { return d.mode }

// SetMode switches the id table, e.g. after the host sent DGT_TO_BUSMODE.
// Buffered bytes are decoded in the new mode.
func (d *Decoder) SetMode(m Mode) { d.mode = m }

// Offset returns the stream offset of the next unconsumed byte.
func (d *Decoder) Offset() int64 { return d.off }

// Buffered returns the number of bytes fed but not yet consumed.
func (d *Decoder) Buffered() int { return len(d.buf) - d.r }

// Feed appends p to the decoder's buffer. p is copied; the caller may
// reuse it at once.
func (d *Decoder) Feed(p []byte) {
	if d.r == len(d.buf) {
		d.buf, d.r = d.buf[:0], 0
	} else if d.r > 0 && len(d.buf)+len(p) > cap(d.buf) {
		n := copy(d.buf, d.buf[d.r:])
		d.buf, d.r = d.buf[:n], 0
	}
	d.buf = append(d.buf, p...)
}

func (d *Decoder) advance(n int) {
	d.r += n
	d.off += int64(n)
}

// NextFrame returns the next well-formed frame without decoding its
// content, allocation-free: together with [DecodeFieldUpdate] or
// [DecodeClockTimes] it is the fast path. The frame's Data is valid until
// the next call to the decoder. Errors are as for [Decoder.Next].
func (d *Decoder) NextFrame() (Frame, error) {
	p := d.buf[d.r:]
	i := 0
	for i < len(p) && p[i] < 0x80 {
		i++
	}
	if i > 0 {
		at := d.off
		d.advance(i)
		if !d.discarding {
			return Frame{}, &FrameError{Offset: at, Skipped: i, Reason: ErrGarbage}
		}
		p = p[i:]
	}
	if len(p) == 0 {
		return Frame{}, ErrNeedMore
	}
	d.discarding = false
	f, n, err := cutFrame(d.mode, p)
	if errors.Is(err, ErrNeedMore) {
		return Frame{}, err
	}
	at := d.off
	d.advance(n)
	if err != nil {
		fe := err.(*FrameError)
		fe.Offset = at
		d.discarding = fe.Reason == ErrUnknownMessage || fe.Reason == ErrLength
		return Frame{}, fe
	}
	f.Offset = at
	return f, nil
}

// Next returns the next message, ErrNeedMore when the buffered bytes hold
// no complete message, or a *[FrameError] for bytes it skipped (wrapping
// ErrGarbage, ErrUnknownMessage, ErrLength, ErrTruncated, ErrChecksum or
// ErrInvalid). After an error, call Next again.
func (d *Decoder) Next() (Message, error) {
	f, err := d.NextFrame()
	if err != nil {
		return nil, err
	}
	m, err := ParseFrame(d.mode, f)
	if err != nil {
		return nil, contentError(f, err)
	}
	return m, nil
}

// Flush drops the bytes of an incomplete frame and reports them as
// ErrTruncated (nil when nothing was pending or the pending bytes belonged
// to an already reported frame). Call it after Next returned ErrNeedMore:
// at the end of a stream, or when a reply timed out and what is left of
// it must not be joined to the next board's reply (bus polling).
func (d *Decoder) Flush() error {
	n := d.Buffered()
	if n == 0 {
		return nil
	}
	at, disc := d.off, d.discarding
	var id byte
	if p := d.buf[d.r:]; p[0] >= 0x80 {
		id = p[0]
	}
	d.advance(n)
	d.discarding = false
	if disc && id == 0 {
		return nil
	}
	if id == 0 {
		return &FrameError{Offset: at, Skipped: n, Reason: ErrGarbage}
	}
	return &FrameError{Offset: at, ID: id, Skipped: n, Reason: ErrTruncated, Detail: "end of stream"}
}

// Reset empties the buffer and restarts offsets at 0 (after a reconnect).
func (d *Decoder) Reset() {
	d.buf, d.r, d.off, d.discarding = d.buf[:0], 0, 0, false
}
