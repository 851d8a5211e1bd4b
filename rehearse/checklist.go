package rehearse

import (
	"fmt"
	"slices"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// State is a line's state.
type State string

// The states of a line.
const (
	Waiting State = "waiting"
	Passed  State = "passed"
	Failed  State = "failed"
)

// EarlyTolerance is how much sooner than the delay after the live move a
// public copy may arrive and still pass: the live copy's own travel to the
// rehearsal's reader (the public copy is due the delay after the move
// enters the daemon's outbox, the live copy is received a little later).
const EarlyTolerance = time.Second

// Checklist judges the checks of a rehearsal from the events observed.
// It is not safe for concurrent use; time is passed in.
type Checklist struct {
	items      []*item
	start, end time.Time

	boards    map[string]BoardSeen
	clockBad  map[string]string // board → the last reading at rest that did not fit
	live      map[game.ID]time.Time
	public    map[game.ID]time.Time
	rounds    map[string]RoundRead
	pushes    map[string]PushSeen
	signed    map[string]SignInSeen // user → first sign-in
	refused   map[string]refusal    // user → last refused sign-in
	announced map[game.ID]time.Time
	heard     map[string]uint64
}

type refusal struct {
	from string
	at   time.Time
}

// item is one line and its state.
type item struct {
	check  Check
	state  State
	reason string
	at     time.Time // when the state last changed
}

// New returns the checklist of checks, started at start; a line still
// waiting at start+limit fails.
func New(checks []Check, start time.Time, limit time.Duration) *Checklist {
	c := &Checklist{start: start, end: start.Add(limit),
		boards: map[string]BoardSeen{}, clockBad: map[string]string{},
		live: map[game.ID]time.Time{}, public: map[game.ID]time.Time{},
		rounds: map[string]RoundRead{}, pushes: map[string]PushSeen{},
		signed: map[string]SignInSeen{}, refused: map[string]refusal{},
		announced: map[game.ID]time.Time{}, heard: map[string]uint64{}}
	for _, ch := range checks {
		c.items = append(c.items, &item{check: ch, state: Waiting, at: start})
	}
	c.judge(start)
	return c
}

// Apply records an event observed at now and judges every line again; it
// reports whether a line changed.
func (c *Checklist) Apply(now time.Time, ev Event) bool {
	switch e := ev.(type) {
	case BoardSeen:
		c.boards[e.Board] = e
	case MoveSeen:
		m := c.live
		if e.Public {
			m = c.public
		}
		if _, ok := m[e.Game]; !ok {
			m[e.Game] = now
		}
	case RoundRead:
		c.rounds[e.ID] = e
	case PushSeen:
		c.pushes[e.ID] = e
	case SignInSeen:
		if e.OK {
			if _, ok := c.signed[e.User]; !ok {
				c.signed[e.User] = e
			}
		} else {
			c.refused[e.User] = refusal{from: e.From, at: now}
		}
	case AnnounceSeen:
		if _, ok := c.announced[e.Game]; !ok {
			c.announced[e.Game] = now
		}
	case RelayHeard:
		c.heard[e.User] = max(c.heard[e.User], e.Msgs)
	}
	return c.judge(now)
}

// Expire judges the lines again at now: past the end every line still
// waiting fails. It reports whether a line changed.
func (c *Checklist) Expire(now time.Time) bool { return c.judge(now) }

// Ended reports whether the rehearsal is over at now: every line passed
// or failed for good (a failure of the configuration itself, which
// nothing in the hall can change), or the end has come.
func (c *Checklist) Ended(now time.Time) bool {
	if !now.Before(c.end) {
		return true
	}
	for _, it := range c.items {
		if it.state != Passed && (it.state != Failed || !forGood(it.check)) {
			return false
		}
	}
	return true
}

// forGood reports whether a check fails whatever is done in the hall: a
// test push without a test round, a blind relay nothing can hear.
func forGood(ch Check) bool {
	switch k := ch.(type) {
	case LichessPush:
		return k.ID == ""
	case BlindRelay:
		return len(k.Listeners) == 0 && !k.Speak
	case BoardAnswers, ClockSet, LiveMove, PublicMove, LichessRound, SignIn:
		return false
	}
	return false
}

// judge evaluates every line at now. A passed line stays passed; a failed
// line passes when what it waited for comes after all (a password typed
// again, a clock set again).
func (c *Checklist) judge(now time.Time) bool {
	over := !now.Before(c.end)
	changed := false
	for _, it := range c.items {
		if it.state == Passed {
			continue
		}
		st, reason := c.verdict(it.check, now)
		if st == Waiting && over {
			st, reason = Failed, fmt.Sprintf("nothing within %v: %s", c.end.Sub(c.start).Round(time.Second), reason)
		}
		if st != it.state || reason != it.reason {
			if st != it.state {
				it.at = now
			}
			it.state, it.reason = st, reason
			changed = true
		}
	}
	return changed
}

// verdict is a line's state and reason from what was observed.
func (c *Checklist) verdict(ch Check, now time.Time) (State, string) {
	switch k := ch.(type) {
	case BoardAnswers:
		b, ok := c.boards[k.Board]
		switch {
		case ok && b.Connected:
			return Passed, ""
		case ok && b.Error != "":
			return Waiting, "no answer: " + b.Error
		}
		return Waiting, "no answer yet: is it plugged in and switched on?"
	case ClockSet:
		return c.clockVerdict(k)
	case LiveMove:
		if _, ok := c.live[k.Game]; ok {
			return Passed, ""
		}
		return Waiting, "move a piece on the board (and press the clock)"
	case PublicMove:
		return c.publicVerdict(k, now)
	case LichessRound:
		r, ok := c.rounds[k.ID]
		switch {
		case !ok:
			return Waiting, "not asked yet"
		case r.Err != "":
			return Failed, fmt.Sprintf("Lichess round %s (lichess.rounds %d): %s", k.ID, k.Round, r.Err)
		case !r.Writeable:
			return Failed, fmt.Sprintf("the token's Lichess account may not push to round %s (lichess.rounds %d): make it a contributor of the broadcast, or fix the round id", k.ID, k.Round)
		}
		return Passed, ""
	case LichessPush:
		if k.ID == "" {
			return Failed, "no test round: give --lichess-round with a round of a test broadcast (the rehearsal never pushes to the event's rounds)"
		}
		p, ok := c.pushes[k.ID]
		switch {
		case ok && p.Err != "":
			return Failed, "Lichess refused the test push: " + p.Err
		case ok && p.Pushes > 0:
			return Passed, ""
		}
		return Waiting, "the daemon pushes the rehearsal's games (the public copy) to the test round"
	case SignIn:
		if _, ok := c.signed[k.User]; ok {
			return Passed, ""
		}
		if r, ok := c.refused[k.User]; ok {
			return Failed, fmt.Sprintf("a wrong password for %s at %s from %s, and no sign-in yet", k.User, r.at.Format(time.TimeOnly), orUnknown(r.from))
		}
		return Waiting, fmt.Sprintf("sign in as %s on the tablet it is for", k.User)
	case BlindRelay:
		return c.blindVerdict(k)
	}
	return Failed, fmt.Sprintf("unknown check %T", ch)
}

func (c *Checklist) clockVerdict(k ClockSet) (State, string) {
	b, ok := c.boards[k.Board]
	if !ok || b.Clock == nil {
		if bad := c.clockBad[k.Board]; bad != "" {
			return Failed, bad
		}
		return Waiting, "no clock reading yet: is the clock cabled and switched on?"
	}
	r := *b.Clock
	if r.Running != "none" {
		if bad := c.clockBad[k.Board]; bad != "" {
			return Failed, bad
		}
		if r.Running == "" {
			return Waiting, "the clock's reading does not say whether it runs: waiting for one at rest"
		}
		return Waiting, "the clock runs: stop it (or set it again) to compare its times with the time control"
	}
	if slices.Contains(k.Rest, r.White) && slices.Contains(k.Rest, r.Black) {
		return Passed, ""
	}
	bad := fmt.Sprintf("the clock shows %s | %s at rest; time control %s starts at %s: set the clock again",
		hms(r.White), hms(r.Black), k.TimeControl, orList(k.Rest))
	c.clockBad[k.Board] = bad
	return Failed, bad
}

func (c *Checklist) publicVerdict(k PublicMove, now time.Time) (State, string) {
	l, lok := c.live[k.Game]
	p, pok := c.public[k.Game]
	switch {
	case lok && pok:
		if p.Sub(l) < k.Delay-EarlyTolerance {
			return Failed, fmt.Sprintf("the public copy came %v after the live move, before the public delay of %v: the public copy must never come early",
				p.Sub(l).Round(time.Millisecond), k.Delay)
		}
		return Passed, ""
	case pok:
		return Failed, "a public copy came and no live move: the live feed does not carry the board's moves"
	case lok:
		return Waiting, fmt.Sprintf("the live move came at %s: the public copy is due %v later", l.Format(time.TimeOnly), k.Delay)
	}
	return Waiting, "move a piece on the board: the public copy follows the live move by the public delay"
}

func (c *Checklist) blindVerdict(k BlindRelay) (State, string) {
	if len(k.Listeners) == 0 && !k.Speak {
		return Failed, "nothing can hear the announcements: set relay.speak, or add a relay user of the board (role relay) for the relay device"
	}
	at, ok := c.announced[k.Game]
	if !ok {
		return Waiting, "move a piece on the board: its announcement goes to the blind player's relay"
	}
	for _, u := range k.Listeners {
		if c.heard[u] > 0 {
			return Passed, "received by " + u
		}
	}
	if len(k.Listeners) > 0 {
		return Waiting, fmt.Sprintf("announced at %s; no relay device (%v) has received it: sign it in as its relay user and let it listen",
			at.Format(time.TimeOnly), k.Listeners)
	}
	return Passed, "announced and handed to relay.speak: listen at the table (the daemon cannot hear the voice)"
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown address"
	}
	return s
}
