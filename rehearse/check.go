// Package rehearse is the checklist of a rehearsal (dgtbridge rehearse):
// the things an organiser checks in the hall before the first round, each
// passed, failed with the reason, or still waiting.
//
// The package is a pure core: the rehearsal's runtime hands it what it
// observed ([Event]: a board's report, a move on the live feed or the
// public copy, a sign-in, a Lichess answer, an announcement heard) with
// the time, and the [Checklist] judges every [Check]. It starts no
// goroutine and does no I/O; [Print] writes a [Report] to a writer.
package rehearse

import (
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Check is one line of the checklist. The set is closed: the members are
// the types of this package below.
type Check interface {
	// Subject names what the line checks, for the organiser: the board,
	// the user, the Lichess round.
	Subject() string
	isCheck()
}

// BoardAnswers: the board (and a blind player's own board) answers.
type BoardAnswers struct {
	// Board is the board's id ("r1-b3", as in dgtbridge status); Port
	// where it is plugged in, BusAddress its address on a bus line (0:
	// none).
	Board, Port string
	BusAddress  int
}

// ClockSet: the board's clock answers and, at rest before the first move,
// shows the configured time control on both sides.
type ClockSet struct {
	Board string
	// TimeControl is the configured time control (PGN form).
	TimeControl string
	// Rest are the times a clock set for TimeControl may show at rest
	// before the first move ([RestTimes]).
	Rest []time.Duration
}

// LiveMove: a move made on the board reaches the live feed.
type LiveMove struct {
	Board string
	Game  game.ID
}

// PublicMove: that move reaches the public copy, and not before Delay
// after the live feed.
type PublicMove struct {
	Board string
	Game  game.ID
	Delay time.Duration
}

// LichessRound: a Lichess broadcast round of lichess.rounds (or
// lichess.split) exists and the token's account may push to it.
type LichessRound struct {
	Round int
	ID    string
}

// LichessPush: Lichess accepts a push of the rehearsal's games to its
// test round ID ("" when none was given: then the line fails, saying so).
type LichessPush struct {
	ID string
}

// SignIn: a staff user (organiser or arbiter) signs in during the
// rehearsal, from the tablet the user will work on.
type SignIn struct {
	User, Role string
}

// BlindRelay: the announcement of a move on a blind player's game goes
// out, and a relay device of the board (Listeners, the relay users of its
// board) receives it. Speak says relay.speak is set: the machine speaks
// it, which the daemon cannot hear.
type BlindRelay struct {
	Board     string
	Game      game.ID
	Listeners []string
	Speak     bool
}

func (BoardAnswers) isCheck() {}
func (ClockSet) isCheck()     {}
func (LiveMove) isCheck()     {}
func (PublicMove) isCheck()   {}
func (LichessRound) isCheck() {}
func (LichessPush) isCheck()  {}
func (SignIn) isCheck()       {}
func (BlindRelay) isCheck()   {}

// Subject: "board r1-b3 answers (/dev/…, bus address 4103)".
func (c BoardAnswers) Subject() string {
	if c.BusAddress != 0 {
		return fmt.Sprintf("board %s answers (%s, bus address %d)", c.Board, c.Port, c.BusAddress)
	}
	return fmt.Sprintf("board %s answers (%s)", c.Board, c.Port)
}

// Subject: "clock of board r1-b3 is set for 5400+30".
func (c ClockSet) Subject() string {
	return fmt.Sprintf("clock of board %s is set for %s", c.Board, c.TimeControl)
}

// Subject: "a move on board r1-b3 reaches the live feed".
func (c LiveMove) Subject() string {
	return fmt.Sprintf("a move on board %s reaches the live feed (%s)", c.Board, c.Game)
}

// Subject: "… reaches the public copy, public_delay later".
func (c PublicMove) Subject() string {
	return fmt.Sprintf("a move on board %s reaches the public copy %v later (%s)", c.Board, c.Delay, c.Game)
}

// Subject: "Lichess round 3 (id) accepts this token".
func (c LichessRound) Subject() string {
	return fmt.Sprintf("Lichess round %s of round %d accepts the token's pushes", c.ID, c.Round)
}

// Subject: "Lichess takes a test push (id)".
func (c LichessPush) Subject() string {
	if c.ID == "" {
		return "Lichess takes a test push"
	}
	return fmt.Sprintf("Lichess takes a test push to round %s", c.ID)
}

// Subject: "arbiter user arb1 signs in".
func (c SignIn) Subject() string { return fmt.Sprintf("%s user %s signs in", c.Role, c.User) }

// Subject: "the blind player of board r1-b60 hears an announcement".
func (c BlindRelay) Subject() string {
	return fmt.Sprintf("the blind player's relay of board %s hears an announcement (%s)", c.Board, c.Game)
}

// RestTimes returns the times a clock set for the first period of a time
// control shows at rest before the first move: the period's time, and
// with an increment also the time plus one increment (a DGT 3000 in
// Fischer mode adds the increment once at set-up: a 3+2 game starts at
// 3:02). base is the period's time, inc its increment (0: none).
func RestTimes(base, inc time.Duration) []time.Duration {
	if inc > 0 {
		return []time.Duration{base, base + inc}
	}
	return []time.Duration{base}
}

// hms prints a duration as a clock shows it: "1:30:00".
func hms(d time.Duration) string {
	s := int64(d / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// orList prints "1:30:00 or 1:30:30".
func orList(ds []time.Duration) string {
	var out []string
	for _, d := range ds {
		out = append(out, hms(d))
	}
	return strings.Join(out, " or ")
}
