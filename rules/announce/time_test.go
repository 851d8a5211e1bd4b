package announce_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/announce"
)

func TestTime(t *testing.T) {
	long := announce.Clock{White: time.Hour + 25*time.Minute + 30*time.Second + 400*time.Millisecond, Black: 58*time.Minute + 2*time.Second, Moves: 23}
	one := announce.Clock{White: time.Hour + time.Minute + time.Second, Black: 0, Moves: 1}
	neg := announce.Clock{White: -3 * time.Second, Black: 90 * time.Minute, Moves: 0}
	for _, tc := range []struct {
		name string
		c    announce.Clock
		lang announce.Lang
		want string
	}{
		{"en", long, announce.English, "23 moves. White 1 hour 25 minutes 30 seconds. Black 58 minutes 2 seconds."},
		{"de", long, announce.German, "23 Zuege. Weiss 1 Stunde 25 Minuten 30 Sekunden. Schwarz 58 Minuten 2 Sekunden."},
		{"vi", long, announce.Vietnamese, "Đã đi 23 nước. Trắng còn 1 giờ 25 phút 30 giây. Đen còn 58 phút 2 giây."},
		{"en singular", one, announce.English, "1 move. White 1 hour 1 minute 1 second. Black 0 seconds."},
		{"de singular", one, announce.German, "1 Zug. Weiss 1 Stunde 1 Minute 1 Sekunde. Schwarz 0 Sekunden."},
		{"en negative and whole hours", neg, announce.English, "0 moves. White 0 seconds. Black 1 hour 30 minutes."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := announce.Time(tc.c, tc.lang)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := announce.Time(long, "fr"); !errors.Is(err, announce.ErrLang) {
		t.Errorf("Time in fr: %v", err)
	}
}
