package clock

import (
	"strconv"
	"strings"
	"time"
)

// Period is one stage of a time control.
type Period struct {
	// Moves is the number of moves to complete in this period; 0 means all
	// remaining moves (a sudden-death or quickplay-finish period).
	Moves int
	// Time is added to the player's clock at the start of the period.
	Time time.Duration
	// Increment is added after every completed move in the period (6.3.1).
	Increment time.Duration
	// Delay is the per-move delay before the main time runs (6.3.2).
	Delay time.Duration
	// Sandclock: the time one player uses is added to the other's.
	Sandclock bool
}

// TimeControl is a parsed PGN TimeControl. The zero value is "no time
// control" with Untimed false and no periods; use [ParseTimeControl].
type TimeControl struct {
	Periods []Period
	Unknown bool // "?"
	Untimed bool // "-"
}

// ParseTimeControl parses s (see the package documentation for the
// syntax). Errors are *ParseError naming the column.
func ParseTimeControl(s string) (TimeControl, error) {
	switch s {
	case "?":
		return TimeControl{Unknown: true}, nil
	case "-":
		return TimeControl{Untimed: true}, nil
	case "":
		return TimeControl{}, &ParseError{Input: s, Msg: "empty; write \"?\" for unknown or \"-\" for none", Err: ErrSyntax}
	}
	var tc TimeControl
	off := 0
	fields := strings.Split(s, ":")
	for i, f := range fields {
		p, err := parsePeriod(s, f, off)
		if err != nil {
			return TimeControl{}, err
		}
		if p.Sandclock && len(fields) > 1 {
			return TimeControl{}, &ParseError{Input: s, Offset: off, Msg: "a sandclock cannot have several periods", Err: ErrSyntax}
		}
		if p.Moves == 0 && i < len(fields)-1 {
			return TimeControl{}, &ParseError{Input: s, Offset: off + len(f), Msg: "only the last period may be without a move count", Err: ErrSyntax}
		}
		tc.Periods = append(tc.Periods, p)
		off += len(f) + 1
	}
	return tc, nil
}

// MustParse is ParseTimeControl for constants in tests and presets; it
// panics on a bad control.
func MustParse(s string) TimeControl {
	tc, err := ParseTimeControl(s)
	if err != nil {
		panic(err)
	}
	return tc
}

// parsePeriod parses one field f that starts at byte off of s.
func parsePeriod(s, f string, off int) (Period, error) {
	var p Period
	i := 0
	bad := func(at int, msg string, err error) (Period, error) {
		return Period{}, &ParseError{Input: s, Offset: off + at, Msg: msg, Err: err}
	}
	num := func(what string) (int, error) {
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j == i {
			if i < len(f) {
				_, err := bad(i, "expected "+what+", found "+strconv.Quote(f[i:i+1]), ErrSyntax)
				return 0, err
			}
			_, err := bad(i, "expected "+what+" at the end", ErrSyntax)
			return 0, err
		}
		n, err := strconv.Atoi(f[i:j])
		if err != nil || n > 1_000_000 {
			_, err := bad(i, what+" too large", ErrRange)
			return 0, err
		}
		i = j
		return n, nil
	}
	if strings.HasPrefix(f, "*") {
		p.Sandclock = true
		i = 1
	}
	n, err := num("seconds or a move count")
	if err != nil {
		return Period{}, err
	}
	if !p.Sandclock && i < len(f) && f[i] == '/' {
		if n == 0 {
			return bad(0, "a period needs at least one move", ErrRange)
		}
		p.Moves = n
		i++
		if n, err = num("seconds"); err != nil {
			return Period{}, err
		}
	}
	if n == 0 {
		return bad(i-1, "a period needs some time", ErrRange)
	}
	p.Time = time.Duration(n) * time.Second
	if i < len(f) && !p.Sandclock && (f[i] == '+' || f[i] == 'd') {
		kind := f[i]
		i++
		x, err := num("seconds of " + map[byte]string{'+': "increment", 'd': "delay"}[kind])
		if err != nil {
			return Period{}, err
		}
		if kind == '+' {
			p.Increment = time.Duration(x) * time.Second
		} else {
			p.Delay = time.Duration(x) * time.Second
		}
	}
	if i < len(f) {
		return bad(i, "unexpected "+strconv.Quote(f[i:i+1]), ErrSyntax)
	}
	return p, nil
}

// String returns tc in the syntax ParseTimeControl reads.
func (tc TimeControl) String() string {
	switch {
	case tc.Unknown:
		return "?"
	case tc.Untimed || len(tc.Periods) == 0:
		return "-"
	}
	var b strings.Builder
	for i, p := range tc.Periods {
		if i > 0 {
			b.WriteByte(':')
		}
		if p.Sandclock {
			b.WriteByte('*')
		}
		if p.Moves > 0 {
			b.WriteString(strconv.Itoa(p.Moves))
			b.WriteByte('/')
		}
		b.WriteString(strconv.FormatInt(int64(p.Time/time.Second), 10))
		if p.Increment > 0 {
			b.WriteByte('+')
			b.WriteString(strconv.FormatInt(int64(p.Increment/time.Second), 10))
		}
		if p.Delay > 0 {
			b.WriteByte('d')
			b.WriteString(strconv.FormatInt(int64(p.Delay/time.Second), 10))
		}
	}
	return b.String()
}

// Timed reports whether tc has at least one period.
func (tc TimeControl) Timed() bool { return len(tc.Periods) > 0 }

// Base returns the first period's time (0 when untimed).
func (tc TimeControl) Base() time.Duration {
	if len(tc.Periods) == 0 {
		return 0
	}
	return tc.Periods[0].Time
}

// Increment returns the first period's increment.
func (tc TimeControl) Increment() time.Duration {
	if len(tc.Periods) == 0 {
		return 0
	}
	return tc.Periods[0].Increment
}

// HasIncrement reports whether any period adds time per move (increment or
// delay): Guideline III and 2001 Art 10 apply only without (III.2.2).
func (tc TimeControl) HasIncrement() bool {
	for _, p := range tc.Periods {
		if p.Increment > 0 || p.Delay > 0 {
			return true
		}
	}
	return false
}

// PeriodAt returns the index of the period in force for a player who has
// completed done moves, and the number of moves after which that period
// ends (0 when it lasts to the end of the game). A repeating last period
// (one with a move count) keeps the same index.
func (tc TimeControl) PeriodAt(done int) (index, endsAfter int) {
	if len(tc.Periods) == 0 {
		return 0, 0
	}
	total := 0
	for i, p := range tc.Periods {
		if p.Moves == 0 {
			return i, 0
		}
		if done < total+p.Moves {
			return i, total + p.Moves
		}
		total += p.Moves
	}
	last := tc.Periods[len(tc.Periods)-1]
	k := (done-total)/last.Moves + 1
	return len(tc.Periods) - 1, total + k*last.Moves
}

// Period returns period i (the last one for i beyond the list).
func (tc TimeControl) Period(i int) Period {
	if len(tc.Periods) == 0 {
		return Period{}
	}
	if i >= len(tc.Periods) {
		i = len(tc.Periods) - 1
	}
	return tc.Periods[i]
}

// IsLastPeriod reports whether a player with done moves completed is in the
// period in which all remaining moves must be completed (Guideline III.3.1.2,
// 2001 Art 10.3).
func (tc TimeControl) IsLastPeriod(done int) bool {
	_, end := tc.PeriodAt(done)
	return end == 0
}
