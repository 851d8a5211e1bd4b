package status

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Print writes the reports as a table, one line per board: its id, game,
// connected or disconnected (with why), ply, last move, clocks (▸ marks
// the running side) and open alerts; after a first line about the daemon
// (when it last wrote, or that it stopped). now dates the reports.
func Print(w io.Writer, d broadcast.DaemonReport, boards []broadcast.BoardReport, now time.Time) error {
	switch {
	case !d.StoppedAt.IsZero():
		fmt.Fprintf(w, "daemon stopped at %s (the reports below are from then)\n", local(d.StoppedAt))
	case now.Sub(d.UpdatedAt.Time) > StaleAfter:
		fmt.Fprintf(w, "daemon silent since %s (%s ago): is it running, and can it reach NATS? The reports below are old.\n",
			local(d.UpdatedAt), now.Sub(d.UpdatedAt.Time).Round(time.Second))
	default:
		fmt.Fprintf(w, "daemon running since %s, %d boards (%s)\n", local(d.StartedAt), len(boards), orDash(d.Config))
	}
	if d.Version != "" {
		fmt.Fprintf(w, "dgtbridge %s, commit %s\n", d.Version, orDash(d.Commit))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BOARD\tGAME\tSTATE\tPLY\tLAST\tCLOCK\tRESULT\tOPEN ALERTS")
	for _, r := range boards {
		state := "connected"
		if !r.Connected {
			state = "disconnected"
		}
		last := "-"
		if r.LastMove != nil {
			last = r.LastMove.SAN
			if last == "" {
				last = r.LastMove.UCI
			}
		}
		alerts := "-"
		if len(r.Alerts) > 0 {
			var parts []string
			for _, a := range r.Alerts {
				parts = append(parts, fmt.Sprintf("%s %s (ply %d)", a.Kind, a.Severity, a.Ply))
			}
			alerts = strings.Join(parts, ", ")
		}
		if !r.Connected && r.Error != "" {
			alerts += "; " + r.Error
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", r.BoardID, orDash(r.Game.String()), state, r.Ply, last, clock(r.Clock), orDash(r.Result), alerts)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range d.Lichess {
		fmt.Fprintf(w, "Lichess round %d (%s): %d pushes", l.Round, l.ID, l.Pushes)
		if !l.LastPush.IsZero() {
			fmt.Fprintf(w, ", last at %s", local(l.LastPush))
		}
		if l.Error != "" {
			fmt.Fprintf(w, "; failing: %s", l.Error)
		}
		if l.Placeholders > 0 {
			fmt.Fprintf(w, "; %d players without a name or FIDE id (pushed as \"Board <b> White\": fix the pairing file)", l.Placeholders)
		}
		if l.Unclocked > 0 {
			fmt.Fprintf(w, "; %d moves without a clock reading", l.Unclocked)
		}
		fmt.Fprintln(w)
		for _, e := range l.GameErrors {
			fmt.Fprintf(w, "  refused by Lichess: board %s (%s – %s): %s\n", e.Round, e.White, e.Black, e.Error)
		}
	}
	return nil
}

// clock prints "1:23:45 | 1:20:01 ▸B".
func clock(c *broadcast.ReportClock) string {
	if c == nil {
		return "-"
	}
	s := hms(c.WhiteMS) + " | " + hms(c.BlackMS)
	switch c.Running {
	case "white":
		s += " ▸W"
	case "black":
		s += " ▸B"
	}
	return s
}

func hms(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	h := int(d / time.Hour)
	m := int(d/time.Minute) % 60
	sec := int(d/time.Second) % 60
	return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
}

func local(t game.Time) string { return t.Local().Format("2006-01-02 15:04:05") }

func orDash(s string) string {
	if s == "" || s == ".0.0" {
		return "-"
	}
	return s
}
