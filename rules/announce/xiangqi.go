package announce

import (
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// XiangqiText is the announcement of one xiangqi move.
type XiangqiText struct {
	// Notation is the move as written: the short Vietnamese notation of
	// 001 (docs/xiangqi.md, "Notation": "P2-5") in Vietnamese, WXF ("C2.5") in
	// English.
	Notation string
	// Spoken is what a voice says: in Vietnamese the long form of 001
	// ("Pháo 2 bình 5"), in English the WXF move in words ("Cannon 2
	// traverses to 5", "Horse 8 advances to 7", "Chariot front retreats
	// 1"), with "chiếu" / "check" or "chiếu hết" / "checkmate" unless
	// Options.OmitCheck.
	Spoken string
}

// xqWords are the English words of the long form, by VN letter.
var xqPieceEN = map[string]string{"Tg": "General", "S": "Advisor", "T": "Elephant", "X": "Chariot", "P": "Cannon", "M": "Horse", "B": "Soldier"}

// Xiangqi returns the announcement of move m in pos in lang (en or vi; German
// has no xiangqi wording: ErrLang). m must be legal in pos: an illegal move
// returns pos.Check's *rules.IllegalMoveError. Where the notation has no form
// (four soldiers on a file; docs/xiangqi.md, "Notation") both texts give the
// ICCS move ("e6d6", spoken "e6 to d6").
func Xiangqi(pos *xiangqi.Position, m rules.Move, lang Lang, opts Options) (XiangqiText, error) {
	if lang != English && lang != Vietnamese {
		return XiangqiText{}, fmt.Errorf("%w %q for xiangqi (want en or vi)", ErrLang, lang)
	}
	if err := pos.Check(m); err != nil {
		return XiangqiText{}, err
	}
	vn := pos.Notation(m, xiangqi.DialectVN)
	var t XiangqiText
	if lang == Vietnamese {
		t.Notation, t.Spoken = vn, pos.LongForm(m)
	} else {
		t.Notation, t.Spoken = pos.Notation(m, xiangqi.DialectWXF), spokenEN(vn)
	}
	if t.Spoken == pos.UCI(m) {
		g := rules.Xiangqi9x10
		to := " to "
		if lang == Vietnamese {
			to = " đến "
		}
		t.Spoken = g.Name(m.From) + to + g.Name(m.To)
	}
	if !opts.OmitCheck {
		after, err := pos.PlayMove(m)
		if err != nil {
			return XiangqiText{}, err
		}
		mate, check := "checkmate", "check"
		if lang == Vietnamese {
			mate, check = "chiếu hết", "chiếu"
		}
		switch {
		case after.Status() == rules.Checkmate:
			t.Spoken += ", " + mate
		case after.InCheck():
			t.Spoken += ", " + check
		}
	}
	return t, nil
}

// spokenEN spells a VN-notation move in English words, or returns it
// unchanged when it is the ICCS fallback.
func spokenEN(vn string) string {
	letter := ""
	for _, l := range []string{"Tg", "S", "T", "X", "P", "M", "B"} {
		if strings.HasPrefix(vn, l) {
			letter = l
			break
		}
	}
	rest := strings.TrimPrefix(vn, letter)
	if letter == "" || len(rest) != 3 {
		return vn
	}
	var b strings.Builder
	b.WriteString(xqPieceEN[letter])
	switch rest[0] {
	case 't':
		b.WriteString(" front")
	case 's':
		b.WriteString(" rear")
	case 'g':
		b.WriteString(" middle")
	default:
		b.WriteByte(' ')
		b.WriteByte(rest[0])
	}
	diagonal := letter == "S" || letter == "T" || letter == "M"
	switch rest[1] {
	case '.':
		b.WriteString(" advances ")
	case '/':
		b.WriteString(" retreats ")
	default:
		b.WriteString(" traverses ")
		diagonal = true
	}
	if diagonal {
		b.WriteString("to ")
	}
	b.WriteByte(rest[2])
	return b.String()
}
