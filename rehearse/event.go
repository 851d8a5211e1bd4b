package rehearse

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Event is something the rehearsal observed. The set is closed: the
// members are the types of this package below.
type Event interface{ isEvent() }

// BoardSeen is a board's report (the status bucket's): connected or not
// (Error says why not), and its clock's last reading (nil: none).
type BoardSeen struct {
	Board     string
	Connected bool
	Error     string
	Clock     *ClockReading
}

// ClockReading is a clock's times; Running is "white", "black", "none"
// (at rest) or "" (the reading does not say).
type ClockReading struct {
	White, Black time.Duration
	Running      string
}

// MoveSeen is a move of a game received on the live feed, or (Public) on
// the public copy.
type MoveSeen struct {
	Game   game.ID
	Public bool
}

// RoundRead is Lichess's answer about a broadcast round: Err is why it
// could not be read ("" when it was), Writeable whether the token's
// account may push to it.
type RoundRead struct {
	ID        string
	Writeable bool
	Err       string
}

// PushSeen is the state of the pushes to a Lichess round: how many
// Lichess took, and the last failure ("" none since the last success).
type PushSeen struct {
	ID     string
	Pushes int
	Err    string
}

// SignInSeen is a sign-in of a user: OK, or refused (a wrong password);
// From is where it came from (an address).
type SignInSeen struct {
	User string
	OK   bool
	From string
}

// AnnounceSeen is an announcement of a blind player's game published on
// its relay subject.
type AnnounceSeen struct {
	Game game.ID
}

// RelayHeard says a relay user's device has received Msgs announcements
// on its subscriptions.
type RelayHeard struct {
	User string
	Msgs uint64
}

func (BoardSeen) isEvent()    {}
func (MoveSeen) isEvent()     {}
func (RoundRead) isEvent()    {}
func (PushSeen) isEvent()     {}
func (SignInSeen) isEvent()   {}
func (AnnounceSeen) isEvent() {}
func (RelayHeard) isEvent()   {}
