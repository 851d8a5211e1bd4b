package adjudicator

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// Command is an arbiter command, the JSON request on <p>.arbiter.<g>.cmd
// (the reply is {"ok":bool,"error":string}). Cmd selects the action; the
// other fields are used as listed:
//
//	acknowledge    alert_id                 the arbiter has seen it and acts on it (an illegal move then counts)
//	reject         alert_id                 the alert was wrong: an illegal move no longer counts
//	apply_penalty  alert_id                 apply the alert's proposal (time, result or technical error), once:
//	                                         a repeated request is refused with ErrNotApplicable
//	apply_penalty  penalty side [time_add_ms]  penalty: time_add | technical_error | loss | illegal_move
//	                                         (illegal_move: one the arbiter saw, e.g. two hands, 7.5.4: the ladder)
//	reinstate      ply                      the record goes back to the position after ply (7.5.1, 7.6)
//	set_result     result [termination article]  "1-0", "0-1", "1/2-1/2" or "*" (game resumes)
//	adjust_clock   white_ms black_ms [running]   set the clock (7.1, 6.10)
//	claim          side claim [move]        verify a claim (claim: threefold | fifty | time_win; move: the
//	                                         intended move of 9.2.1.1/9.3.1, UCI or SAN); the reply is a "claim" alert
//	draw_offer     side                     record a draw offer (=); it is rejected when the opponent touches a piece
//	uphold_claim   alert_id                 the claim alert was right: its result stands
//	reject_claim   alert_id                 the claim was wrong: the opponent's award (9.5.3; 2001 9.5(b))
//
// Example: {"cmd":"apply_penalty","alert_id":"open2026.1.1.illegal_move.23.0"}.
type Command struct {
	Cmd         string `json:"cmd"`
	AlertID     string `json:"alert_id,omitempty"`
	Side        string `json:"side,omitempty"` // "white" | "black"
	Ply         *int   `json:"ply,omitempty"`
	Result      string `json:"result,omitempty"`
	Termination string `json:"termination,omitempty"`
	Article     string `json:"article,omitempty"`
	Penalty     string `json:"penalty,omitempty"`
	TimeAddMs   int64  `json:"time_add_ms,omitempty"`
	WhiteMs     *int64 `json:"white_ms,omitempty"`
	BlackMs     *int64 `json:"black_ms,omitempty"`
	Running     string `json:"running,omitempty"` // "white" | "black" | "none"
	Claim       string `json:"claim,omitempty"`
	Move        string `json:"move,omitempty"`
	By          string `json:"by,omitempty"` // the arbiter, for the log
}

// Command applies an arbiter command at time at and returns its effects:
// a record alert (kind arbiter_action) and, as the command requires, a
// Result, Correction or ClockCommand. A bad command changes nothing and
// returns a *CommandError.
func (a *Adjudicator) Command(c Command, at time.Time) ([]game.Verdict, error) {
	r := cmdRun{a: a, c: c, at: at}
	f, ok := commands[c.Cmd]
	if !ok {
		return r.bad("cmd", fmt.Sprintf("unknown command %q", c.Cmd), ErrBadCommand)
	}
	return f(r)
}

// commands maps each command to what it does.
var commands = map[string]func(cmdRun) ([]game.Verdict, error){
	"acknowledge":   cmdRun.acknowledge,
	"reject":        cmdRun.acknowledge,
	"apply_penalty": cmdRun.applyPenalty,
	"reinstate":     cmdRun.reinstate,
	"set_result":    cmdRun.setResult,
	"adjust_clock":  cmdRun.adjustClock,
	"claim":         cmdRun.claim,
	"draw_offer":    cmdRun.drawOffer,
	"uphold_claim":  cmdRun.settleClaim,
	"reject_claim":  cmdRun.settleClaim,
}

// cmdRun is one command being applied.
type cmdRun struct {
	a  *Adjudicator
	c  Command
	at time.Time
}

