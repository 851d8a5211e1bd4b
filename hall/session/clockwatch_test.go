package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// reading is a clock-times message: left and right in seconds, running
// or not (the left side runs, status bits 0 and 3).
func reading(left, right int, running bool) dgt.ClockTimes {
	side := func(s int) dgt.ClockSide {
		return dgt.ClockSide{Hours: uint8(s / 3600), Minutes: uint8(s / 60 % 60), Seconds: uint8(s % 60)}
	}
	ct := dgt.ClockTimes{Left: side(left), Right: side(right)}
	if running {
		ct.Status = 0x09
	}
	return ct
}

// deviceAlerts lists the clock/board device alerts of out as kind/severity.
func deviceAlerts(out []game.Payload) []string {
	var got []string
	for _, o := range out {
		if al, ok := o.(game.Alert); ok && (al.Kind == game.KindClockDisconnected || al.Kind == game.KindBoardDisconnected ||
			al.Kind == game.KindFlagFall || al.Kind == game.KindBothFlags) {
			got = append(got, fmt.Sprintf("%s/%s", al.Kind, al.Severity))
		}
	}
	return got
}

// TestSessionClockWatch: the clock is lost when the board says "no clock"
// (never read as 0:00 flags) or when a running clock falls silent for
// ClockSilence while the board is connected; a stopped clock's silence,
// or the board's own absence, says nothing; a valid reading brings it back.
func TestSessionClockWatch(t *testing.T) {
	noClock := dgt.ClockTimes{Status: 0x20}
	type in struct {
		after time.Duration // since the previous input
		msg   dgt.Message   // nil: a Tick
		board string        // "lost" / "back": the board's link
	}
	tests := []struct {
		name string
		ins  []in
		want string
	}{
		{"no clock reported", []in{{0, reading(5400, 5400, true), ""}, {time.Second, noClock, ""}, {time.Second, noClock, ""},
			{time.Second, reading(5397, 5400, true), ""}},
			"clock_disconnected/crit clock_disconnected/info"},
		{"running clock silent", []in{{0, reading(5400, 5400, true), ""}, {5 * time.Second, nil, ""}, {6 * time.Second, nil, ""},
			{time.Second, nil, ""}, {time.Second, reading(5388, 5400, true), ""}},
			"clock_disconnected/crit clock_disconnected/info"},
		{"stopped clock silent", []in{{0, reading(5400, 5400, false), ""}, {time.Minute, nil, ""}}, ""},
		{"board away", []in{{0, reading(5400, 5400, true), ""}, {time.Second, nil, "lost"}, {30 * time.Second, nil, ""},
			{time.Second, nil, "back"}, {5 * time.Second, nil, ""}, {time.Second, reading(5363, 5400, true), ""}},
			"board_disconnected/crit board_disconnected/info"},
		{"no clock before any reading", []in{{0, noClock, ""}, {time.Minute, nil, ""}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := sessionOptions(t)
			s, err := NewSession(o, nil, t0)
			if err != nil {
				t.Fatal(err)
			}
			at := t0
			var got []string
			for _, x := range tt.ins {
				at = at.Add(x.after)
				var st Step
				switch {
				case x.board != "":
					st = s.Device(at, game.DeviceBoard, x.board == "lost", "test")
				case x.msg != nil:
					st = s.Message(at, x.msg)
				default:
					st = s.Tick(at)
				}
				got = append(got, deviceAlerts(st.Out)...)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("alerts %q, want %q", got, tt.want)
			}
		})
	}
}
