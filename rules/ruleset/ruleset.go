package ruleset

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/clock"
)

// RuleSet is one event's rules as data. Copy it freely; WithOverrides
// returns a modified copy.
type RuleSet struct {
	// Name is the preset's name ("fide2018-blitz"); Laws names the laws the
	// article numbers refer to ("FIDE Laws 2018").
	Name, Laws string
	// Variant is the rules engine's variant: "chess", "chess960",
	// "team-drop", "xiangqi".
	Variant string
	// GameType selects the rapid/blitz appendices.
	GameType GameType
	// Supervision: A.3/B.3 (full) or A.4/B.4 (limited). The Laws require
	// the event to declare it (A.5, B.5); the rapid and blitz presets
	// default to Limited, the usual case without an arbiter per game.
	Supervision Supervision
	// Classification: the time limits between blitz, rapid and standard.
	Classification Classification

	Illegal         IllegalMoves
	TechnicalErrors TechnicalErrors
	Claims          Claims
	Draws           Draws
	Flags           Flags

	// TouchMoveOnRequestOnly: touch-move findings are INFO unless a player
	// asks for a ruling (2001 B5(a)).
	TouchMoveOnRequestOnly bool
	// SetupClaimCutoffMoves: in rapid/blitz under Limited supervision, no
	// set-up, orientation or clock-setting claim after this many moves by
	// each player (A.4.1: 10; 2001 B4: 3). 0: no cut-off.
	SetupClaimCutoffMoves int
	// ColoursReversedRestartBelow: colours reversed with fewer than this
	// many moves by both players means a new game (7.3: 10); 0 means the
	// game continues unless the arbiter rules otherwise (2001 7.2).
	ColoursReversedRestartBelow int
	// DefaultTime: lateness after which a player loses (6.7.1: event value,
	// 0 if unspecified; 2001 6.7: one hour; 004 Reg. §10: 5 min).
	DefaultTime time.Duration
	// QuickplayFinish: the quickplay-finish rules are in force (2018
	// Guideline III, only when announced, III.2; 2001 Art 10, always
	// outside blitz). Both apply only without increment (III.2.2).
	QuickplayFinish bool
	// Scoresheet: the recording exemption of Art 8.4.
	Scoresheet ScoresheetExemption

	// Articles are the article numbers cited in alerts.
	Articles Articles

	// TeamDrop holds the team-drop variant's own rules (variant
	// "team-drop" only; the zero value elsewhere).
	TeamDrop TeamDrop

	// Xiangqi holds the rules of the Vietnamese Xiangqi Law of 2004 that
	// the FIDE parameters cannot say (variant "xiangqi" only; the zero
	// value elsewhere).
	Xiangqi Xiangqi
}

// IllegalMovesStand reports whether a completed illegal move stands once
// its window has closed (A.4.2, B.4; 2001 B5(b), C3): the board tracker
// must then carry on from the illegal position (board.Options.IllegalStands).
func (rs RuleSet) IllegalMovesStand() bool { return rs.Illegal.Window != WholeGame }

// IllegalMoves is the illegal-move ladder and its window.
type IllegalMoves struct {
	// Trigger: an illegal move counts when completed (2018 7.5.1) or when
	// made (2001 7.4(a)).
	Trigger Trigger
	// TimeAward is given to the opponent for each penalised illegal move
	// below LossAt (7.5.5: 2 min; B.2: 1 min; 2001 7.4(b): 2 min; 0: none).
	TimeAward time.Duration
	// LossAt is the illegal move that loses (7.5.5: 2; 2001: 3); 0: never.
	LossAt int
	// DrawIfOpponentCannotMate: the losing illegal move (or the won claim)
	// is a draw when the opponent cannot mate (7.5.5; 2001 C3).
	DrawIfOpponentCannotMate bool
	// ClaimWinAt: the opponent may claim a win at this illegal move before
	// making his own move (2001 C3: 1); 0: off.
	ClaimWinAt int
	// Window: until when the illegal move can be acted on.
	Window Window
	// CountUnpenalised: an illegal move that stood because nobody acted in
	// time still counts towards LossAt (rapid and blitz, Art. A.4 and B.4; default false).
	CountUnpenalised bool
	// ClockWithoutMoveIsIllegal: pressing the clock without a move is
	// treated as an illegal move (7.5.3). Otherwise it is clock misuse.
	ClockWithoutMoveIsIllegal bool
	// TwoHandsIsIllegal: a two-handed move is an illegal move once the
	// arbiter confirms it (7.5.4).
	TwoHandsIsIllegal bool
	// UnpromotedPawnToQueen: a pawn left unpromoted is an illegal move and
	// is replaced by a queen (7.5.2).
	UnpromotedPawnToQueen bool
	// IllegalPositionDraw: an illegal position (an unpromoted pawn on the
	// last rank) still on the board after the next completed move is a
	// draw (A.4.4, rapid/blitz under Limited supervision).
	IllegalPositionDraw bool
}