// bad refuses the command: field is wrong.
func (r cmdRun) bad(field, msg string, err error) ([]game.Verdict, error) {
	return nil, &CommandError{Cmd: r.c.Cmd, Field: field, Msg: msg, Err: err}
}

// alert returns the alert the command names.
func (r cmdRun) alert() (*game.Alert, error) {
	if r.c.AlertID == "" {
		_, err := r.bad("alert_id", "required", ErrBadCommand)
		return nil, err
	}
	al, ok := r.a.alerts[r.c.AlertID]
	if !ok {
		_, err := r.bad("alert_id", fmt.Sprintf("no alert %q in game %s", r.c.AlertID, r.a.game.ID), ErrUnknownAlert)
		return nil, err
	}
	return al, nil
}

// acknowledge: the arbiter has seen an alert and acts on it (an illegal
// move then counts), or rejects it (it no longer counts).
func (r cmdRun) acknowledge() ([]game.Verdict, error) {
	a, c := r.a, r.c
	al, err := r.alert()
	if err != nil {
		return nil, err
	}
	p := a.byAlert[al.ID]
	if p != nil && c.Cmd == "acknowledge" {
		p.acted = true
		a.countTentative(p)
	}
	if p != nil && c.Cmd == "reject" && p.counted {
		a.illegal[p.side&1]--
		p.counted, p.acted = false, true
	}
	return []game.Verdict{*a.record(r.at, c, al.Ply, fmt.Sprintf("Arbiter %sd alert %s.", c.Cmd, al.ID))}, nil
}

// reinstate: the record goes back to the position after a ply.
func (r cmdRun) reinstate() ([]game.Verdict, error) {
	if r.c.Ply == nil || *r.c.Ply < 0 || *r.c.Ply > len(r.a.plies) {
		return r.bad("ply", fmt.Sprintf("want 0 to %d", len(r.a.plies)), ErrBadCommand)
	}
	return r.a.reinstate(r.c, *r.c.Ply, r.at), nil
}

// setResult: the arbiter's result, or "*": the game resumes.
func (r cmdRun) setResult() ([]game.Verdict, error) {
	a, c := r.a, r.c
	switch c.Result {
	case "1-0", "0-1", Draw, "*":
	default:
		return r.bad("result", `want "1-0", "0-1", "1/2-1/2" or "*"`, ErrBadCommand)
	}
	term := c.Termination
	if term == "" {
		term = "arbiter decision"
	}
	out := []game.Verdict{a.setResult(r.at, c.Result, term, c.Article, false)}
	a.offer = rules.NoColor
	if c.Result == "*" {
		a.result = nil
	}
	return append(out, *a.record(r.at, c, len(a.plies), "Arbiter set the result "+c.Result+".")), nil
}

// adjustClock: the arbiter sets the clock (7.1, 6.10).
func (r cmdRun) adjustClock() ([]game.Verdict, error) {
	a, c := r.a, r.c
	if c.WhiteMs == nil || c.BlackMs == nil || *c.WhiteMs < 0 || *c.BlackMs < 0 {
		return r.bad("white_ms/black_ms", "both required, not negative", ErrBadCommand)
	}
	run, ok := parseSide(c.Running, true)
	if !ok {
		return r.bad("running", `want "white", "black" or "none"`, ErrBadCommand)
	}
	cc := a.setClock(r.at, time.Duration(*c.WhiteMs)*time.Millisecond, time.Duration(*c.BlackMs)*time.Millisecond, run, "adjust_clock")
	return []game.Verdict{cc, *a.record(r.at, c, len(a.plies), "Arbiter set the clock."+a.hostNote(cc))}, nil
}

