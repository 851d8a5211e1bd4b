package pairings

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// TRF-16 columns (1-based, inclusive, as the format describes them).
const (
	trfRankFrom, trfRankTo        = 5, 8
	trfTitleFrom, trfTitleTo      = 11, 13
	trfNameFrom, trfNameTo        = 15, 47
	trfFideFrom, trfFideTo        = 58, 68
	trfRound1                     = 92 // first column of round 1's entry
	trfRoundWidth                 = 10 // columns per round
	trfTeamNameFrom               = 5  // 013: team name 5–36, players from 37, 5 columns each
	trfTeamNameTo                 = 36
	trfTeamFirst                  = 37
	trf26TeamNameFrom             = 9 // 310: team name 9–40, players from 74
	trf26TeamNameTo               = 40
	trf26TeamFirst                = 74
	trfTeamPlayerWidth            = 5
	trfTeamPlayerDigits           = 4
	trfColourOffset               = 5 // colour at round column + 5 (97 for round 1)
	trfResultOffset               = 7 // result at round column + 7 (99 for round 1)
	trfOpponentDigits             = 4
	halfPoints               half = 1 // ½ point, in halves
)

// half counts points in halves, so that scores compare exactly.
type half int

// trfPlayer is one 001 record.
type trfPlayer struct {
	rank   int
	name   string
	fideID string
	title  string
	team   string
	line   int
	rounds []trfEntry // index 0 is round 1
}

// trfEntry is one round of a player: opponent (0: none), colour ('w', 'b'
// or 0) and result code (0 when blank).
type trfEntry struct {
	opp    int
	colour byte
	result byte
}

// field returns columns from..to (1-based, inclusive) of line, trimmed;
// "" past the end of the line.
func field(line string, from, to int) string {
	if from > len(line) {
		return ""
	}
	return strings.TrimSpace(line[from-1 : min(to, len(line))])
}

// parseTRF reads the player (001) and team (013, 310) records of a TRF
// file and numbers each round's boards.
func parseTRF(data []byte) (*Table, error) {
	var errs errorList
	players := map[int]*trfPlayer{}
	teams := map[int]string{}
	teamLine := map[int]int{}
	n := 0
	for line := range strings.Lines(string(data)) {
		n++
		line = strings.TrimRight(line, "\r\n")
		if len(line) < 3 {
			continue
		}
		switch line[:3] {
		case "001":
			p, ok := parsePlayer(line, n, &errs)
			if !ok {
				continue
			}
			if prev, dup := players[p.rank]; dup {
				errs.add(n, "starting rank %d is already given at line %d", p.rank, prev.line)
				continue
			}
			players[p.rank] = p
		case "013":
			teamRecord(line, n, field(line, trfTeamNameFrom, trfTeamNameTo), trfTeamFirst, teams, teamLine, &errs)
		case "310":
			teamRecord(line, n, field(line, trf26TeamNameFrom, trf26TeamNameTo), trf26TeamFirst, teams, teamLine, &errs)
		}
	}
	if len(players) == 0 && len(errs.errs) == 0 {
		errs.add(0, "no player lines (001): not a TRF-16 file")
	}
	for rank, team := range teams {
		if p, ok := players[rank]; ok {
			p.team = team
		} else {
			errs.add(teamLine[rank], "team %q lists starting rank %d, which has no player line", team, rank)
		}
	}
	t := &Table{Format: TRF, games: map[key]Pairing{}}
	rounds := 0
	for _, p := range players {
		rounds = max(rounds, len(p.rounds))
	}
	for r := 1; r <= rounds; r++ {
		for _, pr := range roundPairs(players, r, &errs) {
			pr.Round = r
			t.games[key{r, pr.Board}] = pr
		}
	}
	if len(errs.errs) > 0 {
		return nil, errs.err()
	}
	return t, nil
}

// parsePlayer reads one 001 record.
func parsePlayer(line string, n int, errs *errorList) (*trfPlayer, bool) {
	rank, err := strconv.Atoi(field(line, trfRankFrom, trfRankTo))
	if err != nil || rank < 1 {
		errs.add(n, "starting rank %q (columns 5–8) is not a number of 1 or more", field(line, trfRankFrom, trfRankTo))
		return nil, false
	}
	p := &trfPlayer{rank: rank, line: n, name: field(line, trfNameFrom, trfNameTo)}
	if t, ok := Title(field(line, trfTitleFrom, trfTitleTo)); ok {
		p.title = t
	} else {
		errs.add(n, "title %q (columns 11–13) is not a FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM or g, i, f, c, wg, wi, wf, wc)", field(line, trfTitleFrom, trfTitleTo))
	}
	switch id := field(line, trfFideFrom, trfFideTo); {
	case id == "" || strings.Trim(id, "0") == "":
	case digits(id):
		p.fideID = strings.TrimLeft(id, "0")
	default:
		errs.add(n, "FIDE number %q (columns 58–68) is not a number", id)
	}
	for col := trfRound1; col <= len(line); col += trfRoundWidth {
		r := len(p.rounds) + 1
		e := trfEntry{}
		opp := field(line, col, col+trfOpponentDigits-1)
		if opp != "" {
			v, err := strconv.Atoi(opp)
			if err != nil || v < 0 {
				errs.add(n, "round %d: opponent %q (columns %d–%d) is not a starting rank", r, opp, col, col+trfOpponentDigits-1)
			}
			e.opp = max(v, 0)
		}
		if c := field(line, col+trfColourOffset, col+trfColourOffset); c != "" {
			e.colour = strings.ToLower(c)[0]
		}
		if c := field(line, col+trfResultOffset, col+trfResultOffset); c != "" {
			e.result = strings.ToUpper(c)[0]
		}
		switch {
		case e.colour == 'w' || e.colour == 'b' || e.colour == '-' || e.colour == 0:
		default:
			errs.add(n, "round %d: colour %q (column %d) is not w, b or -", r, string(e.colour), col+trfColourOffset)
		}
		if e.colour == '-' {
			e.colour = 0
		}
		p.rounds = append(p.rounds, e)
	}
	// Entries after the last round with anything in it are padding.
	for len(p.rounds) > 0 && p.rounds[len(p.rounds)-1] == (trfEntry{}) {
		p.rounds = p.rounds[:len(p.rounds)-1]
	}
	return p, true
}

