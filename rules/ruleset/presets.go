package ruleset

import (
	"slices"
	"time"
)

// Preset names (docs/contract.md §2).
const (
	FIDE2018Standard = "fide2018-standard"
	FIDE2018Rapid    = "fide2018-rapid"
	FIDE2018Blitz    = "fide2018-blitz"
	FIDE2001Standard = "fide2001-standard"
	FIDE2001Rapid    = "fide2001-rapid"
	FIDE2001Blitz    = "fide2001-blitz"
	BGO2026Chess960  = "bgo2026-960"
)

var presets = map[string]func() RuleSet{
	FIDE2018Standard: func() RuleSet { return fide2018(Standard) },
	FIDE2018Rapid:    func() RuleSet { return fide2018(Rapid) },
	FIDE2018Blitz:    func() RuleSet { return fide2018(Blitz) },
	FIDE2001Standard: func() RuleSet { return fide2001(Standard) },
	FIDE2001Rapid:    func() RuleSet { return fide2001(Rapid) },
	FIDE2001Blitz:    func() RuleSet { return fide2001(Blitz) },
	BGO2026Chess960:  bgo2026Chess960,
}

// Names returns the preset names, sorted.
func Names() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the preset called name, or an *UnknownError (matching
// ErrUnknownRuleSet) that lists the valid names.
func Lookup(name string) (RuleSet, error) {
	f, ok := presets[name]
	if !ok {
		return RuleSet{}, &UnknownError{Name: name, Valid: Names()}
	}
	return f(), nil
}

// fide2018 is the FIDE Laws of Chess in force from 1 January 2018 (source
// 000).
func fide2018(g GameType) RuleSet {
	names := [...]string{FIDE2018Standard, FIDE2018Rapid, FIDE2018Blitz}
	award := 2 * time.Minute
	if g == Blitz {
		award = time.Minute // B.2
	}
	rs := RuleSet{
		Name:     names[g],
		Laws:     "FIDE Laws of Chess 2018",
		Variant:  "chess",
		GameType: g,
		Classification: Classification{
			BlitzMax: 10 * time.Minute, RapidMax: 60*time.Minute - time.Nanosecond, IncrementMoves: 60, // A.1, B.1
		},
		Illegal: IllegalMoves{
			Trigger: OnCompletion, TimeAward: award, LossAt: 2, DrawIfOpponentCannotMate: true,
			Window: WholeGame, ClockWithoutMoveIsIllegal: true, TwoHandsIsIllegal: true, UnpromotedPawnToQueen: true,
		},
		Claims: Claims{LapseOn: LapseOnTouch, WrongClaimAward: award},
		Draws: Draws{Stalemate: true, DeadPosition: true, FivefoldAuto: true, SeventyFiveAuto: true,
			ThreefoldClaim: true, FiftyMoveClaim: true, AgreementMinMovesEach: 1},
		Flags:                       Flags{NoMateDraw: true, ArbiterCalls: true, TimeWinClaim: ClaimA43, BothFlags: BothFlagsQuickplay},
		ColoursReversedRestartBelow: 10,
		Scoresheet:                  ScoresheetExemption{Below: 5 * time.Minute, IncrementBelow: 30 * time.Second},
		Articles: Articles{
			Illegal: "7.5.1", IllegalLadder: "7.5.5", UnpromotedPawn: "7.5.2", ClockWithoutMove: "7.5.3",
			Checkmate: "5.1.1", Stalemate: "5.2.1", DeadPosition: "5.2.2",
			Threefold: "9.2", FiftyMove: "9.3", Fivefold: "9.6.1", SeventyFive: "9.6.2", WrongClaim: "9.5.3",
			Flag: "6.9", FlagNoMate: "6.9", BothFlags: "III.3.1", TimeWinClaim: "A.4.3",
			Displaced: "7.4", ClockDefect: "6.10.1", ClockSetting: "6.10.2", Scoresheet: "8.4", Agreement: "5.2.3",
			Resignation: "5.1.2", Setup: "7.2.1", Orientation: "7.2.2", ClockStopped: "6.11.2, 9.5.1",
		},
	}
	switch g {
	case Rapid:
		// A.5 makes the event declare A.3 or A.4; A.4 is the default here.
		rs.Supervision = Limited
		rs.Illegal.Window = UntilOpponentMoves
		rs.Illegal.IllegalPositionDraw = true
		rs.SetupClaimCutoffMoves = 10
		rs.Articles.IllegalWindow = "A.4.2"
		rs.Articles.IllegalPosition = "A.4.4"
		rs.Articles.Flag = "6.9, A.4.5"
		rs.Articles.FlagNoMate = "6.9, A.4.5"
	case Blitz:
		rs.Supervision = Limited
		rs.Illegal.Window = UntilOpponentMoves
		rs.Illegal.IllegalPositionDraw = true
		rs.SetupClaimCutoffMoves = 10
		rs.Articles.IllegalPosition = "B.4, A.4.4"
		rs.Flags.BothFlags = BothFlagsArbiter // Guideline III does not apply to blitz (III.2.2)
		rs.Articles.IllegalWindow = "B.4, A.4.2"
		rs.Articles.IllegalLadder = "7.5.5, B.2"
		rs.Articles.WrongClaim = "9.5.3, B.2"
		rs.Articles.Flag = "6.9, A.4.5"
		rs.Articles.FlagNoMate = "6.9, A.4.5"
		rs.Articles.BothFlags = ""
	}
	return rs
}

// fide2001 is the FIDE Laws of Chess in force from 1 July 2001 (sources
// 002 and 003).
func fide2001(g GameType) RuleSet {
	names := [...]string{FIDE2001Standard, FIDE2001Rapid, FIDE2001Blitz}
	rs := RuleSet{
		Name:     names[g],
		Laws:     "FIDE Laws of Chess 2001",
		Variant:  "chess",
		GameType: g,
		Classification: Classification{
			// 2001 B1: rapid 15 to 60 minutes; C1: blitz under 15 minutes.
			BlitzMax: 15*time.Minute - time.Nanosecond, RapidMax: 60 * time.Minute,
		},
		Illegal: IllegalMoves{Trigger: OnMade, TimeAward: 2 * time.Minute, LossAt: 3, Window: WholeGame},
		Claims:  Claims{LapseOn: LapseOnMove, WrongClaimAward: 3 * time.Minute, WrongClaimCut: true},
		Draws:   Draws{Stalemate: true, DeadPosition: true, ThreefoldClaim: true, FiftyMoveClaim: true},
		Flags: Flags{NoMateDraw: true, ArbiterCalls: true, TimeWinClaim: ClaimA43,
			BothFlags: BothFlagsQuickplay}, // 6.12 continue; 10.3 draw in the quickplay finish
		DefaultTime:     time.Hour, // 2001 6.7
		QuickplayFinish: true,      // 2001 Art 10 is part of the Laws
		Scoresheet:      ScoresheetExemption{Below: 5 * time.Minute, IncrementBelow: 30 * time.Second},
		Articles: Articles{
			Illegal: "2001 7.4(a)", IllegalLadder: "2001 7.4(b)", ClockWithoutMove: "2001 13.4",
			TouchMove: "2001 4.3",
			Checkmate: "2001 5.1(a)", Stalemate: "2001 5.2(a)", DeadPosition: "2001 9.6",
			Threefold: "2001 9.2", FiftyMove: "2001 9.3", WrongClaim: "2001 9.5(b)",
			Flag: "2001 6.10", FlagNoMate: "2001 6.10", BothFlags: "2001 6.12, 10.3",
			Displaced: "2001 7.3", ClockDefect: "2001 6 (defective clock)", ClockSetting: "2001 6 (clock setting)",
			Scoresheet: "2001 8.4", Agreement: "2001 9.1",
			Resignation: "2001 5.1(b)", Setup: "2001 7.1(a)", Orientation: "2001 7.1(b)", ClockStopped: "2001 9.5",
		},
	}
	if g == Standard {
		return rs
	}
	// Rapid (Appendix B) and blitz (Appendix C, which applies B).
	rs.TouchMoveOnRequestOnly = true // B5(a)
	rs.SetupClaimCutoffMoves = 3     // B4
	rs.Illegal.Window = UntilClaimantTouches
	rs.Flags.ArbiterCalls = false // B6
	rs.Flags.TimeWinClaim = ClaimB7
	rs.Flags.BothFlags = BothFlagsDraw // B8
	rs.Articles.TouchMove = "2001 B5(a)"
	rs.Articles.IllegalWindow = "2001 B5(b)"
	rs.Articles.Flag = "2001 B6, 6.10"
	rs.Articles.FlagNoMate = "2001 B6, 6.10"
	rs.Articles.BothFlags = "2001 B8"
	rs.Articles.TimeWinClaim = "2001 B7"
	if g == Blitz {
		// C3: completed when the opponent's clock starts; the opponent may
		// claim a win (a draw if he cannot mate) before his own move; after
		// that the illegal move stands.
		rs.Illegal = IllegalMoves{Trigger: OnCompletion, ClaimWinAt: 1, DrawIfOpponentCannotMate: true, Window: UntilOpponentMoves}
		rs.QuickplayFinish = false // C4
		rs.Articles.Illegal = "2001 C3"
		rs.Articles.IllegalLadder = "2001 C3"
		rs.Articles.IllegalWindow = "2001 C3"
	}
	return rs
}

// bgo2026Chess960 is the Chess960 section of 004 (BGO Education, Hanoi,
// 8 February 2026): FIDE blitz with 5 min + 3 s, where three technical
// errors lose (Reg. §11) instead of the FIDE ladder, and only errors
// processed through the arbiter count. Whether the FIDE 1-minute award
// applies is an open question for the organiser; the default is no award
// (illegal_time_award overrides it).
func bgo2026Chess960() RuleSet {
	rs := fide2018(Blitz)
	rs.Name = BGO2026Chess960
	rs.Laws = "004 Regulations (BGO 2026) on the FIDE Laws 2018"
	rs.Variant = "chess960"
	rs.Illegal.TimeAward = 0
	rs.Illegal.LossAt = 0
	rs.Illegal.DrawIfOpponentCannotMate = false
	rs.TechnicalErrors = TechnicalErrors{LossAt: 3, RequiresArbiter: true}
	rs.DefaultTime = 5 * time.Minute // Reg. §10
	rs.Articles.TechnicalError = "004 Reg. §11"
	rs.Articles.IllegalLadder = "004 Reg. §11"
	return rs
}
