package ruleset

import (
	"time"
)

// The xiangqi rule sets: the Vietnamese Xiangqi Law of 2004 (Decision
// 1409/2004/QĐ-UBTDTT, docs/xiangqi.md), standard play, and with the
// Provisional Rapid and Blitz Regulations of 2015 (RB).
const (
	XiangqiVN2004      = "xiangqi-vn2004"
	XiangqiVN2004Rapid = "xiangqi-vn2004-rapid"
	XiangqiVN2004Blitz = "xiangqi-vn2004-blitz"
)

// Xiangqi holds what the 2004 law says beyond the parameters [RuleSet] shares
// with chess. Every field is a setting (its snake_case key, from
// docs/xiangqi.md, "Rule sets", in brackets; see [XiangqiKeys]); where the law
// is unclear or silent ([AMBIGUOUS], [CONFLICT], [GAP]) the default is the one
// the spec documents, and docs/xiangqi.md says so.
type Xiangqi struct {
	// Notation is the dialect of the moves written for people: "vn" (the
	// law's Art. 11.2(a), P2-5, default), "doc_asian" (P2=5) or "wxf"
	// (C2.5) [notation_dialect]. The dialect is configured, never guessed
	// (docs/xiangqi.md, "Notation").
	Notation string
	// TandemAdvisorElephant: two advisors or elephants on one file are
	// written t/s instead of their file number [tandem_for_advisor_elephant]
	// (the law leaves it open). Default false.
	TandemAdvisorElephant bool
	// CommitDebounce: a piece put down on a new point is the move once it
	// has stood still this long (Art. 9.5(b): a move is irrevocable once
	// placed) [commit_on_place_debounce]. Default 200 ms.
	CommitDebounce time.Duration
	// TouchEvidenceAsWitness: the board's lift records count as the
	// arbiter witnessing a touch (Art. 9.11(b)) [touch_evidence_counts_as_witness].
	// Default false: evidence for the arbiter only.
	TouchEvidenceAsWitness bool
	// AccidentalTouches: the ladder of accidental touches (Art. 9.6):
	// reminder, warning, and from the third on a deliberate touch.
	AccidentalTouches int
	// NoMoveLoses: a side with no legal move loses, in check or not
	// (Art. 7.1(a)–(c): stalemate is a loss). Always true.
	NoMoveLoses bool
	// IllegalIsTE: an illegal move, and a move exposing the own general,
	// is a technical error (Art. 16.3(a)); the position is restored
	// (9.10) in standard play.
	IllegalIsTE bool
	// ClaimantWins: in rapid and blitz an upheld claim of an illegal move,
	// made before the claimant's own move, wins the game (RB 4.2).
	ClaimantWins bool
	// CorrectPalacePieces: a general, advisor or elephant outside its area
	// must be put back even after the claim window (RB 4.3).
	CorrectPalacePieces bool
	// AbandonedGeneralLoses: leaving the general to be taken or facing
	// loses if the opponent notices (RB 4.4).
	AbandonedGeneralLoses bool
	// ConductLossAt: this many conduct errors lose (Art. 7.1(n))
	// [ce_loss_threshold]. Default 3. (Technical errors: RuleSet's
	// TechnicalErrors.LossAt, te_loss_threshold, 3.)
	ConductLossAt int
	// TEBonus is added to the opponent's clock for each technical error
	// (RB 5: rapid 2 min, blitz 1 min; standard none) [te_bonus].
	TEBonus time.Duration
	// MateBeforePressWins: a checkmate placed before the mover's flag fell
	// but pressed after it wins (the practice of the note to Art. 10.2.4);
	// false: the mater loses on time, as the law's text says
	// [mate_before_press_wins] [CONFLICT]. Default false.
	MateBeforePressWins bool
	// MoveControls are the move controls of Art. 10.1.2: after Minutes of
	// a player's own time, at least Moves of his moves, else he loses
	// [move_controls]. Default none (today's events play with increment).
	MoveControls []MoveControl
	// FinalPhaseMaxChecks: in the "10 moves every 5 minutes" phase a
	// player may give at most this many checks per 10-move block
	// (Art. 10.1.2) [final_phase_max_checks] [AMBIGUOUS: per block,
	// per player]. Default 4.
	FinalPhaseMaxChecks int
	// NoCaptureLimit: the moves without a capture after which a draw may
	// be claimed (Art. 12, 7.2(e)), in move pairs [no_capture_limit_moves]
	// [CONFLICT: 20.4 b.6 says 60]. Default 50. Rapid and blitz have no
	// such claim (RB 3): RuleSet.Draws.FiftyMoveClaim is false there.
	NoCaptureLimit int
	// ChecksCounted: checks count towards the no-capture moves up to this
	// many (Art. 12(c)) [checks_counted_max]. Default 5.
	ChecksCounted int
	// ChecksCapScope: the cap is per side ("per_side", default) or for
	// both together ("total") [checks_cap_scope] [AMBIGUOUS].
	ChecksCapScope string
	// CountEachPlayer: count each player's moves (international events,
	// note to Art. 12: "100 moves", from the claimant's move)
	// [count_each_player]. Default false: move pairs.
	CountEachPlayer bool
	// WrongClaimBonus is added to the opponent's clock for a premature
	// no-capture draw claim (Art. 12(b)) [false_claim_bonus]. Default 2 min.
	WrongClaimBonus time.Duration
	// NoAttackersDraw: with no chariot, horse, cannon or soldier on either
	// side the arbiter may declare the draw without a claim (Art. 20.4 b.6).
	NoAttackersDraw bool
	// RecordingRequired: players keep a scoresheet (Art. 11); not in rapid
	// and blitz (RB 1), where the daemon's record is the only one.
	RecordingRequired bool
	// Repetition: the Art. 22–24 settings.
	Repetition XiangqiRepetition
	// Articles cited by xiangqi findings beyond RuleSet.Articles.
	Articles XiangqiArticles
}

