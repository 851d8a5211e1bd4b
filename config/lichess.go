package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// DefaultLichessURL is lichess.url's default.
const DefaultLichessURL = "https://lichess.org"

// validateLichess checks lichess.url and lichess.rounds (the token file is
// read by Load).
func (c *Config) validateLichess() []error {
	var errs []error
	l := c.Lichess
	if u, err := url.Parse(l.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		errs = append(errs, keyErr("lichess.url", "%q is not the base URL of a Lichess server (e.g. %s)", l.URL, DefaultLichessURL))
	} else if u.Scheme == "http" && !loopbackHost(u.Hostname()) {
		errs = append(errs, keyErr("lichess.url", "%q: the API token would travel in clear; use https:// (http:// only for a server on this machine: localhost, 127.0.0.1, ::1)", l.URL))
	}
	rounds := make([]int, 0, len(l.Rounds))
	for r := range l.Rounds {
		rounds = append(rounds, r)
	}
	slices.Sort(rounds)
	seen := map[string]int{}
	for _, r := range rounds {
		id := l.Rounds[r]
		key := fmt.Sprintf("lichess.rounds.%d", r)
		switch {
		case r < 1:
			errs = append(errs, keyErr(key, "round numbers are 1 or more"))
		case strings.Contains(id, "/"):
			errs = append(errs, keyErr(key, "%q is a URL: give the round id alone (the last eight letters and digits of the round's URL)", id))
		case !lichessID(id):
			errs = append(errs, keyErr(key, "%q is not a Lichess broadcast round id (eight letters and digits, e.g. AbCd1234)", id))
		case seen[id] != 0:
			errs = append(errs, keyErr(key, "%s is also the Lichess round of round %d: each round needs its own", id, seen[id]))
		default:
			seen[id] = r
		}
	}
	return errs
}

// lichessID reports whether s has the shape of a Lichess id: eight ASCII
// letters and digits.
func lichessID(s string) bool {
	if len(s) != 8 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
