package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// maxDemoXiangqi bounds --xiangqi.
const maxDemoXiangqi = 12

// demoXiangqi is the demo's xiangqi boards: emulated OBP boards on
// pseudo-terminals playing the built-in master games (rules/xiangqi/games),
// and the arbiter at their tables (demo.Arbiter) who records each game's
// result over NATS (the set-up after it begins the next round's game).
type demoXiangqi struct {
	tables  []*demo.XiangqiTable
	games   []*pgn.Game
	first   int // the first xiangqi board's number
	arbiter *demo.Arbiter
}

// addDemoXiangqi adds n xiangqi boards to cfg, numbered after the boards
// already there, protocol obp, rule set xiangqi-vn2004.
func addDemoXiangqi(cfg *config.Config, n, round int, seed uint64, speed float64, log *slog.Logger) (*demoXiangqi, error) {
	games, err := demo.XiangqiGames()
	if err != nil {
		return nil, err
	}
	x := &demoXiangqi{games: games, first: len(cfg.Boards) + 1, arbiter: &demo.Arbiter{Prefix: cfg.NATS.Prefix, Log: log}}
	for i := range n {
		board := x.first + i
		t, err := demo.NewXiangqiTable(demo.XiangqiTableOptions{Board: board, FirstRound: round, Games: games, Event: cfg.Event.ID,
			Speed: speed, Seed: seed, Result: x.arbiter.Result, Logger: log})
		if err != nil {
			x.close()
			return nil, fmt.Errorf("demo: xiangqi board %d: %w", board, err)
		}
		x.tables = append(x.tables, t)
		g := t.Game(round)
		cfg.Boards = append(cfg.Boards, config.Board{Port: t.Path(), Protocol: config.ProtocolOBP, Round: round, Board: board,
			Variant: config.VariantXiangqi, Ruleset: ruleset.XiangqiVN2004, White: g.Tag("White"), Black: g.Tag("Black")})
	}
	return x, nil
}

// close closes the tables' pseudo-terminals (they never ran).
func (x *demoXiangqi) close() {
	for _, t := range x.tables {
		t.Close()
	}
}

// nextGames gives the xiangqi boards of hb their next games (the next
// round's built-in game).
func (x *demoXiangqi) nextGames(hb []hall.Board) {
	for i := range hb {
		if hb[i].Session.Info.Variant == config.VariantXiangqi {
			hb[i].Session.NextGame = demo.XiangqiNextGame(x.games)
		}
	}
}

// print says where the xiangqi boards are and what they play.
func (x *demoXiangqi) print(w io.Writer, round int) {
	for i, t := range x.tables {
		g := t.Game(round)
		fmt.Fprintf(w, "  board %-2d %s  xiangqi (OBP board): %s – %s (%s, CCPD, CC BY 4.0)\n", x.first+i, t.Path(),
			g.Tag("White"), g.Tag("Black"), g.Tag("Date")[:4])
	}
}
