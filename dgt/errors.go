package dgt

import (
	"errors"
	"fmt"
)

// Sentinel errors. Decoders wrap them in a *[FrameError] (board→host) or
// *[CommandError] (host→board); match them with errors.Is.
var (
	// ErrNeedMore: the buffered bytes hold no complete message or command
	// yet. Not a failure: feed more bytes and call again.
	ErrNeedMore = errors.New("dgt: need more bytes")
	// ErrGarbage: bytes outside any frame (data bytes with no header
	// before them) were skipped.
	ErrGarbage = errors.New("dgt: bytes outside a frame")
	// ErrUnknownMessage: a header byte that is no message id of the mode.
	ErrUnknownMessage = errors.New("dgt: unknown message id")
	// ErrLength: the length field is impossible for the message id.
	ErrLength = errors.New("dgt: bad message length")
	// ErrTruncated: a frame was cut short by a header byte (bit 7 set)
	// inside its data, or by the end of the stream.
	ErrTruncated = errors.New("dgt: message truncated")
	// ErrChecksum: a bus frame whose checksum does not match.
	ErrChecksum = errors.New("dgt: checksum mismatch")
	// ErrInvalid: a well-framed message or command whose content is out
	// of range (a square ≥ 64, a digit that is not BCD, …); also returned
	// by encoders for values that cannot be encoded.
	ErrInvalid = errors.New("dgt: invalid content")
	// ErrUnknownCommand: a host→board byte that starts no known command.
	ErrUnknownCommand = errors.New("dgt: unknown command")
)

// FrameError reports a problem in a board→host byte stream. The decoder
// has already skipped the bytes concerned and carries on with the next
// header byte; FrameErrors are never sticky.
type FrameError struct {
	// Offset is the stream offset (bytes fed since the decoder was made)
	// of the first byte concerned.
	Offset int64
	// ID is the message id of the frame concerned, 0 for garbage.
	ID byte
	// Skipped is how many bytes were dropped for this problem so far.
	Skipped int
	// Reason is one of the sentinels above.
	Reason error
	// Detail says more, or is empty.
	Detail string
}

// Error describes the problem with its offset and id.
func (e *FrameError) Error() string {
	s := fmt.Sprintf("%v at offset %d", e.Reason, e.Offset)
	if e.ID != 0 {
		s += fmt.Sprintf(" (id 0x%02x)", e.ID)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s + skipped(e.Skipped)
}

// Unwrap returns Reason.
func (e *FrameError) Unwrap() error { return e.Reason }

func skipped(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " (1 byte skipped)"
	}
	return fmt.Sprintf(" (%d bytes skipped)", n)
}

// CommandError reports a problem in a host→board byte stream, like
// [FrameError].
type CommandError struct {
	Offset  int64 // stream offset of the first byte concerned
	Cmd     byte  // the command byte concerned
	Skipped int   // bytes dropped
	Reason  error // one of the sentinels above
	Detail  string
}

// Error describes the problem with its offset and command byte.
func (e *CommandError) Error() string {
	s := fmt.Sprintf("%v 0x%02x at offset %d", e.Reason, e.Cmd, e.Offset)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s + skipped(e.Skipped)
}

// Unwrap returns Reason.
func (e *CommandError) Unwrap() error { return e.Reason }

// invalidf returns an ErrInvalid-wrapping error for encoders and parsers
// that have no stream position.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}