// drawOffer records a draw offer (8.1.5, 9.1.2.2).
func (r cmdRun) drawOffer() ([]game.Verdict, error) {
	a := r.a
	side, ok := parseSide(r.c.Side, false)
	if !ok {
		return r.bad("side", `want "white" or "black"`, ErrBadCommand)
	}
	a.offer = side
	msg := fmt.Sprintf("%s offered a draw: record (=) after the move (8.1.5, 9.1.2.2).", name(side))
	if min := a.rs.Draws.AgreementMinMovesEach; min > 0 && len(a.plies) < 2*min {
		msg += fmt.Sprintf(" An agreed draw needs at least %d move(s) by each player (%s).", min, a.rs.Articles.Agreement)
	}
	return []game.Verdict{*a.record(r.at, r.c, len(a.plies), msg)}, nil
}

// settleClaim: the claim alert was right (its result stands) or wrong
// (the opponent's award, 9.5.3; 2001 9.5(b)).
func (r cmdRun) settleClaim() ([]game.Verdict, error) {
	a, c := r.a, r.c
	al, err := r.alert()
	if err != nil {
		return nil, err
	}
	if al.Kind != game.KindClaim {
		return r.bad("alert_id", "not a claim alert", ErrBadCommand)
	}
	side, _ := parseSide(al.Side, false)
	if c.Cmd == "reject_claim" {
		return a.wrongClaim(c, r.at, side, al), nil
	}
	res, ok := al.Proposal["result"].(string)
	if !ok {
		return r.bad("alert_id", "the claim was found wrong; reject it or set the result", ErrNotApplicable)
	}
	out := []game.Verdict{a.setResult(r.at, res, al.Proposal["claim"].(string)+" claim", al.Article, false)}
	return append(out, *a.record(r.at, c, al.Ply, "Arbiter upheld the claim: "+res+".")), nil
}

// countTentative counts a tentative illegal move the arbiter acted on.
func (a *Adjudicator) countTentative(p *pendingIllegal) {
	if p.ladder && !p.counted {
		p.ladder, p.counted = false, true
		a.illegal[p.side&1]++
	}
}

// record is the alert that logs an arbiter action on the arbiter stream.
func (a *Adjudicator) record(at time.Time, c Command, ply int, msg string) *game.Alert {
	if c.By != "" {
		msg += " (" + c.By + ")"
	}
	al := a.newAlert(at, game.KindCommand, game.Info, c.Article, rules.NoColor, ply, msg)
	al.Proposal = map[string]any{"cmd": c.Cmd}
	if c.AlertID != "" {
		al.Proposal["alert"] = c.AlertID
	}
	return al
}

// applyPenalty applies an alert's proposal or an explicit penalty.
func (r cmdRun) applyPenalty() ([]game.Verdict, error) {
	if r.c.AlertID != "" {
		return r.alertPenalty()
	}
	a, c, at := r.a, r.c, r.at
	side, ok := parseSide(c.Side, false)
	if !ok {
		return r.bad("side", `want "white" or "black"`, ErrBadCommand)
	}
	var out []game.Verdict
	note := "" // what a clock setting did to the clock (hostNote)
	switch c.Penalty {
	case "time_add":
		if c.TimeAddMs == 0 {
			return r.bad("time_add_ms", "required", ErrBadCommand)
		}
		cc, ok := a.addTime(at, side, time.Duration(c.TimeAddMs)*time.Millisecond, "apply_penalty")
		if !ok {
			return r.bad("time_add_ms", "no clock readings to add time to", ErrNotApplicable)
		}
		note = a.hostNote(cc)
		out = append(out, cc)
	case "technical_error":
		out = append(out, a.technicalError(at, side, len(a.plies), "")...)
	case "loss":
		out = append(out, a.setResult(at, winFor(side.Other()), "arbiter penalty", c.Article, false))
	case "illegal_move":
		res, err := r.observedIllegal(side)
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
	default:
		return r.bad("penalty", "want time_add, technical_error, illegal_move or loss", ErrBadCommand)
	}
	return append(out, *a.record(at, c, len(a.plies), fmt.Sprintf("Arbiter applied %s to %s.", c.Penalty, name(side))+note)), nil
}

