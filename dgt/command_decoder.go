package dgt

import (
	"errors"
	"fmt"
)

// ParseCommand decodes the host→board command at the start of p (single
// board or bus commands alike: bus commands have bit 7 set). It returns
// the command and the bytes it used; ErrNeedMore when p holds only the
// beginning of a command; otherwise a *[CommandError] (wrapping
// ErrUnknownCommand, ErrTruncated, ErrChecksum or ErrInvalid) with n the
// number of bytes to skip (≥ 1). Offsets in errors are relative to p.
func ParseCommand(p []byte) (c Command, n int, err error) {
	if len(p) == 0 {
		return nil, 0, ErrNeedMore
	}
	b := p[0]
	fail := func(n int, reason error, detail string) (Command, int, error) {
		return nil, n, &CommandError{Cmd: b, Skipped: n, Reason: reason, Detail: detail}
	}
	switch {
	case SimpleCommand(b).Valid():
		return SimpleCommand(b), 1, nil
	case b == cmdSetLEDs:
		if len(p) < 6 {
			return nil, 0, ErrNeedMore
		}
		if p[1] != 4 || p[5] != 0 {
			return fail(1, ErrInvalid, fmt.Sprintf("LED frame % x", p[:6]))
		}
		return SetLEDs{Pattern: p[2], Start: p[3], End: p[4]}, 6, nil
	case b == cmdClock:
		if len(p) < 2 {
			return nil, 0, ErrNeedMore
		}
		size := int(p[1])
		if size < 3 || size > 0x0F {
			return fail(1, ErrInvalid, fmt.Sprintf("clock envelope size %d", size))
		}
		if len(p) < 2+size {
			return nil, 0, ErrNeedMore
		}
		cmd, err := parseClockCommand(p[:2+size])
		if err != nil {
			skip := 1
			if p[2] == 3 && p[1+size] == 0 {
				skip = 2 + size // the envelope is intact: drop all of it
			}
			return nil, skip, &CommandError{Cmd: b, Skipped: skip, Reason: reasonOf(err), Detail: err.Error()}
		}
		return cmd, 2 + size, nil
	case b >= 0x80:
		if !BusCmd(b).Valid() {
			return fail(1, ErrUnknownCommand, "")
		}
		for j := 1; j < 4 && j < len(p); j++ {
			if p[j] >= 0x80 {
				return fail(j, ErrTruncated, "bus command cut short by a command byte")
			}
		}
		if len(p) < 4 {
			return nil, 0, ErrNeedMore
		}
		if cs := checksum(p[:3]); cs != p[3] {
			return fail(4, ErrChecksum, fmt.Sprintf("got 0x%02x, computed 0x%02x", p[3], cs))
		}
		return BusCommand{Cmd: BusCmd(b), Address: uint16(p[1])<<7 | uint16(p[2])}, 4, nil
	}
	return fail(1, ErrUnknownCommand, "")
}

func reasonOf(err error) error {
	for _, s := range []error{ErrUnknownCommand, ErrInvalid} {
		if errors.Is(err, s) {
			return s
		}
	}
	return ErrInvalid
}

// CommandDecoder is the incremental decoder of host→board bytes, what an
// emulated board uses to read its port: [CommandDecoder.Feed] bytes as
// they arrive, then call [CommandDecoder.Next] until ErrNeedMore. Bad
// bytes are reported once as a *[CommandError] and skipped (one byte at a
// time where the framing is in doubt). It is pure and not safe for
// concurrent use.
type CommandDecoder struct {
	buf []byte
	r   int
	off int64
}

// NewCommandDecoder returns an empty decoder.
func NewCommandDecoder() *CommandDecoder { return &CommandDecoder{} }

// Feed appends p (copied).
func (d *CommandDecoder) Feed(p []byte) {
	if d.r == len(d.buf) {
		d.buf, d.r = d.buf[:0], 0
	} else if d.r > 0 && len(d.buf)+len(p) > cap(d.buf) {
		n := copy(d.buf, d.buf[d.r:])
		d.buf, d.r = d.buf[:n], 0
	}
	d.buf = append(d.buf, p...)
}

// Buffered returns the number of bytes not yet consumed.
func (d *CommandDecoder) Buffered() int { return len(d.buf) - d.r }

// Offset returns the stream offset of the next unconsumed byte.
func (d *CommandDecoder) Offset() int64 { return d.off }

// Next returns the next command, ErrNeedMore, or a *CommandError for
// skipped bytes (Offset set to the stream offset). Call again after an
// error.
func (d *CommandDecoder) Next() (Command, error) {
	c, n, err := ParseCommand(d.buf[d.r:])
	if errors.Is(err, ErrNeedMore) {
		return nil, err
	}
	at := d.off
	d.r += n
	d.off += int64(n)
	if err != nil {
		ce := err.(*CommandError)
		ce.Offset = at
		return nil, ce
	}
	return c, nil
}

// Reset empties the buffer (after a reconnect or a mode change).
func (d *CommandDecoder) Reset() { d.buf, d.r, d.off = d.buf[:0], 0, 0 }
