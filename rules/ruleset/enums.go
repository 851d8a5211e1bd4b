package ruleset

import "fmt"

// GameType is standard, rapid (Appendix A) or blitz (Appendix B).
type GameType uint8

// Game types.
const (
	Standard GameType = iota
	Rapid
	Blitz
)

// Supervision is the rapid/blitz supervision regime (A.3/A.4, B.3/B.4).
type Supervision uint8

// Supervision regimes.
const (
	// Full: A.3/B.3, the competition rules apply in full.
	Full Supervision = iota
	// Limited: A.4/B.4, an illegal move stands once the opponent has moved.
	Limited
)

// Trigger says when an illegal move counts.
type Trigger uint8

// Triggers.
const (
	OnCompletion Trigger = iota // 2018 7.5.1: clock pressed
	OnMade                      // 2001 7.4(a): made
)

// Window says until when an illegal move can be acted on.
type Window uint8

// Windows.
const (
	// WholeGame: found at any time during the game (7.5.1, A.3, B.3).
	WholeGame Window = iota
	// UntilOpponentMoves: before the opponent's next move (A.4.2, B.4;
	// 2001 C3).
	UntilOpponentMoves
	// UntilClaimantTouches: until the claimant touches a piece (2001
	// B5(b)); the e-board sees touches as lifts, so the window closes at
	// the claimant's first lift or move.
	UntilClaimantTouches
)

// Lapse says when the right to claim a draw lapses.
type Lapse uint8

// Lapses.
const (
	LapseOnTouch Lapse = iota // 9.4
	LapseOnMove               // 2001 9.4
)

// TimeWinClaim is the procedure for a win-on-time claim in rapid/blitz.
type TimeWinClaim uint8

// Time-win claim procedures.
const (
	ClaimA43 TimeWinClaim = iota // A.4.3: stop the clock; draw if the claimant cannot mate
	ClaimB7                      // 2001 B7: stop both clocks; own flag up, opponent's down
)

// BothFlagsRule says what both flags down means.
type BothFlagsRule uint8

// Both-flags rules.
const (
	// BothFlagsArbiter: no rule; the arbiter decides from the flag times
	// (2018 without Guideline III; blitz).
	BothFlagsArbiter BothFlagsRule = iota
	// BothFlagsQuickplay: the game continues, except in the last period,
	// where it is drawn (Guideline III.3.1 when QuickplayFinish is set and
	// there is no increment; 2001 6.12 and 10.3).
	BothFlagsQuickplay
	// BothFlagsDraw: the game is drawn (2001 B8).
	BothFlagsDraw
)

var (
	gameTypeNames    = []string{"standard", "rapid", "blitz"}
	supervisionNames = []string{"full", "limited"}
	triggerNames     = []string{"completed", "made"}
	windowNames      = []string{"whole_game", "until_opponent_moves", "until_claimant_touches"}
	lapseNames       = []string{"touch", "move"}
	timeWinNames     = []string{"a43", "b7"}
	bothFlagsNames   = []string{"arbiter", "quickplay", "draw"}
)

func name(names []string, i uint8) string {
	if int(i) < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%d", i)
}

// String returns "standard", "rapid" or "blitz".
func (g GameType) String() string { return name(gameTypeNames, uint8(g)) }

// String returns "full" or "limited".
func (s Supervision) String() string { return name(supervisionNames, uint8(s)) }

// String returns "completed" or "made".
func (t Trigger) String() string { return name(triggerNames, uint8(t)) }

// String returns the window's snake_case name.
func (w Window) String() string { return name(windowNames, uint8(w)) }

// String returns "touch" or "move".
func (l Lapse) String() string { return name(lapseNames, uint8(l)) }

// String returns "a43" or "b7".
func (c TimeWinClaim) String() string { return name(timeWinNames, uint8(c)) }

// String returns "arbiter", "quickplay" or "draw".
func (b BothFlagsRule) String() string { return name(bothFlagsNames, uint8(b)) }
