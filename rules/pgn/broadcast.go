package pgn

import (
	"fmt"
	"strconv"
	"strings"
)

// Broadcast holds the tags by which a Lichess broadcast identifies a game
// across polls and pushes (GameId
// first, else Event, Site, round and board number and the players, FIDE
// ids preferred over names) plus the ones it shows. Zero fields are not
// written.
type Broadcast struct {
	Event, Site, Date        string
	Round, Board             int // Round "r.b"; Board 0 writes Round "r"
	White, Black             string
	WhiteFideID, BlackFideID int
	WhiteTitle, BlackTitle   string
	WhiteElo, BlackElo       int
	TimeControl              string // PGN TimeControl syntax, e.g. "5400+30"
	GameID                   string // stable id of the game, [GameId]
}

// SetBroadcast sets g's tags from b, replacing tags of the same names and
// leaving the others alone. Names are trimmed.
func (g *Game) SetBroadcast(b Broadcast) {
	set := func(name, v string) {
		if v = strings.TrimSpace(v); v != "" {
			g.SetTag(name, v)
		}
	}
	num := func(name string, v int) {
		if v > 0 {
			g.SetTag(name, strconv.Itoa(v))
		}
	}
	set("Event", b.Event)
	set("Site", b.Site)
	set("Date", b.Date)
	if b.Round > 0 {
		g.SetTag("Round", RoundTag(b.Round, b.Board))
	}
	set("White", b.White)
	set("Black", b.Black)
	num("WhiteFideId", b.WhiteFideID)
	num("BlackFideId", b.BlackFideID)
	set("WhiteTitle", b.WhiteTitle)
	set("BlackTitle", b.BlackTitle)
	num("WhiteElo", b.WhiteElo)
	num("BlackElo", b.BlackElo)
	set("TimeControl", b.TimeControl)
	set("GameId", b.GameID)
}

// RoundTag returns the Round tag value "r.b" of board b in round r, the
// form Lichess broadcasts match boards by; b ≤ 0 gives "r".
func RoundTag(round, board int) string {
	if board <= 0 {
		return strconv.Itoa(round)
	}
	return strconv.Itoa(round) + "." + strconv.Itoa(board)
}

// ParseRound parses a Round tag value "r" or "r.b" (board 0 when absent).
// "?" and "-" (unknown, not applicable) and anything else that is not
// one or two positive numbers are errors wrapping ErrBadTag.
func ParseRound(s string) (round, board int, err error) {
	r, b, hasBoard := strings.Cut(s, ".")
	round, err = strconv.Atoi(r)
	if err != nil || round <= 0 {
		return 0, 0, fmt.Errorf("%w: Round %q", ErrBadTag, s)
	}
	if !hasBoard {
		return round, 0, nil
	}
	board, err = strconv.Atoi(b)
	if err != nil || board <= 0 {
		return 0, 0, fmt.Errorf("%w: Round %q", ErrBadTag, s)
	}
	return round, board, nil
}
