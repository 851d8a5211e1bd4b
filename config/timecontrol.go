package config

import (
	"fmt"
	"strings"
)

// CheckTimeControl checks the syntax of a PGN TimeControl tag value (PGN
// standard §9.6.1): "?" (unknown), "-" (none), or periods separated by
// ":", each "moves/seconds", "seconds", "seconds+increment" or "*seconds"
// (sandglass). Only the last period may be without a move count, and
// every period but the last needs one. It checks syntax, not sense.
func CheckTimeControl(tc string) error {
	if tc == "?" || tc == "-" {
		return nil
	}
	if tc == "" {
		return fmt.Errorf("empty time control")
	}
	periods := strings.Split(tc, ":")
	for i, p := range periods {
		last := i == len(periods)-1
		if err := checkPeriod(p, last); err != nil {
			return fmt.Errorf("%q is not a PGN time control: period %d %q: %w (e.g. 5400+30 or 40/7200:1800+30)", tc, i+1, p, err)
		}
	}
	return nil
}

func checkPeriod(p string, last bool) error {
	if rest, ok := strings.CutPrefix(p, "*"); ok {
		if !digits(rest) {
			return fmt.Errorf("sandglass seconds must be digits")
		}
		if !last {
			return fmt.Errorf("a sandglass period must be the last")
		}
		return nil
	}
	moves, secs, hasMoves := strings.Cut(p, "/")
	if !hasMoves {
		secs, moves = moves, ""
		if !last {
			return fmt.Errorf("a period before the last needs a move count (moves/seconds)")
		}
	} else if !digits(moves) || moves == "0" {
		return fmt.Errorf("the move count must be a positive number")
	}
	base, inc, hasInc := strings.Cut(secs, "+")
	if !digits(base) {
		return fmt.Errorf("the seconds must be digits")
	}
	if hasInc && !digits(inc) {
		return fmt.Errorf("the increment must be digits")
	}
	return nil
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