// alertPenalty applies the penalty an alert proposes, once: a request
// retried after a lost reply must not add the time or count the technical
// error twice.
func (r cmdRun) alertPenalty() ([]game.Verdict, error) {
	a, c, at := r.a, r.c, r.at
	al, err := r.alert()
	if err != nil {
		return nil, err
	}
	if a.applied[al.ID] {
		return r.bad("alert_id", "the penalty of alert "+al.ID+" is already applied", ErrNotApplicable)
	}
	var out []game.Verdict
	note := ""
	prop := al.Proposal
	switch {
	case prop["technical_error"] != nil:
		side, _ := parseSide(prop["technical_error"].(string), false)
		out = append(out, a.technicalError(at, side, al.Ply, al.ID)...)
	case prop["result"] != nil:
		out = append(out, a.setResult(at, prop["result"].(string), al.Kind, al.Article, false))
	case prop["time_add_ms"] != nil:
		side, _ := parseSide(fmt.Sprint(prop["side"]), false)
		cc, ok := a.addTime(at, side, time.Duration(prop["time_add_ms"].(int64))*time.Millisecond, al.ID)
		if !ok {
			return r.bad("alert_id", "no clock readings to add time to", ErrNotApplicable)
		}
		note = a.hostNote(cc)
		out = append(out, cc)
	default:
		return r.bad("alert_id", "the alert proposes no penalty", ErrNotApplicable)
	}
	if p := a.byAlert[al.ID]; p != nil {
		p.acted = true
		a.countTentative(p)
	}
	a.applied[al.ID] = true
	return append(out, *a.record(at, c, al.Ply, "Arbiter applied the penalty of alert "+al.ID+"."+note)), nil
}

// observedIllegal counts an illegal move the arbiter saw and the board
// could not: a two-handed move (7.5.4), or one he observed himself.
func (r cmdRun) observedIllegal(side rules.Color) ([]game.Verdict, error) {
	a := r.a
	if !a.rs.Illegal.TwoHandsIsIllegal {
		return r.bad("penalty", fmt.Sprintf("%s does not treat a two-handed move as an illegal move; use time_add (clock misuse)", a.rs.Name), ErrNotApplicable)
	}
	art := r.c.Article
	if art == "" {
		art = "7.5.4"
	}
	res := a.illegalAct(r.at, side, len(a.plies), game.KindIllegalMove, art, "an illegal move observed by the arbiter", nil, map[string]any{}, false)
	for _, o := range res {
		if al, ok := o.(game.Alert); ok {
			if p := a.byAlert[al.ID]; p != nil {
				p.acted = true
			}
		}
	}
	return res, nil
}

// technicalError counts a confirmed technical error (004 Reg. §11); at the
// threshold the offender's loss is proposed.
func (a *Adjudicator) technicalError(at time.Time, side rules.Color, ply int, from string) []game.Verdict {
	te := a.rs.TechnicalErrors
	if te.LossAt == 0 {
		return nil
	}
	a.te[side&1]++
	n := a.te[side&1]
	sev, msg := game.Info, fmt.Sprintf("%s's technical error number %d confirmed; %d lose.", name(side), n, te.LossAt)
	var prop map[string]any
	if n >= te.LossAt {
		sev = game.Crit
		msg = fmt.Sprintf("%s's technical error number %d: the game is lost.", name(side), n)
		prop = map[string]any{"result": winFor(side.Other())}
	}
	al := a.newAlert(at, game.KindTechnicalError, sev, a.rs.Articles.TechnicalError, side, ply, msg)
	al.Proposal = prop
	if from != "" {
		al.Evidence = []game.Evidence{{At: game.T(at), Event: "alert " + from}}
	}
	return []game.Verdict{*al}
}

