package announce

import (
	"fmt"
	"strings"
	"time"
)

// Clock is what a talking clock announces (D.2.6.1): the time on both
// clocks and the number of moves.
type Clock struct {
	// White and Black are the times shown (remaining time); negative
	// counts as zero, parts of a second are dropped.
	White, Black time.Duration
	// Moves is the number of moves completed (D.2.10.4).
	Moves int
}

// timeWords is the vocabulary of the time announcement.
type timeWords struct {
	// unit forms: [singular, plural]
	moves, hours, minutes, seconds [2]string
	order                          string // "%[1]s moves. %[2]s … %[3]s …"
}

var timeVocab = map[Lang]*timeWords{
	English: {
		moves: [2]string{"move", "moves"}, hours: [2]string{"hour", "hours"},
		minutes: [2]string{"minute", "minutes"}, seconds: [2]string{"second", "seconds"},
		order: "%s. White %s. Black %s.",
	},
	German: {
		moves: [2]string{"Zug", "Zuege"}, hours: [2]string{"Stunde", "Stunden"},
		minutes: [2]string{"Minute", "Minuten"}, seconds: [2]string{"Sekunde", "Sekunden"},
		order: "%s. Weiss %s. Schwarz %s.",
	},
	Vietnamese: {
		moves: [2]string{"nước", "nước"}, hours: [2]string{"giờ", "giờ"},
		minutes: [2]string{"phút", "phút"}, seconds: [2]string{"giây", "giây"},
		order: "Đã đi %s. Trắng còn %s. Đen còn %s.",
	},
}

// Time returns the talking-clock announcement of c in lang, e.g. "23
// moves. White 1 hour 25 minutes 30 seconds. Black 58 minutes 2
// seconds." German spells like D.2.1 ("Zuege", "Weiss").
func Time(c Clock, lang Lang) (string, error) {
	w, ok := timeVocab[lang]
	if !ok {
		return "", fmt.Errorf("%w %q", ErrLang, lang)
	}
	return fmt.Sprintf(w.order, count(c.Moves, w.moves), w.duration(c.White), w.duration(c.Black)), nil
}

func count(n int, forms [2]string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, forms[0])
	}
	return fmt.Sprintf("%d %s", n, forms[1])
}

// duration says d in hours, minutes and seconds, leaving out zero parts
// ("0 seconds" when all are zero).
func (w *timeWords) duration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d / time.Second)
	h, m := s/3600, s/60%60
	s %= 60
	var parts []string
	if h > 0 {
		parts = append(parts, count(h, w.hours))
	}
	if m > 0 {
		parts = append(parts, count(m, w.minutes))
	}
	if s > 0 || len(parts) == 0 {
		parts = append(parts, count(s, w.seconds))
	}
	return strings.Join(parts, " ")
}