// TechnicalErrors is the technical-error count of 004 (Reg. §11, App. I A10).
type TechnicalErrors struct {
	// LossAt: this many technical errors lose (960 section: 3; Cờ đặt: 2);
	// 0: technical errors are not counted.
	LossAt int
	// RequiresArbiter: only arbiter-confirmed errors count (Reg. §11).
	RequiresArbiter bool
}

// Claims covers draw claims under 9.2/9.3.
type Claims struct {
	// LapseOn: the right to claim is lost when the player touches a piece
	// (9.4) or makes a move (2001 9.4).
	LapseOn Lapse
	// WrongClaimAward is given to the opponent for an incorrect claim
	// (9.5.3: 2 min; B.2: 1 min; 2001 9.5(b): 3 min).
	WrongClaimAward time.Duration
	// WrongClaimCut: the claimant's own time is cut (2001 9.5(b): more than
	// 2 min: half, at most 3 min; 1 to 2 min: set to 1 min; below: unchanged).
	WrongClaimCut bool
}

// Draws lists which draws exist and how they come about.
type Draws struct {
	Stalemate    bool // 5.2.1 (false in the team variant)
	DeadPosition bool // 5.2.2
	// FivefoldAuto and SeventyFiveAuto: the automatic draws of 9.6 (2018).
	FivefoldAuto, SeventyFiveAuto bool
	// ThreefoldClaim and FiftyMoveClaim: the claimable draws (9.2, 9.3).
	ThreefoldClaim, FiftyMoveClaim bool
	// AgreementMinMovesEach: 5.2.3: 1; 2001: 0.
	AgreementMinMovesEach int
}

// Flags covers flag falls.
type Flags struct {
	// NoMateDraw: a flag with no mating material for the opponent is a draw
	// (6.9; 2001 6.10). False in the team variant.
	NoMateDraw bool
	// ArbiterCalls: the arbiter calls flags (A.4.5); false: he must not
	// signal them, flag falls are logged for claims (2001 B6).
	ArbiterCalls bool
	// TimeWinClaim: the procedure for claiming a win on time in rapid/blitz.
	TimeWinClaim TimeWinClaim
	// BothFlags: what two fallen flags mean.
	BothFlags BothFlagsRule
}

// ScoresheetExemption: a player with less than Below left and an
// increment below IncrementBelow need not record (8.4).
type ScoresheetExemption struct {
	Below, IncrementBelow time.Duration
}

// Classification holds the inclusive upper limits of blitz and rapid for
// the time T = base + IncrementMoves × increment (A.1, B.1; 2001 B1, C1).
type Classification struct {
	BlitzMax, RapidMax time.Duration
	IncrementMoves     int
}

// Classify returns the game type of time control tc under c: blitz when T
// ≤ BlitzMax, rapid when T ≤ RapidMax, standard otherwise. Multi-period
// and untimed controls are standard (classify those by configuration).
func (c Classification) Classify(tc clock.TimeControl) GameType {
	if len(tc.Periods) != 1 || tc.Periods[0].Moves != 0 {
		return Standard
	}
	p := tc.Periods[0]
	t := p.Time + time.Duration(c.IncrementMoves)*(p.Increment+p.Delay)
	switch {
	case t <= c.BlitzMax:
		return Blitz
	case t <= c.RapidMax:
		return Rapid
	}
	return Standard
}

// Articles are the article numbers alerts cite. Empty means the alert
// kind does not exist under this rule set.
type Articles struct {
	Illegal, IllegalLadder, IllegalWindow, UnpromotedPawn, ClockWithoutMove string
	TouchMove                                                               string // empty: the tracker's own (2018) reference
	Checkmate, Stalemate, DeadPosition                                      string
	Threefold, FiftyMove, Fivefold, SeventyFive, WrongClaim                 string
	Flag, FlagNoMate, BothFlags, TimeWinClaim                               string
	Displaced, ClockDefect, ClockSetting, Scoresheet                        string
	TechnicalError, Agreement, Resignation, Setup, Orientation              string
	IllegalPosition, ClockStopped                                           string
}