// MoveControl is one move control of Art. 10.1.2.
type MoveControl struct {
	Minutes, Moves int
}

// XiangqiRepetition are the settings of the repetition classification
// (rules/xiangqi ClassifyRepetitions; docs/xiangqi.md, "Repetition").
type XiangqiRepetition struct {
	// Occurrence of a position that triggers the classification
	// [repetition_alert_occurrence] [GAP]. Default 3.
	Occurrence int
	// CheckVsChase: "checker_must_change" (default, [EXTERNAL] Asian
	// rules) or "draw" [check_vs_chase] [GAP].
	CheckVsChase string
	// KingPawnCombined: "by_other_pieces" (default), "always_draw" or
	// "always_loss" [king_pawn_combined_chase] [CONFLICT P9 / 24.26].
	KingPawnCombined string
}

// XiangqiArticles are the articles of the 2004 law cited by the xiangqi
// findings.
type XiangqiArticles struct {
	PerpetualCheck, PerpetualChase, RepetitionAllowed, MutualViolation string
	NoCaptureClaim, WrongNoCaptureClaim, NoAttackers, MoveControl      string
	FinalPhaseChecks, ConductError, Palace, AbandonedGeneral           string
}

// xiangqiVN2004 is the 2004 law for game type g: standard play, or rapid
// and blitz under the 2015 provisional regulations.
func xiangqiVN2004(g GameType) RuleSet {
	names := [...]string{XiangqiVN2004, XiangqiVN2004Rapid, XiangqiVN2004Blitz}
	rs := RuleSet{
		Name:     names[g],
		Laws:     "Vietnamese Xiangqi Law 2004 (Decision 1409/2004/QĐ-UBTDTT)",
		Variant:  "xiangqi",
		GameType: g,
		// Art. 10.1.1(e): rapid is 15, 25 or 30 minutes; blitz is not
		// defined [GAP]: up to 10 minutes, counted as FIDE does (base + 60
		// increments).
		Classification: Classification{BlitzMax: 10 * time.Minute, RapidMax: 30 * time.Minute, IncrementMoves: 60},
		// Art. 9.10, 16.3(a): an illegal move found during the game is put
		// right from the scoresheet and is a technical error; it never
		// loses by itself (TimeAward 0, LossAt 0): three technical errors
		// do (7.1(n)). A move counts once placed (9.5(b)).
		Illegal:         IllegalMoves{Trigger: OnMade, Window: WholeGame},
		TechnicalErrors: TechnicalErrors{LossAt: 3, RequiresArbiter: true},
		// Art. 12: the no-capture claim; a premature claim gives the
		// opponent 2 minutes (12(b)).
		Claims: Claims{LapseOn: LapseOnMove, WrongClaimAward: 2 * time.Minute},
		// Stalemate is a loss (7.1(b)), not a draw; there is no threefold
		// claim, the repetition rules of Art. 22–24 take its place.
		Draws: Draws{FiftyMoveClaim: true},
		// 7.1(d): who runs out of time first loses; the arbiter acts.
		Flags: Flags{ArbiterCalls: true, BothFlags: BothFlagsArbiter},
		// 9.11(a): the arbiter rules on a touch only when a player asks.
		TouchMoveOnRequestOnly: true,
		// 10.2.1(a): 15, 30 or 60 minutes, set by the regulations [GAP]:
		// 15 minutes by default.
		DefaultTime: 15 * time.Minute,
		// 11.1(a): under 5 minutes a player may stop recording, but not
		// with an increment (the note: "to the last second").
		Scoresheet: ScoresheetExemption{Below: 5 * time.Minute, IncrementBelow: time.Millisecond},
		Articles: Articles{
			Illegal: "9.10, 16.3(a)", Checkmate: "7.1(a), 7.1(c)", Stalemate: "7.1(b)",
			DeadPosition: "7.2(a), 20.4 b.6", FiftyMove: "12, 7.2(e)", WrongClaim: "12(b)",
			Flag: "7.1(d), 10.1", Displaced: "9.6", Scoresheet: "11.1(a), 11.3(b)",
			TechnicalError: "16.3, 20.4 b.9, 7.1(n)", Agreement: "7.2(d), 15.7(k)", Resignation: "7.1(k)",
			Setup: "9.9(a)", Orientation: "2.1, 9.9", ClockStopped: "10.2.2", TouchMove: "9.1–9.5, 9.11",
			ClockDefect: "10.2.3",
		},
		Xiangqi: Xiangqi{
			Notation:              "vn",
			CommitDebounce:        200 * time.Millisecond,
			AccidentalTouches:     3,
			NoMoveLoses:           true,
			IllegalIsTE:           true,
			ConductLossAt:         3,
			FinalPhaseMaxChecks:   4,
			NoCaptureLimit:        50,
			ChecksCounted:         5,
			ChecksCapScope:        "per_side",
			WrongClaimBonus:       2 * time.Minute,
			NoAttackersDraw:       true,
			RecordingRequired:     true,
			AbandonedGeneralLoses: false,
			Repetition:            XiangqiRepetition{Occurrence: 3, CheckVsChase: "checker_must_change", KingPawnCombined: "by_other_pieces"},
			Articles: XiangqiArticles{
				PerpetualCheck: "7.1(g), 23 P1, 24.2", PerpetualChase: "7.1(h), 23 P3, 24.14",
				RepetitionAllowed: "7.2(b), 23 P2, 24.2", MutualViolation: "7.2(c), 24 Fig. 107",
				NoCaptureClaim: "12, 7.2(e)", WrongNoCaptureClaim: "12(b)", NoAttackers: "20.4 b.6, 7.2(a)",
				MoveControl: "10.1.2, 7.1(d)", FinalPhaseChecks: "10.1.2", ConductError: "15.7[2], 7.1(n)",
			},
		},
	}
	if g == Standard {
		return rs
	}
	// RB 1–10: no scoresheet; claims on set-up, orientation and clock
	// setting only until either player has made 3 moves; no no-capture
	// claim; an illegal move counts once the clock is pressed and the
	// opponent may claim it before his own move (the claimant wins);
	// afterwards it stands, but a general, advisor or elephant outside its
	// area is put back; abandoning the general loses if noticed; each TE
	// gives the opponent 2 (rapid) or 1 (blitz) minutes; a time claim
	// stops both clocks and is a draw when the claimant cannot mate; the
	// arbiter acts only on claims and when both flags are down.
	rs.Supervision = Limited
	rs.Illegal = IllegalMoves{Trigger: OnCompletion, ClaimWinAt: 1, Window: UntilOpponentMoves}
	rs.SetupClaimCutoffMoves = 3
	rs.Draws.FiftyMoveClaim = false
	rs.Flags = Flags{NoMateDraw: true, TimeWinClaim: ClaimB7, BothFlags: BothFlagsArbiter}
	rs.Scoresheet = ScoresheetExemption{}
	rs.Xiangqi.RecordingRequired = false
	rs.Xiangqi.ClaimantWins = true
	rs.Xiangqi.CorrectPalacePieces = true
	rs.Xiangqi.AbandonedGeneralLoses = true
	rs.Xiangqi.TEBonus = 2 * time.Minute
	if g == Blitz {
		rs.Xiangqi.TEBonus = time.Minute
	}
	rs.Articles.Illegal = "RB 4.1"
	rs.Articles.IllegalWindow = "RB 4.2, 4.3"
	rs.Articles.FlagNoMate = "RB 8"
	rs.Articles.TimeWinClaim = "RB 8"
	rs.Articles.BothFlags = "RB 9"
	rs.Articles.TechnicalError = "RB 5, 16.3"
	rs.Articles.Setup = "RB 2, 9.9(a)"
	rs.Articles.FiftyMove = ""
	rs.Articles.WrongClaim = ""
	rs.Xiangqi.Articles.Palace = "RB 4.3"
	rs.Xiangqi.Articles.AbandonedGeneral = "RB 4.4"
	rs.Xiangqi.Articles.ConductError = "RB 10, 15.7[2]"
	return rs
}
