package demo

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// teamIllegalDrops is how often the demo's team players drop a piece
// they do not have (at a move with an empty pocket): a few per match.
const teamIllegalDrops = 0.02

// RoomOptions say what the demo's room holds.
type RoomOptions struct {
	Boards     int  // DGT boards playing famous games, numbered from 1
	Blind      bool // board 1 is a blind player's game: Black plays on a board of their own
	Team       bool // two more boards play a team-drop match, linked
	Xiangqi    int  // OBP xiangqi boards playing master games, numbered last
	FirstRound int
	Speed      float64
	Seed       uint64
	Event      string // the event id of the games (the xiangqi tables' results)
	Prefix     string // the daemon's NATS subject prefix (the xiangqi arbiter's)
	Logger     *slog.Logger
}

// Seat is one board of the room as the daemon is to read it: its
// configuration entry.
type Seat struct {
	Port                 string
	OBP                  bool // an Open Board Protocol board (else DGT)
	Round, Board         int
	Variant, Ruleset     string // "" for the event's
	TimeControl          string // "" for the event's
	Partner              int    // the linked board of a team-drop match
	White, Black         string
	WhiteTeam, BlackTeam string
	BlindPort            string // the blind player's (Black's) board, announced in English
}

// Room is the demo's emulated hall: DGT tables, a team-drop match,
// xiangqi tables, and the arbiter at the xiangqi tables.
type Room struct {
	Tables       []*Table
	Team         *TeamTable // nil without a team match
	Xiangqi      []*XiangqiTable
	Seats        []Seat // every board, in board order
	Games        []*pgn.Game
	XiangqiGames []*pgn.Game
	FirstXiangqi int // the first xiangqi board's number
	Arbiter      *Arbiter
}

// NewRoom makes the room's emulated boards on pseudo-terminals; on an
// error it closes those made.
func NewRoom(o RoomOptions) (*Room, error) {
	games, err := Games()
	if err != nil {
		return nil, err
	}
	r := &Room{Games: games, Arbiter: &Arbiter{Prefix: o.Prefix, Log: o.Logger}}
	if err := r.add(o); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

func (r *Room) add(o RoomOptions) error {
	round := o.FirstRound
	for i := range o.Boards {
		relay := o.Blind && i == 0
		t, err := NewTable(TableOptions{Board: i + 1, FirstRound: round, Games: r.Games, Speed: o.Speed, Seed: o.Seed,
			Relay: relay, BlindSide: rules.Black, Logger: o.Logger})
		if err != nil {
			return fmt.Errorf("demo: board %d: %w", i+1, err)
		}
		r.Tables = append(r.Tables, t)
		g := t.Game(round)
		seat := Seat{Port: t.Path(), Round: round, Board: i + 1, White: g.Tag("White"), Black: g.Tag("Black")}
		if relay {
			seat.BlindPort = t.BlindPath()
		}
		r.Seats = append(r.Seats, seat)
	}
	if o.Team {
		// The team-drop match (004 "Cờ đặt"): two linked boards under
		// bgo2026-team (5 minutes, no increment).
		t, err := NewTeamTable(TeamTableOptions{Seed: o.Seed, Speed: o.Speed, IllegalDrops: teamIllegalDrops, Logger: o.Logger})
		if err != nil {
			return fmt.Errorf("demo: team match: %w", err)
		}
		r.Team = t
		n := len(r.Seats)
		players := [2][2]string{{"Đội Rồng 1", "Đội Hổ 1"}, {"Đội Hổ 2", "Đội Rồng 2"}}
		for b := range 2 {
			r.Seats = append(r.Seats, Seat{Port: t.Path(b), Round: round, Board: n + b + 1, Variant: "team-drop",
				Ruleset: ruleset.BGO2026Team, TimeControl: "300", Partner: n + 2 - b, White: players[b][0], Black: players[b][1],
				WhiteTeam: []string{"Rồng", "Hổ"}[b], BlackTeam: []string{"Hổ", "Rồng"}[b]})
		}
	}
	xg, err := XiangqiGames()
	if err != nil {
		return err
	}
	r.XiangqiGames, r.FirstXiangqi = xg, len(r.Seats)+1
	for i := range o.Xiangqi {
		board := r.FirstXiangqi + i
		t, err := NewXiangqiTable(XiangqiTableOptions{Board: board, FirstRound: round, Games: xg, Event: o.Event,
			Speed: o.Speed, Seed: o.Seed, Result: r.Arbiter.Result, Logger: o.Logger})
		if err != nil {
			return fmt.Errorf("demo: xiangqi board %d: %w", board, err)
		}
		r.Xiangqi = append(r.Xiangqi, t)
		g := t.Game(round)
		r.Seats = append(r.Seats, Seat{Port: t.Path(), OBP: true, Round: round, Board: board,
			Variant: "xiangqi", Ruleset: ruleset.XiangqiVN2004, White: g.Tag("White"), Black: g.Tag("Black")})
	}
	return nil
}

// Close closes the boards' pseudo-terminals of a room that never ran.
func (r *Room) Close() {
	for _, t := range r.Tables {
		t.Close()
	}
	if r.Team != nil {
		r.Team.Close()
	}
	for _, t := range r.Xiangqi {
		t.Close()
	}
}

// Run starts the emulated boards' goroutines on wg, until ctx ends; a
// board that stops with an error is logged.
func (r *Room) Run(ctx context.Context, wg *sync.WaitGroup, log *slog.Logger) {
	for _, t := range r.Tables {
		wg.Go(func() {
			if err := t.Run(ctx); err != nil {
				log.Error("emulated board stopped", "port", t.Path(), "err", err)
			}
		})
	}
	for _, t := range r.Xiangqi {
		wg.Go(func() {
			if err := t.Run(ctx); err != nil {
				log.Error("emulated xiangqi board stopped", "port", t.Path(), "err", err)
			}
		})
	}
	if r.Team != nil {
		wg.Go(func() {
			if err := r.Team.Run(ctx); err != nil {
				log.Error("emulated team boards stopped", "err", err)
			}
		})
	}
}
