package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
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
	errs = append(errs, c.validateSplit(seen)...)
	return errs
}

// LichessMaxGames is how many games Lichess takes in one push.
const LichessMaxGames = 100

// validateSplit checks lichess.split (its ids, and that each is for a
// pushed round) and that every pushed round's boards fit the Lichess
// rounds mapped for it. seen holds the ids of lichess.rounds.
func (c *Config) validateSplit(seen map[string]int) []error {
	var errs []error
	l := c.Lichess
	rounds := make([]int, 0, len(l.Split))
	for r := range l.Split {
		rounds = append(rounds, r)
	}
	slices.Sort(rounds)
	for _, r := range rounds {
		key := fmt.Sprintf("lichess.split.%d", r)
		if _, ok := l.Rounds[r]; !ok {
			errs = append(errs, keyErr(key, "round %d is not in lichess.rounds: map its first Lichess round there", r))
			continue
		}
		for i, id := range l.Split[r] {
			k := fmt.Sprintf("%s[%d]", key, i)
			switch {
			case !lichessID(id):
				errs = append(errs, keyErr(k, "%q is not a Lichess broadcast round id (eight letters and digits, e.g. AbCd1234)", id))
			case seen[id] != 0:
				errs = append(errs, keyErr(k, "%s is also a Lichess round of round %d: each needs its own", id, seen[id]))
			default:
				seen[id] = r
			}
		}
	}
	boards := map[int]int{}
	for _, b := range c.Boards {
		boards[c.round(b)]++
	}
	pushed := make([]int, 0, len(l.Rounds))
	for r := range l.Rounds {
		pushed = append(pushed, r)
	}
	slices.Sort(pushed)
	for _, r := range pushed {
		room := LichessMaxGames * (1 + len(l.Split[r]))
		if n := boards[r]; n > room {
			more := (n - room + LichessMaxGames - 1) / LichessMaxGames
			errs = append(errs, keyErr(fmt.Sprintf("lichess.rounds.%d", r),
				"round %d has %d boards and Lichess takes %d games a push: map %d more Lichess round(s) for games %d–%d in lichess.split (e.g. {%d: [AbCd1234]})",
				r, n, LichessMaxGames, more, room+1, n, r))
		}
	}
	return errs
}

// LichessNotes lists, for "run --check", the players of pushed rounds
// that have neither a usable name (two letters or more, not "unknown") nor
// a FIDE id: Lichess drops such a game, so the push sends it under a
// placeholder name ("Board 7 White"). Each note names the board's key.
func (c *Config) LichessNotes() []string {
	var notes []string
	for i, b := range c.EffectiveBoards() {
		if _, ok := c.Lichess.Rounds[b.Round]; !ok {
			continue
		}
		for _, p := range []struct{ side, name, fide string }{{"white", b.White, b.WhiteFideID}, {"black", b.Black, b.BlackFideID}} {
			if usableName(p.name) || p.fide != "" {
				continue
			}
			notes = append(notes, fmt.Sprintf("boards[%d].%s: round %d board %d has neither a name nor a FIDE id for %s (pairing file or configuration): Lichess would drop the game, so it is pushed as \"Board %d %s\"",
				i, p.side, b.Round, b.Board, p.side, b.Board, strings.ToUpper(p.side[:1])+p.side[1:]))
		}
	}
	return notes
}

// usableName reports whether Lichess keeps a player's name: two letters
// or more, not "unknown".
func usableName(s string) bool {
	s = strings.TrimSpace(s)
	return utf8.RuneCountInString(s) > 1 && !strings.EqualFold(s, "unknown") && s != "??"
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
