package session

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// alert turns a finding of the match into the alert of its board's game
// (docs/contract.md §3.4): the finding's kind, severity, 004 article and
// message; the side concerned; what it proposes (the technical error the
// arbiter may confirm, the square that may be confiscated, a result);
// "te" for a technical error. The id is "<game>.<kind>.<ply>.<seq>", seq
// counting the match's alerts of that kind at that ply of that game.
func (tm *teamMatch) alert(f teamdrop.Finding) game.Alert {
	w := f.Where()
	g := tm.s[w.Board].rec.Info.Game
	key := fmt.Sprintf("%s.%s.%d", g, f.Kind(), w.Ply)
	seq := tm.seq[key]
	tm.seq[key] = seq + 1
	a := game.Alert{ID: fmt.Sprintf("%s.%d", key, seq), Game: g, Kind: f.Kind(), Severity: f.Severity(), Article: w.Article,
		Ply: w.Ply, Message: f.Message(), At: game.T(w.At)}
	side := func(s teamdrop.Side) { a.Side = s.Color.String() }
	prop := map[string]any{}
	switch f := f.(type) {
	case *teamdrop.IllegalMove:
		side(f.Side)
		prop["violation"] = f.Violation.String()
		prop["move"] = f.Text
		if f.Candidate {
			prop["technical_error"] = f.Side.Color.String()
		}
		if f.Confiscable {
			prop["confiscate"] = rules.Chess8x8.Name(f.Square)
		}
		if f.TimeAward > 0 {
			prop["time_add_ms"] = game.Millis(f.TimeAward)
			prop["side"] = f.Side.Color.Other().String()
		}
	case *teamdrop.TechnicalError:
		side(f.Side)
		a.TE = f.Count
		if f.Proposal != "" {
			prop["result"] = f.Proposal
		}
	case *teamdrop.UnpromotedPawn:
		side(f.Side)
		prop["remove"] = rules.Chess8x8.Name(f.Square)
	case *teamdrop.Confiscation:
		side(f.By)
		prop["square"] = rules.Chess8x8.Name(f.Square)
		prop["to"] = tm.s[f.To.Board].rec.Info.Game.String()
	case *teamdrop.BoardMismatch:
		prop["piece"] = f.Piece.String()
		prop["missing"] = f.Missing
	case *teamdrop.PocketsCorrected:
		prop["pockets"] = gamerecord.GamePockets(f.After[rules.White], f.After[rules.Black])
	case *teamdrop.PocketSettled:
		side(f.Side)
		prop["piece"] = f.Piece.String()
	case *teamdrop.Checkmate:
		side(f.Winner)
		if f.Ends {
			prop["result"] = winFor(f.Winner.Color)
		}
	case *teamdrop.Stalemate:
		side(f.Side)
	case *teamdrop.Threefold:
		prop["claim"] = "threefold"
		prop["result"] = adjudicator.Draw
	case *teamdrop.MatchEnd:
		prop["results"] = map[string]string{tm.s[teamdrop.A].rec.Info.Game.String(): f.Results[teamdrop.A],
			tm.s[teamdrop.B].rec.Info.Game.String(): f.Results[teamdrop.B]}
		prop["termination"] = f.Termination
		prop["provisional"] = f.Provisional
	case *teamdrop.SimultaneousEnd:
		prop["first"] = endText(tm, f.First)
		prop["second"] = endText(tm, f.Second)
	case *teamdrop.NotRecorded:
		side(f.Side)
		prop["move"] = f.Text
	case *teamdrop.LongThink:
		side(f.Side)
		prop["think_ms"] = game.Millis(f.Think)
	}
	if len(prop) > 0 {
		a.Proposal = prop
	}
	tm.alerts[a.ID] = teamAlert{f: f, board: w.Board}
	return a
}

// winFor returns the result string of a win by c.
func winFor(c rules.Color) string {
	if c == rules.White {
		return "1-0"
	}
	return "0-1"
}

// endText describes an end of a board for a simultaneous-end alert.
func endText(tm *teamMatch, e teamdrop.EndEvent) string {
	return fmt.Sprintf("%s %s (%s) at %s", tm.s[e.Board].rec.Info.Game, e.Result, e.Termination, e.At.UTC().Format(game.TimeLayout))
}
