package announce

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Lang is an announcement language.
type Lang string

// The languages of docs/contract.md §3.5.
const (
	English    Lang = "en"
	German     Lang = "de"
	Vietnamese Lang = "vi"
)

// ErrLang: the language is not one of en, de, vi.
var ErrLang = errors.New("announce: unknown language")

// ParseLang parses "en", "de" or "vi".
func ParseLang(s string) (Lang, error) {
	switch l := Lang(s); l {
	case English, German, Vietnamese:
		return l, nil
	}
	return "", fmt.Errorf("%w %q (want en, de or vi)", ErrLang, s)
}

// words is the vocabulary of one language.
type words struct {
	pieces      [rules.King + 1]string // by rules.Kind
	files       [8]string              // "" to write the letter
	ranks       [8]string              // "" to write the digit
	to, takes   string                 // between from and to squares (Long)
	enPassant   string
	promotes    string // "%s" is the piece
	check, mate string
	short, long string // castling
	drop        string // "%[1]s" piece, "%[2]s" square
	remove      string // "%[1]s" piece, "%[2]s" square (team variant A6)
	sep         string // between the parts of one announcement
}

var vocab = map[Lang]*words{
	English: {
		pieces:    [...]string{"", "Pawn", "Knight", "Bishop", "Rook", "Queen", "King"},
		to:        "to",
		takes:     "takes",
		enPassant: "en passant",
		promotes:  "promotes to %s",
		check:     "check",
		mate:      "checkmate",
		short:     "Short castling",
		long:      "Long castling",
		drop:      "%s dropped on %s",
		remove:    "%s on %s removed",
		sep:       ", ",
	},
	German: {
		pieces:    [...]string{"", "Bauer", "Springer", "Laeufer", "Turm", "Dame", "Koenig"},
		files:     [8]string{"Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"},
		ranks:     [8]string{"eins", "zwei", "drei", "vier", "fuenf", "sechs", "sieben", "acht"},
		to:        "–",
		takes:     "schlaegt",
		enPassant: "en passant",
		promotes:  "Umwandlung in %s",
		check:     "Schach",
		mate:      "Matt",
		short:     "Kurze Rochade",
		long:      "Lange Rochade",
		drop:      "%s eingesetzt auf %s",
		remove:    "%s auf %s entfernt",
		sep:       ", ",
	},
	Vietnamese: {
		pieces:    [...]string{"", "Tốt", "Mã", "Tượng", "Xe", "Hậu", "Vua"},
		to:        "–",
		takes:     "ăn",
		enPassant: "bắt tốt qua đường",
		promotes:  "phong %s",
		check:     "chiếu",
		mate:      "chiếu hết",
		short:     "Nhập thành ngắn",
		long:      "Nhập thành dài",
		drop:      "Đặt %s %s",
		remove:    "Bỏ %s %s",
		sep:       ", ",
	},
}

func (w *words) file(f int) string {
	if w.files[0] != "" {
		return w.files[f]
	}
	return string(rune('a' + f))
}

func (w *words) rank(r int) string {
	if w.ranks[0] != "" {
		return w.ranks[r]
	}
	return strconv.Itoa(r + 1)
}

// square names square s of an 8×8 board: "Eva vier" or "e4".
func (w *words) square(g rules.Geometry, s rules.Square) string {
	f, r := g.File(s), g.Rank(s)
	if w.files[0] != "" {
		return w.files[f] + " " + w.ranks[r]
	}
	return w.file(f) + w.rank(r)
}

func (w *words) piece(k rules.Kind) string {
	if int(k) < len(w.pieces) {
		return w.pieces[k]
	}
	return k.String()
}
