package obp

import (
	"github.com/dgtbridge/dgtbridge/rules"
)

// splitter cuts a byte stream into lines at '\n'. A line longer than
// MaxLine (plus a '\r') is dropped up to its '\n' and reported once with
// ErrTooLong; empty lines are skipped.
type splitter struct {
	buf      []byte
	pos      int
	skipping bool
}

func (s *splitter) feed(p []byte) {
	if s.pos > 0 && s.pos >= len(s.buf)/2 {
		s.buf = append(s.buf[:0], s.buf[s.pos:]...)
		s.pos = 0
	}
	s.buf = append(s.buf, p...)
}

// next returns the next line without its end (and without a '\r' before
// it), valid until the next call; or ErrNeedMore, or a *LineError
// wrapping ErrTooLong.
func (s *splitter) next() ([]byte, error) {
	for {
		rest := s.buf[s.pos:]
		i := indexNL(rest)
		if i < 0 {
			if !s.skipping && len(rest) > MaxLine+1 {
				s.skipping = true
				e := &LineError{Line: clip(rest), Err: ErrTooLong}
				s.pos = len(s.buf)
				return nil, e
			}
			if s.skipping {
				s.pos = len(s.buf)
			}
			return nil, ErrNeedMore
		}
		line := rest[:i]
		s.pos += i + 1
		if s.skipping {
			s.skipping = false
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		if len(line) == 0 {
			continue
		}
		if len(line) > MaxLine {
			return nil, &LineError{Line: clip(line), Err: ErrTooLong}
		}
		return line, nil
	}
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// buffered returns the bytes of the line not yet ended.
func (s *splitter) buffered() int {
	if s.skipping {
		return 0
	}
	return len(s.buf) - s.pos
}

// Decoder decodes the board→host byte stream: [Decoder.Feed] the bytes
// read, then call [Decoder.Next] until it returns ErrNeedMore. It is
// pure and not safe for concurrent use.
type Decoder struct {
	geo rules.Geometry
	s   splitter
}

// NewDecoder returns a decoder for a board of geometry g (the zero
// Geometry until the board's Ident says it; see SetGeometry).
func NewDecoder(g rules.Geometry) *Decoder { return &Decoder{geo: g} }

// SetGeometry sets the board's geometry for the lines not yet decoded.
func (d *Decoder) SetGeometry(g rules.Geometry) { d.geo = g }

// Geometry returns the geometry lines are decoded in.
func (d *Decoder) Geometry() rules.Geometry { return d.geo }

// Feed appends bytes read from the port.
func (d *Decoder) Feed(p []byte) { d.s.feed(p) }

// Buffered returns how many bytes of an unfinished line are held.
func (d *Decoder) Buffered() int { return d.s.buffered() }

// Next returns the next message. A line that is too long, holds a byte
// that is not printable ASCII, fails its checksum or does not parse is
// dropped and returned as a *LineError (message nil); the next call goes
// on with the following line. ErrNeedMore means no complete line is
// buffered.
func (d *Decoder) Next() (Message, error) {
	line, err := d.s.next()
	if err != nil {
		return nil, err
	}
	return Parse(line, d.geo)
}

// NextLine is Next for callers that keep the line: it also returns the
// line's bytes (without its end; valid until the next call to Feed or
// Next), also for a line that did not parse. For a line dropped as too
// long it returns nil.
func (d *Decoder) NextLine() ([]byte, Message, error) {
	line, err := d.s.next()
	if err != nil {
		return nil, nil, err
	}
	m, err := Parse(line, d.geo)
	return line, m, err
}

// Command is a host→board command: one letter on a line of its own, no
// checksum.
type Command byte

// The commands of OBP/1.
const (
	// CmdIdent asks for the [Ident].
	CmdIdent Command = 'I'
	// CmdBoard asks for the whole board ([Board]).
	CmdBoard Command = 'B'
	// CmdClock asks for the clock ([Clock]).
	CmdClock Command = 'C'
)

// String returns the command's letter.
func (c Command) String() string { return string(rune(c)) }

// AppendLine appends the command's line, '\n' included.
func (c Command) AppendLine(dst []byte) []byte { return append(dst, byte(c), '\n') }

// ParseCommand decodes one host line, given without its end (a '\r'
// before it and spaces around the letter are tolerated). Anything else is
// a *CommandError wrapping ErrUnknownCommand.
func ParseCommand(line []byte) (Command, error) {
	for len(line) > 0 && (line[len(line)-1] == '\r' || line[len(line)-1] == ' ') {
		line = line[:len(line)-1]
	}
	for len(line) > 0 && line[0] == ' ' {
		line = line[1:]
	}
	if len(line) == 1 {
		switch c := Command(line[0]); c {
		case CmdIdent, CmdBoard, CmdClock:
			return c, nil
		}
	}
	return 0, &CommandError{Line: string(clip(line)), Err: ErrUnknownCommand}
}

// CommandDecoder splits the host→board stream into commands, for a
// board (or an emulated one). Empty lines are skipped; a line that is no
// command is returned as a *CommandError and skipped.
type CommandDecoder struct{ s splitter }

// Feed appends bytes received from the host.
func (d *CommandDecoder) Feed(p []byte) { d.s.feed(p) }

// Next returns the next command, or ErrNeedMore.
func (d *CommandDecoder) Next() (Command, error) {
	line, err := d.s.next()
	if err != nil {
		if le, ok := err.(*LineError); ok {
			return 0, &CommandError{Line: string(le.Line), Err: ErrUnknownCommand}
		}
		return 0, err
	}
	return ParseCommand(line)
}
