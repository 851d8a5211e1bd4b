package rehearse

import (
	"fmt"
	"io"
	"time"
)

// Report is the checklist as the status bucket holds it and dgtbridge
// status prints it.
type Report struct {
	Started time.Time `json:"started"`
	Ends    time.Time `json:"ends"`
	// At is when the report was made; Ended whether the rehearsal was over
	// then.
	At    time.Time `json:"at"`
	Ended bool      `json:"ended"`
	Lines []Line    `json:"lines"`
}

// Line is one check: its kind, what it checks, its state and why.
type Line struct {
	Kind    string    `json:"kind"`
	Subject string    `json:"subject"`
	State   State     `json:"state"`
	Reason  string    `json:"reason,omitempty"`
	Since   time.Time `json:"since"`
}

// Count returns how many lines are in each state.
func (r Report) Count() (passed, failed, waiting int) {
	for _, l := range r.Lines {
		switch l.State {
		case Passed:
			passed++
		case Failed:
			failed++
		default:
			waiting++
		}
	}
	return passed, failed, waiting
}

// Report returns the checklist at now.
func (c *Checklist) Report(now time.Time) Report {
	r := Report{Started: c.start, Ends: c.end, At: now, Ended: c.Ended(now), Lines: []Line{}}
	for _, it := range c.items {
		r.Lines = append(r.Lines, Line{Kind: kind(it.check), Subject: it.check.Subject(), State: it.state, Reason: it.reason, Since: it.at})
	}
	return r
}

// kind names a check's type in the report.
func kind(ch Check) string {
	switch ch.(type) {
	case BoardAnswers:
		return "board"
	case ClockSet:
		return "clock"
	case LiveMove:
		return "live"
	case PublicMove:
		return "public"
	case LichessRound:
		return "lichess_round"
	case LichessPush:
		return "lichess_push"
	case SignIn:
		return "sign_in"
	case BlindRelay:
		return "blind_relay"
	}
	return "unknown"
}

// Print writes the checklist: a heading with the counts, then one line per
// check: its state, what it checks, and the reason of a line not passed
// (or the note of a passed one).
func Print(w io.Writer, r Report) error {
	p, f, wt := r.Count()
	head := "rehearsal"
	switch {
	case r.Ended && f == 0 && wt == 0:
		head += ": every check passed"
	case r.Ended:
		head += fmt.Sprintf(" over at %s", r.At.Local().Format(time.TimeOnly))
	default:
		head += fmt.Sprintf(" since %s, until %s", r.Started.Local().Format(time.TimeOnly), r.Ends.Local().Format(time.TimeOnly))
	}
	if _, err := fmt.Fprintf(w, "%s: %d passed, %d failed, %d waiting\n", head, p, f, wt); err != nil {
		return err
	}
	for _, l := range r.Lines {
		line := fmt.Sprintf("  %-7s %s", l.State, l.Subject)
		if l.Reason != "" {
			line += ": " + l.Reason
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}
