package board_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/internal/handsim"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

// teamRuleSet is the regulation's team-drop rule set.
func teamRuleSet(tb fataler) ruleset.RuleSet {
	tb.Helper()
	rs, err := ruleset.Lookup(ruleset.BGO2026Team)
	if err != nil {
		tb.Fatal(err)
	}
	return rs
}

// playTeam plays a match of the independent hands under the regulation's
// rules.
func playTeam(tb fataler, r handsim.Rand, o handsim.TeamOptions) handsim.TeamMatch {
	tb.Helper()
	m, err := teamdrop.New(teamRuleSet(tb), "", "", o.Start)
	if err != nil {
		tb.Fatal(err)
	}
	return handsim.PlayTeam(r, m, o)
}

// teamOutcome is how the hall's wiring followed a team-drop match of the
// independent hands: each board's outcome (simOutcome: the record against
// the plies played, the first difference and the open alert covering
// it), and the crit/warn alerts the truth's match did not raise.
type teamOutcome struct {
	boards [2]simOutcome
	// unexpected: crit and warn alerts that are neither the truth's
	// findings nor the word that the partner board's record is lost, by
	// board.
	unexpected [2][]game.Alert
	// unseen: the plies (from 1) of each board that dropped a piece no
	// scan saw where it was put (taken at once by the opponent).
	unseen [2][]int
}

func (o teamOutcome) exact() bool { return o.boards[0].exact() && o.boards[1].exact() }

// stuck: a board's record differs and no open alert says so.
func (o teamOutcome) stuck() bool {
	for _, out := range o.boards {
		if out.stuck() {
			return true
		}
	}
	return false
}

// unseenStuck: board b's record differs, uncovered, within two plies of a
// drop that no scan saw, the piece taken before the board's next scan of
// its square (the board then shows the opponent's piece arriving on an
// empty square, nothing else). Such a game is stuck like any other; the
// soak counts these apart in its figures.
func (o teamOutcome) unseenStuck(b int) bool {
	out := o.boards[b]
	if !out.stuck() {
		return false
	}
	for _, p := range o.unseen[b] {
		if p <= out.diff && out.diff <= p+2 {
			return true
		}
	}
	return false
}

// unseenDrops returns the plies (from 1) of g that dropped a piece no
// scan reported on its square before the next press on the board.
func unseenDrops(g handsim.Game) []int {
	var out []int
	for i, p := range g.Plies {
		if !p.Move.IsDrop() {
			continue
		}
		until := g.End
		if i+1 < len(g.Plies) {
			until = g.Plies[i+1].Press
		}
		seen := false
		for _, in := range g.Inputs {
			if sc, ok := in.Sensed.(game.SquareChange); ok && sc.Square == p.Move.To && sc.Piece.Kind == p.Move.Drop &&
				!in.At.Before(p.Release) && !in.At.After(until) {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, i+1)
		}
	}
	return out
}

// followTeam follows a match as the hall does: the two boards' sessions
// linked by NewTeamSessions (one match owning the pockets; each tracker
// with its board's position in the match, Repocket and AcceptIllegalAs
// wired by hall/session), each board's inputs fed to its session in the
// order they came (board A first at the same instant), both sessions
// ticked every 50 ms between them, what one board's input did to the other
// (TakePartner) taken after each call, Finish at the end.
func followTeam(tb fataler, tm handsim.TeamMatch) teamOutcome {
	tb.Helper()
	rs := teamRuleSet(tb)
	mk := func(b, partner int) session.SessionOptions {
		return session.SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "team", Round: 1, Board: b}, Variant: "team-drop", Ruleset: rs.Name},
			RuleSet: rs, TimeControl: clock.MustParse("300"), Tracker: session.DefaultTrackerOptions(), Partner: game.ID{Event: "team", Round: 1, Board: partner}}
	}
	start := tm.Boards[0].Inputs[0].At
	if at := tm.Boards[1].Inputs[0].At; at.Before(start) {
		start = at
	}
	ss, err := session.NewTeamSessions(mk(1, 2), mk(2, 1), nil, nil, start)
	if err != nil {
		tb.Fatal(err)
	}
	var alerts [2][]game.Alert
	take := func(b int, st session.Step) {
		for _, out := range st.Out {
			if a, ok := out.(game.Alert); ok {
				alerts[b] = append(alerts[b], a)
			}
		}
	}
	collect := func(b int, st session.Step) {
		take(b, st)
		for range 8 {
			pa, pb := ss[0].TakePartner(), ss[1].TakePartner()
			if pa.Empty() && pb.Empty() {
				return
			}
			take(0, pa)
			take(1, pb)
		}
	}
	in := tm.Boards[0].Inputs
	jn := tm.Boards[1].Inputs
	i, j := 0, 0
	beat := start.Truncate(simBeat)
	for i < len(in) || j < len(jn) {
		b, at := 0, time.Time{}
		switch {
		case j >= len(jn) || (i < len(in) && !in[i].At.After(jn[j].At)):
			b, at = 0, in[i].At
		default:
			b, at = 1, jn[j].At
		}
		for ; beat.Before(at); beat = beat.Add(simBeat) {
			collect(0, ss[0].Tick(beat))
			collect(1, ss[1].Tick(beat))
		}
		if b == 0 {
			collect(0, ss[0].Sense(at, in[i].Sensed))
			i++
		} else {
			collect(1, ss[1].Sense(at, jn[j].Sensed))
			j++
		}
	}
	for ; beat.Before(tm.End); beat = beat.Add(simBeat) {
		collect(0, ss[0].Tick(beat))
		collect(1, ss[1].Tick(beat))
	}
	collect(0, ss[0].Finish(tm.End))
	collect(1, ss[1].Finish(tm.End))
	var o teamOutcome
	truth := map[string]int{}
	for _, f := range tm.Findings {
		truth[fmt.Sprintf("%d %s", f.Where().Board, f.Kind())]++
	}
	for b := range 2 {
		g := tm.Boards[b]
		out := simOutcome{want: g.UCI(), alerts: alerts[b]}
		for _, p := range ss[b].Record().Moves {
			out.got = append(out.got, p.UCI)
		}
		out.judgeAlerts()
		o.boards[b] = out
		o.unseen[b] = unseenDrops(g)
		for _, a := range alerts[b] {
			k := fmt.Sprintf("%d %s", b, a.Kind)
			if truth[k] > 0 {
				truth[k]--
				continue
			}
			if a.Severity != game.Info && !endOfGame(a, len(g.Plies)) && a.Proposal["partner"] == nil {
				o.unexpected[b] = append(o.unexpected[b], a)
			}
		}
	}
	return o
}