// reinstate cuts the record back to ply (7.5.1, 7.6). The Correction
// carries the position; the wiring takes the board's tracker back and
// publishes it with the record's moves.
func (a *Adjudicator) reinstate(c Command, ply int, at time.Time) []game.Verdict {
	a.truncate(ply)
	if a.over() && a.result.Provisional {
		a.result = nil // an automatic result after the reinstated ply no longer holds
	}
	corr := game.Correction{Game: a.game.ID, Ply: ply, Reason: game.Reinstatement, At: game.T(at), Position: a.positionAt(ply)}
	return []game.Verdict{corr, *a.record(at, c, ply, fmt.Sprintf("Arbiter reinstated the position after ply %d.", ply))}
}

// claim verifies a draw claim by the side having the move (9.2, 9.3).
func (r cmdRun) claim() ([]game.Verdict, error) {
	a, c, at, bad := r.a, r.c, r.at, r.bad
	side, ok := parseSide(c.Side, false)
	if !ok {
		return bad("side", `want "white" or "black"`, ErrBadCommand)
	}
	pos := a.position()
	if pos == nil {
		return bad("", "no position yet", ErrNotApplicable)
	}
	if c.Claim == "time_win" {
		return r.timeWinClaim(side, pos)
	}
	if a.isXiangqi() && (c.Claim == "no_capture" || c.Claim == "fifty") {
		return r.xqNoCaptureClaim(side) // Art. 12: either player may claim (xiangqi.go)
	}
	if pos.Turn() != side {
		return bad("side", fmt.Sprintf("%s does not have the move; only the player having the move may claim (9.2.1)", name(side)), ErrNotApplicable)
	}
	var art, why string
	correct := false
	target, hm := pos, pos.HalfmoveClock()
	if c.Move != "" {
		m, err := pos.ParseMove(c.Move)
		if err != nil {
			return bad("move", err.Error(), ErrBadCommand)
		}
		if target, err = pos.Play(m); err != nil {
			return bad("move", err.Error(), ErrBadCommand)
		}
		hm = target.HalfmoveClock()
	}
	extra := 0
	if c.Move != "" {
		extra = 1 // the intended position would appear once more
	}
	switch c.Claim {
	case "threefold":
		art = a.rs.Articles.Threefold
		n := a.counts[target.RepetitionKey()] + extra
		correct = n >= 3
		why = fmt.Sprintf("the position occurs %d times (plies %s)", n, a.pliesOf(target.RepetitionKey()))
	case "fifty":
		art = a.rs.Articles.FiftyMove
		correct = hm >= 100
		why = fmt.Sprintf("%d plies without a pawn move or capture", hm)
	default:
		return bad("claim", "want threefold or fifty", ErrBadCommand)
	}
	var al *game.Alert
	if correct {
		al = a.newAlert(at, game.KindClaim, game.Crit, art, side, len(a.plies), fmt.Sprintf("%s's %s claim is correct: %s. Uphold it: the game is drawn.", name(side), c.Claim, why))
		al.Proposal = map[string]any{"claim": c.Claim, "result": Draw}
	} else {
		al = a.newAlert(at, game.KindClaim, game.Crit, a.rs.Articles.WrongClaim, side, len(a.plies), fmt.Sprintf("%s's %s claim is incorrect: %s. %s", name(side), c.Claim, why, a.wrongClaimText(side)))
		al.Proposal = map[string]any{"claim": c.Claim, "time_add_ms": a.rs.Claims.WrongClaimAward.Milliseconds(), "side": side.Other().String()}
		if c.Move != "" {
			al.Proposal["move"] = c.Move // 9.5.3: the intended move must be played
		}
	}
	return []game.Verdict{*al}, nil
}