// teamRecord reads the players of a team record from column first on.
func teamRecord(line string, n int, name string, first int, teams map[int]string, teamLine map[int]int, errs *errorList) {
	if name == "" {
		errs.add(n, "team record without a team name")
		return
	}
	for col := first; col <= len(line); col += trfTeamPlayerWidth {
		f := field(line, col, col+trfTeamPlayerDigits-1)
		if f == "" {
			continue
		}
		rank, err := strconv.Atoi(f)
		if err != nil || rank < 0 {
			errs.add(n, "team %q: %q (columns %d–%d) is not a starting rank", name, f, col, col+trfTeamPlayerDigits-1)
			continue
		}
		if rank == 0 {
			continue
		}
		if other, dup := teams[rank]; dup && other != name {
			errs.add(n, "starting rank %d is in team %q and in team %q", rank, other, name)
			continue
		}
		teams[rank] = name
		teamLine[rank] = n
	}
}

// points returns what a result code is worth under the default scoring of
// TRF-16: a win (OTB, by forfeit, under one move), a full-point or a
// pairing-allocated bye 1, a draw or a half-point bye ½, the rest 0.
func points(result byte) half {
	switch result {
	case '1', '+', 'W', 'F', 'U':
		return 2 * halfPoints
	case '=', 'D', 'H':
		return halfPoints
	}
	return 0
}

// score is p's score before round r.
func (p *trfPlayer) score(r int) half {
	var s half
	for i := 0; i < r-1 && i < len(p.rounds); i++ {
		s += points(p.rounds[i].result)
	}
	return s
}

func (p *trfPlayer) entry(r int) trfEntry {
	if r-1 < len(p.rounds) {
		return p.rounds[r-1]
	}
	return trfEntry{}
}

// roundPairs returns round r's games, numbered in the order of FIDE
// C.04.2: the higher score of the pair, then the sum of the scores (both
// before the round), then the better starting rank of the pair.
func roundPairs(players map[int]*trfPlayer, r int, errs *errorList) []Pairing {
	type pair struct{ white, black *trfPlayer }
	var pairs []pair
	ranks := make([]int, 0, len(players))
	for rank := range players {
		ranks = append(ranks, rank)
	}
	slices.Sort(ranks)
	seen := map[int]bool{}
	for _, rank := range ranks {
		p := players[rank]
		e := p.entry(r)
		if e.opp == 0 || seen[rank] {
			continue // a bye, an absence, or already paired
		}
		q, ok := players[e.opp]
		if !ok {
			errs.add(p.line, "round %d: opponent %d has no player line", r, e.opp)
			continue
		}
		qe := q.entry(r)
		if qe.opp != rank {
			errs.add(p.line, "round %d: player %d plays %d, but the line of %d (line %d) gives %s", r, rank, e.opp, e.opp, q.line, opponentWord(qe.opp))
			continue
		}
		seen[rank], seen[e.opp] = true, true
		switch {
		case e.colour == 'w' && qe.colour != 'w':
			pairs = append(pairs, pair{p, q})
		case e.colour == 'b' && qe.colour != 'b':
			pairs = append(pairs, pair{q, p})
		case e.colour == 0 && qe.colour == 'b':
			pairs = append(pairs, pair{p, q})
		case e.colour == 0 && qe.colour == 'w':
			pairs = append(pairs, pair{q, p})
		default:
			errs.add(p.line, "round %d: players %d and %d are paired but their colours (%s, %s) do not say who has White",
				r, rank, e.opp, colourWord(e.colour), colourWord(qe.colour))
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		sa, sb := [2]half{a.white.score(r), a.black.score(r)}, [2]half{b.white.score(r), b.black.score(r)}
		if c := cmp.Compare(max(sb[0], sb[1]), max(sa[0], sa[1])); c != 0 {
			return c
		}
		if c := cmp.Compare(sb[0]+sb[1], sa[0]+sa[1]); c != 0 {
			return c
		}
		return cmp.Compare(min(a.white.rank, a.black.rank), min(b.white.rank, b.black.rank))
	})
	out := make([]Pairing, len(pairs))
	for i, p := range pairs {
		out[i] = Pairing{Board: i + 1, White: p.white.name, Black: p.black.name,
			WhiteFideID: p.white.fideID, BlackFideID: p.black.fideID, WhiteTitle: p.white.title, BlackTitle: p.black.title,
			WhiteTeam: p.white.team, BlackTeam: p.black.team, Line: p.white.line}
	}
	return out
}

func opponentWord(opp int) string {
	if opp == 0 {
		return "no opponent"
	}
	return "opponent " + strconv.Itoa(opp)
}

func colourWord(c byte) string {
	if c == 0 {
		return "none"
	}
	return string(c)
}