// judgeAlerts finds the first difference between the record and the game
// played and the open alert that covers it, from the alerts the arbiter
// was given (a session's trackers' events are not seen): the record lost
// (record_lost crit) or the board unexplained (displaced_pieces warn) and
// not resolved since (their info alerts), the partner board's record lost
// while the ply was played (this board's pockets then lack what was
// captured there), an ambiguity named at the ply, or the match's own word
// on the ply (an illegal move, a board the pockets cannot explain).
func (o *simOutcome) judgeAlerts() {
	if slices.Equal(o.got, o.want) {
		return
	}
	d := 0
	for d < len(o.got) && d < len(o.want) && o.got[d] == o.want[d] {
		d++
	}
	o.diff = d + 1
	open := ""
	partner := -1 // this board's ply when the partner board's record was lost, while it is
	for _, a := range o.alerts {
		switch {
		case a.Kind == game.KindRecordLost && a.Proposal["partner"] != nil:
			// The partner board's record lost, then found: this board's
			// drops in between were judged with pockets that may lack
			// pieces, and the arbiter was told so.
			switch {
			case a.Severity != game.Info && partner < 0:
				partner = a.Ply
			case a.Severity == game.Info && partner >= 0:
				if partner < o.diff && o.diff <= a.Ply+1 {
					o.cover = "partner " + game.KindRecordLost
				}
				partner = -1
			}
		case a.Kind == game.KindRecordLost || a.Kind == game.KindDisplaced:
			open = a.Kind
			if a.Severity == game.Info {
				open = ""
			}
		case a.Kind == game.KindAmbiguous && a.Ply <= o.diff && o.diff < a.Ply+4,
			a.Kind == game.KindIllegalMove && a.Ply == o.diff,
			a.Kind == game.KindBoardMismatch && a.Severity == game.Crit:
			o.cover = a.Kind
		}
	}
	if o.cover == "" && partner >= 0 && partner < o.diff {
		o.cover = "partner " + game.KindRecordLost
	}
	if o.cover == "" {
		o.cover = open
	}
}

// teamBrief says where each board's record differs and what covers it,
// and the unexpected alerts; with DGTBRIDGE_SIM_VERBOSE set, every alert
// too.
func (o teamOutcome) brief() string {
	var b strings.Builder
	for i, out := range o.boards {
		if !out.exact() {
			if o.unseenStuck(i) {
				b.WriteString("(a drop no scan saw) ")
			}
			fmt.Fprintf(&b, "board %s: the record differs at ply %d of %d (covered by %q): got %v, want %v; ", teamdrop.Board(i), out.diff, len(out.want), out.cover, around(out.got, out.diff-1), around(out.want, out.diff-1))
		}
		for _, a := range o.unexpected[i] {
			fmt.Fprintf(&b, "board %s: %s %s ply %d: %s; ", teamdrop.Board(i), a.Severity, a.Kind, a.Ply, a.Message)
		}
		if os.Getenv("DGTBRIDGE_SIM_VERBOSE") != "" {
			for _, a := range out.alerts {
				fmt.Fprintf(&b, "\n  board %s %s %s %s ply %d: %s", teamdrop.Board(i), a.At.Time.Format("15:04:05.000"), a.Severity, a.Kind, a.Ply, a.Message)
			}
			fmt.Fprintf(&b, "\n  board %s record %v\n  played %v\n", teamdrop.Board(i), out.got, out.want)
		}
	}
	return b.String()
}

// followTeamCase follows a match kept as a named case, once it has
// checked that board b's ply (from 1) is still the move uci the case is
// about: a generator that plays differently now makes the case another
// one, and the test says so rather than passing on a game it was not
// written for.
func followTeamCase(t *testing.T, tm handsim.TeamMatch, b, ply int, uci string) teamOutcome {
	t.Helper()
	if got := tm.Boards[b].Plies[ply-1].UCI; got != uci {
		t.Fatalf("board %d ply %d is %s, not the %s of the case (the generator changed)", b, ply, got, uci)
	}
	return followTeam(t, tm)
}

// wantTeamQuiet wants both records of a followed match exact and no
// alert on either that the game played does not call for.
func wantTeamQuiet(t *testing.T, out teamOutcome) {
	t.Helper()
	if !out.exact() {
		t.Fatalf("%s", out.brief())
	}
	for b, u := range out.unexpected {
		for _, a := range u {
			t.Errorf("board %d: false %s %s at ply %d: %s", b, a.Severity, a.Kind, a.Ply, a.Message)
		}
	}
}
