package xiangqi

import (
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
)

// longNames are the Vietnamese piece names of Art. 11.2 in the long form,
// matching the letters Tg S T X P M B.
var longNames = [...]string{general: "Tướng", advisor: "Sĩ", elephant: "Tượng", chariot: "Xe", cannon: "Pháo", horse: "Mã", soldier: "Binh"}

// LongForm writes m in the Vietnamese long form of Art. 11.2 (docs/xiangqi.md,
// "Notation") for displays: "Pháo 2 bình 5", "Xe trước tiến 1", "Binh giữa bình
// 6" (piece name; file number or trước/sau/giữa; tiến/thoái/bình; number).
// Where the VN notation falls back to ICCS, so does LongForm.
func (p *Position) LongForm(m rules.Move) string {
	s := p.Notation(m, DialectVN)
	k := pieceLetter(&syms[DialectVN], s)
	rest := s
	if k != 0 {
		rest = s[len(syms[DialectVN].letters[k]):]
	}
	if k == 0 || len(rest) != 3 {
		return s // the ICCS fallback
	}
	var b strings.Builder
	b.WriteString(longNames[k])
	b.WriteByte(' ')
	switch rest[0] {
	case 't':
		b.WriteString("trước")
	case 's':
		b.WriteString("sau")
	case 'g':
		b.WriteString("giữa")
	default:
		b.WriteByte(rest[0])
	}
	switch rest[1] {
	case '.':
		b.WriteString(" tiến ")
	case '/':
		b.WriteString(" thoái ")
	default:
		b.WriteString(" bình ")
	}
	b.WriteByte(rest[2])
	return b.String()
}
