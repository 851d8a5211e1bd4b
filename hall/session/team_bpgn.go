package session

import (
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// BPGNGame returns the match as a BPGN 1.0 game (docs/contract.md §1, §5):
// the players of both boards, Result that of the team of White on A, the
// moves of both boards in the order of their clock presses with the
// mover's remaining time, and the termination of the board where the
// match ended.
func (tm *teamMatch) BPGNGame() *pgn.BPGNGame {
	a, b := tm.s[teamdrop.A].rec, tm.s[teamdrop.B].rec
	g := &pgn.BPGNGame{Result: tm.m.Result(teamdrop.A).Result}
	date := "????.??.??"
	if !a.Started.IsZero() {
		date = a.Started.UTC().Format("2006.01.02")
	}
	id := a.Info.Game
	g.SetTag("Event", gamerecord.Or(a.Info.EventName, id.Event))
	g.SetTag("Site", gamerecord.Or(a.Info.Site, "?"))
	g.SetTag("Date", date)
	g.SetTag("Round", strconv.Itoa(id.Round))
	g.SetTag("WhiteA", gamerecord.Or(a.Info.White, "?"))
	g.SetTag("BlackA", gamerecord.Or(a.Info.Black, "?"))
	g.SetTag("WhiteB", gamerecord.Or(b.Info.White, "?"))
	g.SetTag("BlackB", gamerecord.Or(b.Info.Black, "?"))
	if a.Info.TimeControl != "" {
		g.SetTag("TimeControl", a.Info.TimeControl)
	}
	if a.Info.WhiteTeam != "" || a.Info.BlackTeam != "" {
		// White on A and Black on B are one team.
		g.SetTag("WhiteTeam", a.Info.WhiteTeam)
		g.SetTag("BlackTeam", a.Info.BlackTeam)
	}
	for i := range g.Start {
		g.Start[i] = tm.m.Start(teamdrop.Board(i))
	}
	recs := [2]*gamerecord.Record{a, b}
	var n [2]int // plies seen per board
	for _, p := range tm.m.Sequence() {
		i := int(p.Board)
		n[i]++
		if p.Kind == teamdrop.PlyConfiscation && !p.PassesTurn && len(g.Moves) > 0 {
			// A confiscation that is not the confiscator's move is a
			// [%lift] after the move before it on that board.
			for j := len(g.Moves) - 1; j >= 0; j-- {
				if int(g.Moves[j].Board) == i {
					g.Moves[j].Lift = rules.Chess8x8.Name(p.Move.From)
					break
				}
			}
			continue
		}
		mv := pgn.BPGNMove{Board: pgn.Board2(i), Color: p.Color, Number: moveNumber(tm.m.Start(p.Board), p), SAN: p.SAN, Move: p.Move}
		if k := n[i] - 1; k < len(recs[i].Moves) {
			if c := recs[i].Moves[k].Clock; c != nil {
				ms := c.WhiteMS
				if p.Color == rules.Black {
					ms = c.BlackMS
				}
				mv.Clock, mv.HasClock = time.Duration(ms)*time.Millisecond, true
			}
		}
		g.Moves = append(g.Moves, mv)
	}
	for _, b := range []teamdrop.Board{teamdrop.A, teamdrop.B} {
		if r := tm.m.Result(b); r.Result != "*" && r.Termination != teamdrop.TermPartnerBoard {
			g.Comment = "Board " + b.String() + ": " + r.Termination
			break
		}
	}
	return g
}

// moveNumber returns the full-move number of ply p on its board.
func moveNumber(start rules.Position, p teamdrop.Ply) int {
	first := start.FullmoveNumber()
	if start.Turn() == rules.Black {
		// Ply 1 is Black's move of move first.
		return first + p.Number/2
	}
	return first + (p.Number-1)/2
}

// bpgn returns the match as BPGN text ("" when it cannot be written).
func (tm *teamMatch) bpgn() string {
	var b strings.Builder
	if err := pgn.WriteBPGN(&b, tm.BPGNGame(), pgn.WriteOptions{}); err != nil {
		return ""
	}
	return b.String()
}
