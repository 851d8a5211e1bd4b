package dgt

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules"
)

// BoardDump is DGT_BOARD_DUMP (0x86): the piece code of every
// field, index 0 = a8 … 63 = h1 in the board's own numbering.
type BoardDump struct {
	Fields [NumFields]PieceCode
}

var _ Message = BoardDump{}

// MsgID returns MsgBoardDump.
func (BoardDump) MsgID() MsgID { return MsgBoardDump }

// AppendBinary appends `86 00 43` and the 64 codes; codes must be < 16.
func (d BoardDump) AppendBinary(b []byte) ([]byte, error) {
	if err := checkCodes(d.Fields[:]); err != nil {
		return b, err
	}
	b = appendHeader(b, MsgBoardDump, 3+NumFields)
	for _, c := range d.Fields {
		b = append(b, byte(c))
	}
	return b, nil
}

// Placement returns the chess pieces on the board as squares of
// [rules.Chess8x8], the board placed in orientation o. Magic pieces (and
// invalid codes) count as empty squares; find them with [BoardDump.Magic].
func (d *BoardDump) Placement(o Orientation) rules.Placement {
	p := rules.NewPlacement(rules.Chess8x8)
	for i, c := range d.Fields {
		if pc, ok := c.Piece(); ok {
			p.Sq[Field(i).Square(o)] = pc
		}
	}
	return p
}

// Magic appends to dst the fields holding a magic piece and
// returns it.
func (d *BoardDump) Magic(dst []Field) []Field {
	for i, c := range d.Fields {
		if c.IsMagic() {
			dst = append(dst, Field(i))
		}
	}
	return dst
}

// DumpOf returns the dump a board in orientation o reports for placement
// p (an 8×8 placement). Pieces the board cannot represent are an error.
func DumpOf(p *rules.Placement, o Orientation) (BoardDump, error) {
	var d BoardDump
	if p.Geo != rules.Chess8x8 {
		return d, invalidf("placement is %dx%d, not 8x8", p.Geo.Files, p.Geo.Ranks)
	}
	for s := rules.Square(0); s < 64; s++ {
		c, ok := PieceCodeOf(p.Sq[s])
		if !ok {
			return d, invalidf("no DGT code for %v on %s", p.Sq[s].Kind, p.Geo.Name(s))
		}
		f, _ := FieldOf(s, o)
		d.Fields[f] = c
	}
	return d, nil
}

// String returns the 64 letters of the dump in field order, 8 per rank
// separated by '/'.
func (d BoardDump) String() string {
	b := make([]byte, 0, 71)
	for i, c := range d.Fields {
		if i > 0 && i%8 == 0 {
			b = append(b, '/')
		}
		b = append(b, c.Letter())
	}
	return string(b)
}

// FieldUpdate is DGT_FIELD_UPDATE (0x8E): the piece now seen on a
// field (Empty: the field became empty).
type FieldUpdate struct {
	Field Field
	Piece PieceCode
	// Extra holds bits 4–6 of the piece byte (the undocumented "S bit" of
	// the 2014 header revision), shifted down; normally 0.
	Extra uint8
}

var _ Message = FieldUpdate{}

// MsgID returns MsgFieldUpdate.
func (FieldUpdate) MsgID() MsgID { return MsgFieldUpdate }

// AppendBinary appends `8E 00 05 field piece`.
func (u FieldUpdate) AppendBinary(b []byte) ([]byte, error) {
	if !u.Field.Valid() || !u.Piece.Valid() || u.Extra > 7 {
		return b, invalidf("field update %d/%d/%d out of range", u.Field, u.Piece, u.Extra)
	}
	return append(b, byte(MsgFieldUpdate), 0, 5, byte(u.Field), byte(u.Piece)|u.Extra<<4), nil
}

// Square returns the chess square of the update, the board placed in
// orientation o.
func (u FieldUpdate) Square(o Orientation) rules.Square { return u.Field.Square(o) }

// String returns e.g. "e4 P".
func (u FieldUpdate) String() string { return fmt.Sprintf("%s %s", u.Field, u.Piece) }

// DecodeFieldUpdate decodes the data bytes of a FIELD_UPDATE frame (the
// two bytes after the header) without allocating.
func DecodeFieldUpdate(data []byte) (FieldUpdate, error) {
	if len(data) != 2 {
		return FieldUpdate{}, invalidf("field update has %d data bytes, want 2", len(data))
	}
	if data[0] >= NumFields {
		return FieldUpdate{}, invalidf("field %d > 63", data[0])
	}
	if data[1] >= 0x80 {
		return FieldUpdate{}, invalidf("piece byte 0x%02x", data[1])
	}
	return FieldUpdate{Field: Field(data[0]), Piece: PieceCode(data[1] & 0x0F), Extra: data[1] >> 4}, nil
}

// DraughtsDump is DGT_BOARD_DUMP_50B / _50W (0x94 / 0x95): the 50
// playable squares of a draughts board, seen from black or white.
type DraughtsDump struct {
	White  bool // true: 0x95 (_50W), false: 0x94 (_50B)
	Fields [50]PieceCode
}

var _ Message = DraughtsDump{}

// MsgID returns MsgBoardDump50W or MsgBoardDump50B.
func (d DraughtsDump) MsgID() MsgID {
	if d.White {
		return MsgBoardDump50W
	}
	return MsgBoardDump50B
}

// AppendBinary appends the header and the 50 codes.
func (d DraughtsDump) AppendBinary(b []byte) ([]byte, error) {
	if err := checkCodes(d.Fields[:]); err != nil {
		return b, err
	}
	b = appendHeader(b, d.MsgID(), 53)
	for _, c := range d.Fields {
		b = append(b, byte(c))
	}
	return b, nil
}

func checkCodes(cs []PieceCode) error {
	for i, c := range cs {
		if !c.Valid() {
			return invalidf("piece code %d on field %d", c, i)
		}
	}
	return nil
}

func decodeCodes(dst []PieceCode, data []byte) error {
	for i, c := range data {
		if c > 15 {
			return invalidf("piece code %d on field %d", c, i)
		}
		dst[i] = PieceCode(c)
	}
	return nil
}
