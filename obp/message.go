package obp

import (
	"strconv"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Message is one board→host line. The concrete types are [Ident],
// [Board], [Clock], [Lift], [Put], [Fault] and [Unknown]; consumers switch
// on them.
type Message interface {
	// AppendLine appends the line, "*HH\n" included, as a board of
	// geometry g sends it.
	AppendLine(dst []byte, g rules.Geometry) []byte
	// BoardTime returns the board's timestamp of the line.
	BoardTime() Stamp
	obpMessage()
}

// Stamp is a board timestamp: milliseconds since the board started
// ("@<ms>"), when Set.
type Stamp struct {
	MS  uint64
	Set bool
}

// At returns the stamp of ms milliseconds.
func At(ms uint64) Stamp { return Stamp{MS: ms, Set: true} }

// Duration returns the stamp as a duration since the board started.
func (s Stamp) Duration() time.Duration { return time.Duration(s.MS) * time.Millisecond }

func (s Stamp) appendTo(dst []byte) []byte {
	if !s.Set {
		return dst
	}
	dst = append(dst, " @"...)
	return strconv.AppendUint(dst, s.MS, 10)
}

// Version is the protocol version this package speaks.
const Version = 1

// Ident is the answer to "I": "I OBP/1 <files>x<ranks> <serial> id|occupancy".
type Ident struct {
	// Version is the protocol version the board speaks (1 for OBP/1; a
	// later version keeps every OBP/1 line).
	Version int
	// Geo is the board's size: rules.Chess8x8 or rules.Xiangqi9x10.
	Geo rules.Geometry
	// Serial identifies the board (printable, no spaces).
	Serial string
	// Occupancy: the board sees only whether a point is occupied, not
	// which piece stands there ("occupancy"); false: it identifies pieces
	// ("id").
	Occupancy bool
	Stamp     Stamp
}

// Board is the answer to "B": the whole board, the placement field of a
// FEN, rank by rank from the second player's side.
type Board struct {
	Placement rules.Placement
	// Unidentified are the occupied squares whose piece the board cannot
	// tell ("?"); they are empty in Placement.
	Unidentified []rules.Square
	Stamp        Stamp
}

// Clock is the clock's state: "C <first_ms> <second_ms> <running>", or
// "C none" (None) when no clock is attached. Sent in answer to "C", on
// every lever press and at least once a second while a clock runs.
type Clock struct {
	None bool
	// First and Second are the time left of the first player (White, Red)
	// and the second.
	First, Second time.Duration
	// Running is the side whose clock runs (1 on the line: rules.White,
	// 2: rules.Black), rules.NoColor when both stand (0).
	Running rules.Color
	Stamp   Stamp
}

// Lift is "L <sq>": a piece was lifted from Square.
type Lift struct {
	Square rules.Square
	Stamp  Stamp
}

// Put is "P <sq> <piece>": a piece was put down on Square.
type Put struct {
	Square rules.Square
	Piece  rules.Piece
	// Unidentified: the board cannot tell the piece ("?"); Piece is empty.
	Unidentified bool
	Stamp        Stamp
}

// Fault is "E <code> <text>": something the board noticed about itself
// (a sensor error, a low battery). The host reports it and never acts on
// it.
type Fault struct {
	Code, Text string
	Stamp      Stamp
}

// Unknown is a well-formed line (good checksum, printable) whose type
// OBP/1 does not define: an addition of a later revision, which a host
// that does not know it ignores.
type Unknown struct {
	// Type is the line's first field; Fields the rest, single-spaced
	// (without the timestamp).
	Type, Fields string
	Stamp        Stamp
}

func (Ident) obpMessage()   {}
func (Board) obpMessage()   {}
func (Clock) obpMessage()   {}
func (Lift) obpMessage()    {}
func (Put) obpMessage()     {}
func (Fault) obpMessage()   {}
func (Unknown) obpMessage() {}

// BoardTime implements Message.
func (m Ident) BoardTime() Stamp   { return m.Stamp }
func (m Board) BoardTime() Stamp   { return m.Stamp }
func (m Clock) BoardTime() Stamp   { return m.Stamp }
func (m Lift) BoardTime() Stamp    { return m.Stamp }
func (m Put) BoardTime() Stamp     { return m.Stamp }
func (m Fault) BoardTime() Stamp   { return m.Stamp }
func (m Unknown) BoardTime() Stamp { return m.Stamp }

// AppendLine implements Message; g is not used (an Ident carries its own).
func (m Ident) AppendLine(dst []byte, _ rules.Geometry) []byte {
	start := len(dst)
	dst = append(dst, "I OBP/"...)
	dst = strconv.AppendInt(dst, int64(m.Version), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(m.Geo.Files), 10)
	dst = append(dst, 'x')
	dst = strconv.AppendInt(dst, int64(m.Geo.Ranks), 10)
	dst = append(dst, ' ')
	dst = append(dst, m.Serial...)
	if m.Occupancy {
		dst = append(dst, " occupancy"...)
	} else {
		dst = append(dst, " id"...)
	}
	return seal(m.Stamp.appendTo(dst), start)
}

// AppendLine implements Message.
func (m Board) AppendLine(dst []byte, g rules.Geometry) []byte {
	start := len(dst)
	dst = append(dst, "B "...)
	unknown := func(s rules.Square) bool {
		for _, u := range m.Unidentified {
			if u == s {
				return true
			}
		}
		return false
	}
	for r := g.Ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < g.Files; f++ {
			s := g.Square(f, r)
			var l byte
			switch pc := m.Placement.At(s); {
			case unknown(s):
				l = '?'
			case pc.IsEmpty():
				empty++
				continue
			default:
				l = pieceLetter(g, pc)
			}
			if empty > 0 {
				dst = append(dst, byte('0'+empty))
				empty = 0
			}
			dst = append(dst, l)
		}
		if empty > 0 {
			dst = append(dst, byte('0'+empty))
		}
		if r > 0 {
			dst = append(dst, '/')
		}
	}
	return seal(m.Stamp.appendTo(dst), start)
}

