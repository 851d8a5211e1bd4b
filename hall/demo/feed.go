package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// Feed prints what the daemon publishes as compact lines, one per fact:
//
//	12:01:03 open2026.1.3  23. Nf3      (1:28:12 | 1:29:40)
//	12:01:09 open2026.1.3  ALERT crit illegal_move 7.5.5  White's first illegal move …
//	12:02:40 open2026.1.3  RESULT 1-0 checkmate 5.1.1 (provisional)
//
// Moves come from <p>.game.<g>.move, corrections and results likewise;
// alerts from <p>.arbiter.<g>.alert (an arbiter's view); announcements of
// blind-player games from <p>.relay.<g>.announce. Clock readings are left
// out (one every few seconds per board would drown the moves).
type Feed struct {
	prefix string
	color  bool
	loc    *time.Location

	mu sync.Mutex
	w  io.Writer
}

// FeedOptions configure a Feed.
type FeedOptions struct {
	// Prefix is nats.prefix ("dgt").
	Prefix string
	// Color highlights alerts and results with ANSI colours (for a
	// terminal).
	Color bool
	// Location of the printed times (nil: time.Local).
	Location *time.Location
}

// NewFeed returns a feed writing to w.
func NewFeed(w io.Writer, o FeedOptions) *Feed {
	if o.Location == nil {
		o.Location = time.Local
	}
	return &Feed{prefix: o.Prefix, color: o.Color, loc: o.Location, w: w}
}

// Subject returns the subject the feed subscribes to: everything under the
// prefix, in one subscription, so lines come in the order the server
// received the messages; Line picks what is printed.
func (f *Feed) Subject() string { return f.prefix + ".>" }

// Run subscribes on nc and prints every message until ctx is done; it
// returns the subscription error, or nil when ctx ends.
func (f *Feed) Run(ctx context.Context, nc *nats.Conn) error {
	sub, err := nc.Subscribe(f.Subject(), func(m *nats.Msg) {
		if line, ok := f.Line(m.Subject, m.Data); ok {
			f.mu.Lock()
			fmt.Fprintln(f.w, line)
			f.mu.Unlock()
		}
	})
	if err != nil {
		return fmt.Errorf("demo feed: subscribe %s: %w", f.Subject(), err)
	}
	defer sub.Unsubscribe()
	if err := nc.Flush(); err != nil {
		return fmt.Errorf("demo feed: %w", err)
	}
	<-ctx.Done()
	return nil
}

// Line formats one message; ok is false for what the feed leaves out
// (clock readings, unknown subjects, payloads that do not parse).
func (f *Feed) Line(subject string, data []byte) (line string, ok bool) {
	toks := strings.Split(strings.TrimPrefix(subject, f.prefix+"."), ".")
	if len(toks) != 5 {
		return "", false
	}
	kind, last := toks[0], toks[4]
	switch {
	case kind == "game" && last == "move":
		var m game.MoveEvent
		if json.Unmarshal(data, &m) != nil {
			return "", false
		}
		num := fmt.Sprintf("%d.", (m.Ply+1)/2)
		if m.Ply%2 == 0 {
			num = fmt.Sprintf("%d...", m.Ply/2)
		}
		clk := ""
		if m.Clock != nil {
			clk = fmt.Sprintf("(%s | %s)", hms(m.Clock.WhiteMS), hms(m.Clock.BlackMS))
		}
		san := m.SAN
		if m.Notation != "" {
			san += " " + m.Notation // xiangqi: WXF, then the Vietnamese notation
		}
		return strings.TrimRight(fmt.Sprintf("%s %-14s %-6s %-8s %s", f.clock(m.At), m.Game, num, san, clk), " "), true
	case kind == "game" && last == "correction":
		var c game.Correction
		if json.Unmarshal(data, &c) != nil {
			return "", false
		}
		return fmt.Sprintf("%s %-14s CORRECTION back to ply %d (%s)", f.clock(c.At), c.Game, c.Ply, c.Reason), true
	case kind == "game" && last == "end":
		var r game.Result
		if json.Unmarshal(data, &r) != nil {
			return "", false
		}
		s := fmt.Sprintf("RESULT %s %s %s", r.Result, r.Termination, r.Article)
		if r.Provisional {
			s += " (provisional: the arbiter confirms)"
		}
		return fmt.Sprintf("%s %-14s %s", f.clock(r.At), r.Game, f.hl(strings.Join(strings.Fields(s), " "), "1;32")), true
	case kind == "arbiter" && last == "alert":
		var a game.Alert
		if json.Unmarshal(data, &a) != nil {
			return "", false
		}
		head := fmt.Sprintf("ALERT  %s %s %s", a.Severity, a.Kind, a.Article)
		color := "1;33"
		if a.Severity == game.Crit {
			color = "1;31"
		}
		return fmt.Sprintf("%s %-14s %s  %s", f.clock(a.At), a.Game, f.hl(strings.Join(strings.Fields(head), " "), color), a.Message), true
	case kind == "relay" && last == "announce":
		var a game.Announcement
		if json.Unmarshal(data, &a) != nil {
			return "", false
		}
		return fmt.Sprintf("%s %-14s SAY (%s) %q", f.clock(a.At), a.Game, a.Lang, a.Text), true
	}
	return "", false
}

func (f *Feed) clock(t game.Time) string { return t.In(f.loc).Format("15:04:05") }

func (f *Feed) hl(s, color string) string {
	if !f.color {
		return s
	}
	return "\x1b[" + color + "m" + s + "\x1b[0m"
}

// hms formats milliseconds as h:mm:ss.
func hms(ms int64) string {
	if ms < 0 {
		ms = 0
	}
	s := ms / 1000
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}