// timeWinClaim verifies a claim that the opponent's flag has fallen (6.8;
// A.4.3: a draw if the claimant cannot mate; 2001 B7: the claimant's own
// flag must still be up once the clocks are stopped).
func (r cmdRun) timeWinClaim(side rules.Color, pos rules.Position) ([]game.Verdict, error) {
	a, at, bad := r.a, r.at, r.bad
	rd := a.lastReading
	if rd == nil {
		return bad("claim", "no clock readings", ErrNotApplicable)
	}
	opp := side.Other()
	oppDown := rd.Time(opp) <= 0 || rd.Flag(opp)
	ownDown := rd.Time(side) <= 0 || rd.Flag(side)
	art := a.rs.Articles.TimeWinClaim
	if art == "" {
		art = a.rs.Articles.Flag
	}
	var msg string
	prop := map[string]any{"claim": "time_win"}
	switch {
	case !oppDown:
		msg = fmt.Sprintf("%s claims a win on time, but %s's flag is not down (%s left): the claim is wrong.", name(side), name(opp), clock.FormatDuration(rd.Time(opp)))
	case ownDown && a.rs.Flags.TimeWinClaim == ruleset.ClaimB7:
		msg = fmt.Sprintf("Both flags are down: a win on time needs the claimant's own flag up (%s).", art)
		prop["result"] = Draw
	case !pos.CanMate(side) && a.rs.Flags.NoMateDraw:
		msg = fmt.Sprintf("%s's flag is down, but %s cannot checkmate by any series of legal moves: draw.", name(opp), name(side))
		prop["result"] = Draw
	default:
		msg = fmt.Sprintf("%s's flag is down: %s wins on time.", name(opp), name(side))
		prop["result"] = winFor(side)
	}
	al := a.newAlert(at, game.KindClaim, game.Crit, art, side, len(a.plies), msg)
	al.Proposal = prop
	al.Evidence = []game.Evidence{{At: game.T(at), Event: "clock"}}
	return []game.Verdict{*al}, nil
}

// wrongClaimText says what an incorrect claim costs.
func (a *Adjudicator) wrongClaimText(side rules.Color) string {
	s := fmt.Sprintf("%s gets %s extra", name(side.Other()), minutes(a.rs.Claims.WrongClaimAward))
	if a.rs.Claims.WrongClaimCut {
		s += fmt.Sprintf(" and %s's time is cut", name(side))
	}
	return s + " (" + a.rs.Articles.WrongClaim + "); play continues."
}

// wrongClaim applies the penalty of a rejected claim: always the record,
// and the clock command under PenaltiesAuto.
func (a *Adjudicator) wrongClaim(c Command, at time.Time, side rules.Color, al *game.Alert) []game.Verdict {
	rec := a.record(at, c, al.Ply, "Arbiter rejected the claim: "+a.wrongClaimText(side))
	if a.opts.Penalties != PenaltiesAuto || a.clk == nil || a.lastReading == nil {
		return []game.Verdict{*rec}
	}
	w, b := a.clk.Remaining(at)
	times := map[rules.Color]*time.Duration{rules.White: &w, rules.Black: &b}
	*times[side.Other()] += a.rs.Claims.WrongClaimAward
	if a.rs.Claims.WrongClaimCut {
		*times[side] = CutClaimant(*times[side])
	}
	cc := a.setClock(at, w, b, a.lastReading.Running, al.ID)
	rec.Message += a.hostNote(cc)
	return []game.Verdict{*rec, cc}
}

// CutClaimant returns the claimant's time after an incorrect claim under
// 2001 9.5(b): more than 2 minutes: half is deducted, at most 3 minutes;
// between 1 and 2 minutes: set to 1 minute; less than 1 minute: unchanged.
func CutClaimant(t time.Duration) time.Duration {
	switch {
	case t > 2*time.Minute:
		return t - min(t/2, 3*time.Minute)
	case t > time.Minute:
		return time.Minute
	}
	return t
}

// parseSide parses "white"/"black" (and "none"/"" when allowNone).
func parseSide(s string, allowNone bool) (rules.Color, bool) {
	switch s {
	case "white":
		return rules.White, true
	case "black":
		return rules.Black, true
	case "none", "":
		return rules.NoColor, allowNone
	}
	return rules.NoColor, false
}
