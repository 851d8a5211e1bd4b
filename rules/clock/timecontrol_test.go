package clock

import (
	"errors"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	s := time.Second
	tests := []struct {
		in   string
		want TimeControl
	}{
		{"?", TimeControl{Unknown: true}},
		{"-", TimeControl{Untimed: true}},
		{"300", TimeControl{Periods: []Period{{Time: 300 * s}}}},
		{"5400+30", TimeControl{Periods: []Period{{Time: 5400 * s, Increment: 30 * s}}}},
		{"40/5400+30:1800+30", TimeControl{Periods: []Period{{Moves: 40, Time: 5400 * s, Increment: 30 * s}, {Time: 1800 * s, Increment: 30 * s}}}},
		{"40/7200:20/3600", TimeControl{Periods: []Period{{Moves: 40, Time: 7200 * s}, {Moves: 20, Time: 3600 * s}}}},
		{"5400d5", TimeControl{Periods: []Period{{Time: 5400 * s, Delay: 5 * s}}}},
		{"40/6000d30:900d30", TimeControl{Periods: []Period{{Moves: 40, Time: 6000 * s, Delay: 30 * s}, {Time: 900 * s, Delay: 30 * s}}}},
		{"*180", TimeControl{Periods: []Period{{Time: 180 * s, Sandclock: true}}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTimeControl(tt.in)
			if err != nil {
				t.Fatalf("ParseTimeControl(%q): %v", tt.in, err)
			}
			if got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
			if len(got.Periods) != len(tt.want.Periods) || got.Unknown != tt.want.Unknown || got.Untimed != tt.want.Untimed {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got.Periods {
				if got.Periods[i] != tt.want.Periods[i] {
					t.Errorf("period %d = %+v, want %+v", i, got.Periods[i], tt.want.Periods[i])
				}
			}
		})
	}
}

func TestParseTimeControlErrors(t *testing.T) {
	tests := []struct {
		in     string
		column int
		err    error
	}{
		{"", 1, ErrSyntax},
		{"90m", 3, ErrSyntax},
		{"40/", 4, ErrSyntax},
		{"0", 1, ErrRange},
		{"0/300", 1, ErrRange},
		{"5400+", 6, ErrSyntax},
		{"5400+30d5", 8, ErrSyntax},
		{"300:40/5400", 4, ErrSyntax},
		{"40/5400:x", 9, ErrSyntax},
		{"*180:60", 1, ErrSyntax},
		{"99999999", 1, ErrRange},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParseTimeControl(tt.in)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("ParseTimeControl(%q) error = %v, want *ParseError", tt.in, err)
			}
			if pe.Offset+1 != tt.column {
				t.Errorf("column = %d, want %d (%v)", pe.Offset+1, tt.column, err)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("error %v is not %v", err, tt.err)
			}
		})
	}
}

func TestPeriodAt(t *testing.T) {
	tc := MustParse("40/7200:20/3600")
	tests := []struct{ done, idx, end int }{
		{0, 0, 40}, {39, 0, 40}, {40, 1, 60}, {59, 1, 60}, {60, 1, 80}, {85, 1, 100},
	}
	for _, tt := range tests {
		idx, end := tc.PeriodAt(tt.done)
		if idx != tt.idx || end != tt.end {
			t.Errorf("PeriodAt(%d) = %d, %d; want %d, %d", tt.done, idx, end, tt.idx, tt.end)
		}
	}
	if !MustParse("40/5400+30:1800+30").IsLastPeriod(40) || MustParse("40/5400+30:1800+30").IsLastPeriod(39) {
		t.Error("IsLastPeriod wrong around move 40")
	}
	if !MustParse("5400d5").HasIncrement() || MustParse("40/7200:3600").HasIncrement() {
		t.Error("HasIncrement wrong")
	}
}

func FuzzParseTimeControl(f *testing.F) {
	for _, s := range []string{"?", "-", "300", "5400+30", "40/5400+30:1800+30", "5400d5", "*180", "40/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tc, err := ParseTimeControl(s)
		if err != nil {
			return
		}
		back, err := ParseTimeControl(tc.String())
		if err != nil || back.String() != tc.String() {
			t.Fatalf("round trip %q → %q → %v", s, tc.String(), err)
		}
	})
}