// AppendLine implements Message.
func (m Clock) AppendLine(dst []byte, _ rules.Geometry) []byte {
	start := len(dst)
	if m.None {
		dst = append(dst, "C none"...)
		return seal(m.Stamp.appendTo(dst), start)
	}
	dst = append(dst, "C "...)
	dst = strconv.AppendInt(dst, max(m.First.Milliseconds(), 0), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, max(m.Second.Milliseconds(), 0), 10)
	switch m.Running {
	case rules.White:
		dst = append(dst, " 1"...)
	case rules.Black:
		dst = append(dst, " 2"...)
	default:
		dst = append(dst, " 0"...)
	}
	return seal(m.Stamp.appendTo(dst), start)
}

// AppendLine implements Message.
func (m Lift) AppendLine(dst []byte, g rules.Geometry) []byte {
	start := len(dst)
	dst = append(dst, "L "...)
	dst = append(dst, g.Name(m.Square)...)
	return seal(m.Stamp.appendTo(dst), start)
}

// AppendLine implements Message.
func (m Put) AppendLine(dst []byte, g rules.Geometry) []byte {
	start := len(dst)
	dst = append(dst, "P "...)
	dst = append(dst, g.Name(m.Square)...)
	if m.Unidentified || m.Piece.IsEmpty() {
		dst = append(dst, " ?"...)
	} else {
		dst = append(dst, ' ', pieceLetter(g, m.Piece))
	}
	return seal(m.Stamp.appendTo(dst), start)
}

// AppendLine implements Message. An empty Code is written as "0"; the
// text is written as given (it must be printable).
func (m Fault) AppendLine(dst []byte, _ rules.Geometry) []byte {
	start := len(dst)
	dst = append(dst, "E "...)
	if m.Code == "" {
		dst = append(dst, '0')
	} else {
		dst = append(dst, m.Code...)
	}
	if m.Text != "" {
		dst = append(dst, ' ')
		dst = append(dst, m.Text...)
	}
	return seal(m.Stamp.appendTo(dst), start)
}

// AppendLine implements Message.
func (m Unknown) AppendLine(dst []byte, _ rules.Geometry) []byte {
	start := len(dst)
	dst = append(dst, m.Type...)
	if m.Fields != "" {
		dst = append(dst, ' ')
		dst = append(dst, m.Fields...)
	}
	return seal(m.Stamp.appendTo(dst), start)
}

// xiangqi reports whether g is the xiangqi board.
func xiangqi(g rules.Geometry) bool { return g == rules.Xiangqi9x10 }

// pieceLetter is the OBP letter of pc on a board of geometry g: chess
// KQRBNP, xiangqi KAEHRCP; upper case for the first player.
func pieceLetter(g rules.Geometry, pc rules.Piece) byte {
	l := pc.Kind.Letter()
	if xiangqi(g) && pc.Kind == rules.Knight {
		l = 'H'
	}
	if pc.Color == rules.Black {
		l += 'a' - 'A'
	}
	return l
}

// parsePiece reads an OBP piece letter on a board of geometry g. Xiangqi
// boards may also write the daemon's FEN letters N (horse) and B
// (elephant).
func parsePiece(g rules.Geometry, c byte) (rules.Piece, bool) {
	color := rules.White
	if c >= 'a' && c <= 'z' {
		color = rules.Black
		c -= 'a' - 'A'
	}
	var k rules.Kind
	if xiangqi(g) {
		switch c {
		case 'K':
			k = rules.King
		case 'A':
			k = rules.Advisor
		case 'E', 'B':
			k = rules.Elephant
		case 'H', 'N':
			k = rules.Knight
		case 'R':
			k = rules.Rook
		case 'C':
			k = rules.Cannon
		case 'P':
			k = rules.Pawn
		default:
			return rules.NoPiece, false
		}
	} else {
		switch c {
		case 'K':
			k = rules.King
		case 'Q':
			k = rules.Queen
		case 'R':
			k = rules.Rook
		case 'B':
			k = rules.Bishop
		case 'N':
			k = rules.Knight
		case 'P':
			k = rules.Pawn
		default:
			return rules.NoPiece, false
		}
	}
	return rules.Piece{Color: color, Kind: k}, true
}

// ParsePiece reads a piece letter as a board of geometry g sends it
// (upper case for the first player; on a xiangqi board K A E/B H/N R C P):
// ok is false for a letter that is no piece of that board.
func ParsePiece(g rules.Geometry, c byte) (rules.Piece, bool) { return parsePiece(g, c) }
