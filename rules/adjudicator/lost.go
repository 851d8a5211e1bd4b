package adjudicator

import (
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// onLost: the tracker lost the record (nothing has explained the board
// for a while, or a press came meanwhile): one crit alert per episode,
// naming the last ply that agreed with the board, the board's placement
// and the arbiter's ways out.
func (a *Adjudicator) onLost(e game.Unexplained) []game.Verdict {
	a.unexplained, a.lost = true, true
	ply := min(e.Agreed, len(a.plies))
	sqs := make([]string, len(e.Squares))
	for i, s := range e.Squares {
		sqs[i] = a.sq(s)
	}
	al := a.newAlert(e.At, game.KindRecordLost, game.Crit, a.rs.Articles.Displaced, rules.NoColor, ply,
		fmt.Sprintf("The record is lost: since %s nothing explains the position on the board (it differs on %s); the record stops at ply %d, the last that agreed with the board. Reinstate the position of ply %d, set the board's position, or enter the moves played; the record also resumes by itself when the board shows a position it explains.",
			e.Since.UTC().Format("15:04:05"), strings.Join(sqs, " "), ply, ply))
	al.Proposal = a.reinstateProposal(ply)
	al.Proposal["board"] = e.Placement.String()
	al.Proposal["ways_out"] = []string{"reinstate", "set_position", "enter_moves"}
	return []game.Verdict{*al}
}

// onFound: the record found the board again after it was lost.
func (a *Adjudicator) onFound(at time.Time, ply int) []game.Verdict {
	if !a.lost {
		return nil
	}
	a.lost, a.unexplained = false, false
	return []game.Verdict{*a.newAlert(at, game.KindRecordLost, game.Info, a.rs.Articles.Displaced, rules.NoColor, ply,
		fmt.Sprintf("The record found the board again at ply %d: check the moves since the record was lost.", ply))}
}

// onReread: the tracker replaced moves of the record from an earlier ply
// by a line that explains what the board showed since.
func (a *Adjudicator) onReread(e game.Correction) []game.Verdict {
	msg := fmt.Sprintf("The record was corrected after ply %d: %s replaced by %s", e.Ply, moveList(e.Was), moveList(e.Now))
	if e.Why != "" {
		msg += " (" + e.Why + ")"
	}
	al := a.newAlert(e.At.Time, game.KindRecordCorrected, game.Warn, "", rules.NoColor, e.Ply+1, msg+". Check these moves.")
	al.Proposal = map[string]any{"from_ply": e.Ply + 1, "was": e.Was, "now": e.Now}
	return []game.Verdict{*al}
}

func moveList(sans []string) string {
	if len(sans) == 0 {
		return "nothing"
	}
	return strings.Join(sans, " ")
}
