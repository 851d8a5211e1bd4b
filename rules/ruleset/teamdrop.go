package ruleset

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules/clock"
)

// BGO2026Team is the "Cờ đặt" team-drop section of 004
// (docs/team-drop.md).
const BGO2026Team = "bgo2026-team"

// TeamDrop holds the rules of the team-drop variant that the FIDE parameters of
// [RuleSet] cannot say: drops, the removal of a pawn on the last rank,
// confiscation, how technical errors are counted, how a match of two partner
// boards ends. Every field is a setting (the snake_case key of
// docs/team-drop.md's "Settings" in brackets, see [TeamDropKeys]); the defaults
// are the 004 rules, and where 004 is silent or unclear ([GAP], [AMBIGUOUS])
// the default docs/team-drop.md documents. Only rule sets of variant
// "team-drop" use it; elsewhere it is the zero value.
//
// A few settings state a rule 004 spells out (A5, A7, A8) or a timing the
// boards cannot observe otherwise; they accept only that value, and an
// override to another is an error saying why.
type TeamDrop struct {
	// DropCheckAllowed: a drop may give check [drop_check_allowed]. A4 (D3)
	// forbids it, mate included: false.
	DropCheckAllowed bool
	// DropLastRankAllowed: a piece may be dropped on the last rank
	// [drop_last_rank_allowed]. A4 (D4) forbids it: false.
	DropLastRankAllowed bool
	// LastRankReading: whose last rank D4 means [last_rank_reading]
	// [AMBIGUOUS]: the dropper's (relative, the symmetric reading, default)
	// or rank 8 for both (absolute).
	LastRankReading LastRankReading
	// PawnDropRanks: the ranks, counted from the dropper's side, where pawns
	// may be dropped, bit r-1 for rank r [pawn_drop_ranks]. A4 (D4, D5):
	// ranks 2 to 7. Only ranks 2 to 7 may be listed.
	PawnDropRanks uint8
	// DroppedPawnDoubleStep: a pawn dropped on its second rank may step two
	// squares [dropped_pawn_double_step]. A7 says so: only true.
	DroppedPawnDoubleStep bool
	// DroppedRookCanCastle: a dropped rook may castle
	// [dropped_rook_can_castle]. A8 forbids it: only false (castling
	// rights belong to the original rooks and never come back).
	DroppedRookCanCastle bool
	// Promotion: what a pawn reaching the last rank does [promotion].
	// A6: it stays a pawn and the opponent must remove it on the next move
	// (NoPromotionRemove, default); Standard is ordinary bughouse
	// promotion, for events that want it.
	Promotion Promotion
	// LiftedPawnToPartner: a last-rank pawn lifted off by the opponent goes
	// to the lifter's partner as a capture would; false: out of play
	// [lifted_last_rank_pawn_to_partner] [GAP]. Default true. A pawn
	// captured there by a piece always goes to the partner (R6.6).
	LiftedPawnToPartner bool
	// ReserveAvailableOn: when a captured piece reaches the partner's
	// pocket [reserve_available_on] [GAP]: at the clock press that
	// completes the capture (ClockPress, the only value: a capture is known
	// for certain only at the press).
	ReserveAvailableOn ReserveTiming
	// ConfiscationScope: which illegal moves let the opponent lift the
	// offending piece and give it to the partner [confiscation_scope]
	// [AMBIGUOUS]: any illegal move (default, the text says "nước đi không
	// hợp lệ") or only the three illegal drops of A4. Never the king.
	ConfiscationScope ConfiscationScope
	// ConfiscationConsumesTurn: the confiscation is the confiscator's move
	// [confiscation_consumes_turn] [AMBIGUOUS]. Default true ("counted as a
	// capturing move"); false: the confiscator lifts the piece and then
	// moves.
	ConfiscationConsumesTurn bool
	// KingCaptureAllowed: the king may be captured [king_capture_allowed].
	// A5 says the opponent stops the clock and calls the arbiter: only
	// false.
	KingCaptureAllowed bool
	// KingInCheckCountsAsTE: a move that leaves the own king in check (A5)
	// counts as a technical error together with the A10 ones, so that two in
	// total lose [king_in_check_counts_as_te] [AMBIGUOUS, R5.2]. Default
	// true; false: A5 errors have their own count, which also loses at
	// TechnicalErrors.LossAt.
	KingInCheckCountsAsTE bool
	// MateDefinition: when a check is mate [mate_definition] [GAP, R9.5].
	// Default CurrentReserve: no legal move or drop from the pocket as it
	// is (FIDE); AnyPossibleDrop: not mate while some drop could help, as
	// online bughouse rules have it. Both evaluations go to the arbiter.
	MateDefinition MateDefinition
	// TeamAgreementDraw: a draw agreed by both teams (all four players)
	// ends the match [draw_modes: team_agreement] (A11). The other draw of
	// A11, threefold repetition on a board, is Draws.ThreefoldClaim
	// [draw_modes: threefold_on_board].
	TeamAgreementDraw bool
	// RepetitionIncludesReserves: the pockets are part of a repeated
	// position [repetition_includes_reserves] [AMBIGUOUS, R9.8]. Default
	// false.
	RepetitionIncludesReserves bool
	// FirstResultEndsMatch: the first mate, flag, technical-error loss or
	// resignation on either board ends both [first_result_ends_match]
	// (A11, R9.1). Default true; false: each board plays to its own end.
	FirstResultEndsMatch bool
	// SimultaneousEnd: two ends on the partner boards this close together
	// go to the arbiter, the earlier one standing provisionally
	// [simultaneous_end_tolerance] [GAP, R9.7]. Default 1 s.
	SimultaneousEnd time.Duration
	// TimeControl: the clock setting 004 prescribes [time_control]
	// (Reg. §4: 5 minutes, no increment), for the clock-setting check of
	// the boards that play under this rule set.
	TimeControl clock.TimeControl
	// FixedBoards: each player keeps board 1 or 2 for the whole event
	// [fixed_boards] (A3). Board 1 colour from the pairing, board 2 the
	// opposite [board1_colour_from_pairing] (A1). They describe how the
	// pairings and the configuration seat the teams; the match itself
	// always pairs White on board 1 with Black on board 2. Nothing checks
	// seating across rounds.
	FixedBoards, Board1ColourFromPairing bool
	// LongThink: a think this long is reported to the arbiter as
	// information, never as a violation [report_long_think] (A9, R7.2:
	// "positive spirit", e.g. sitting to wait for pieces). 0: off (default).
	LongThink time.Duration
	// PublicDelayRequired: the public copy must be delayed, because nothing
	// the players can see may show the partner board or the pockets (A9,
	// Reg. §10) [public_delay_required]. Default true: an event with no
	// public delay is to be warned about (the configuration check).
	PublicDelayRequired bool

	// Articles cited by the team-drop findings.
	Articles TeamDropArticles
}

// TeamDropArticles are the 004 articles the team-drop findings cite.
type TeamDropArticles struct {
	Drop, DropCheck, DropLastRank, DropPawnFirstRank, DropNotInPocket string
	KingLeftInCheck, IllegalMove, Removal, DroppedRookCastle          string
	Confiscation, TechnicalError, MatchEnd, Simultaneous, Stalemate   string
	Threefold, Agreement, PartnerBoard, LongThink, Pockets            string
}

// LastRankReading says whose last rank D4 forbids.
type LastRankReading uint8

// Last-rank readings.
const (
	LastRankRelative LastRankReading = iota // the dropper's last rank
	LastRankAbsolute                        // rank 8 for both sides
)

// Promotion says what a pawn on the last rank does.
type Promotion uint8

// Promotion rules.
const (
	// NoPromotionRemove: A6, the pawn stays and the opponent removes it.
	NoPromotionRemove Promotion = iota
	// StandardPromotion: bughouse promotion to Q, R, B or N.
	StandardPromotion
)

// ReserveTiming says when a captured piece can be dropped by the partner.
type ReserveTiming uint8

// Reserve timings.
const (
	ClockPress ReserveTiming = iota // the capture's clock press
)

// ConfiscationScope says which illegal moves may be confiscated.
type ConfiscationScope uint8

// Confiscation scopes.
const (
	AnyIllegalMove ConfiscationScope = iota // every illegal move (A4 broad)
	DropsOnly                               // the three illegal drops of A4
)

// MateDefinition says when a check is mate in a drop game.
type MateDefinition uint8

// Mate definitions (R9.5).
const (
	CurrentReserve  MateDefinition = iota // no move or drop from the pocket as it is
	AnyPossibleDrop                       // no move, and no drop of any piece would help
)

var (
	lastRankNames    = []string{"relative", "absolute"}
	promotionNames   = []string{"none_remove_next_move", "standard"}
	reserveNames     = []string{"clock_press"}
	confiscateNames  = []string{"any_illegal_move", "drops_only"}
	mateNames        = []string{"current_reserve", "any_possible_drop"}
	drawModeNames    = []string{"threefold_on_board", "team_agreement"}
	defaultPawnRanks = uint8(0b01111110) // ranks 2–7
)

// String returns the setting's snake_case value.
func (r LastRankReading) String() string { return name(lastRankNames, uint8(r)) }

// String returns the setting's snake_case value.
func (p Promotion) String() string { return name(promotionNames, uint8(p)) }

// String returns the setting's snake_case value.
func (r ReserveTiming) String() string { return name(reserveNames, uint8(r)) }

// String returns the setting's snake_case value.
func (s ConfiscationScope) String() string { return name(confiscateNames, uint8(s)) }

// String returns the setting's snake_case value.
func (m MateDefinition) String() string { return name(mateNames, uint8(m)) }

// bgo2026Team is the "Cờ đặt" section of 004: FIDE blitz (Reg. §4) as
// modified by App. I Part I (A1–A11), with the defaults of
// docs/team-drop.md for what 004 leaves open.
func bgo2026Team() RuleSet {
	rs := fide2018(Blitz)
	rs.Name = BGO2026Team
	rs.Laws = "004 Regulations (BGO 2026), App. I Part I, on the FIDE Laws 2018"
	rs.Variant = "team-drop"
	// A4/A10 replace the FIDE ladder: every violation is a technical error
	// (two lose), no time award (R8.4), the opponent may confiscate.
	rs.Illegal.TimeAward = 0
	rs.Illegal.LossAt = 0
	rs.Illegal.DrawIfOpponentCannotMate = false
	rs.Illegal.UnpromotedPawnToQueen = false // A6: no promotion
	rs.Illegal.IllegalPositionDraw = false   // a pawn on the last rank is legal here
	rs.TechnicalErrors = TechnicalErrors{LossAt: 2, RequiresArbiter: true}
	// A11: a draw only by threefold repetition on a board or by both teams'
	// agreement; a flag loses whatever the material (R9.3).
	rs.Draws = Draws{ThreefoldClaim: true, AgreementMinMovesEach: rs.Draws.AgreementMinMovesEach}
	rs.Flags.NoMateDraw = false
	rs.DefaultTime = 5 * time.Minute // Reg. §10
	rs.TeamDrop = TeamDrop{
		PawnDropRanks:            defaultPawnRanks,
		DroppedPawnDoubleStep:    true,
		LiftedPawnToPartner:      true,
		ConfiscationConsumesTurn: true,
		KingInCheckCountsAsTE:    true,
		TeamAgreementDraw:        true,
		FirstResultEndsMatch:     true,
		SimultaneousEnd:          time.Second,
		TimeControl:              clock.MustParse("300"),
		FixedBoards:              true,
		Board1ColourFromPairing:  true,
		PublicDelayRequired:      true,
		Articles: TeamDropArticles{
			Drop:              "004 App. I A2",
			DropCheck:         "004 App. I A4 (D3)",
			DropLastRank:      "004 App. I A4 (D4)",
			DropPawnFirstRank: "004 App. I A4 (D5)",
			DropNotInPocket:   "004 App. I A1, A2 (D2)",
			KingLeftInCheck:   "004 App. I A5",
			IllegalMove:       "004 App. I A4; FIDE 7.5.1",
			Removal:           "004 App. I A6",
			DroppedRookCastle: "004 App. I A8",
			Confiscation:      "004 App. I A4",
			TechnicalError:    "004 App. I A10, Reg. §11",
			MatchEnd:          "004 App. I A11",
			Simultaneous:      "004 App. I A11 (R9.7)",
			Stalemate:         "004 App. I A11 (R9.6)",
			Threefold:         "004 App. I A11",
			Agreement:         "004 App. I A11, A9",
			PartnerBoard:      "004 App. I A11",
			LongThink:         "004 App. I A9",
			Pockets:           "004 App. I A1",
		},
	}
	rs.Articles.Illegal = "004 App. I A4"
	rs.Articles.IllegalLadder = "004 App. I A10, Reg. §11"
	rs.Articles.IllegalWindow = "004 App. I A4"
	rs.Articles.UnpromotedPawn = "004 App. I A6"
	rs.Articles.Checkmate = "004 App. I A11"
	rs.Articles.Stalemate = "004 App. I A11 (R9.6)"
	rs.Articles.DeadPosition = ""
	rs.Articles.Threefold = "004 App. I A11"
	rs.Articles.FiftyMove = ""
	rs.Articles.Fivefold = ""
	rs.Articles.SeventyFive = ""
	rs.Articles.Flag = "004 App. I A11"
	rs.Articles.FlagNoMate = ""
	rs.Articles.TechnicalError = "004 App. I A10, Reg. §11"
	rs.Articles.Agreement = "004 App. I A11"
	rs.Articles.IllegalPosition = ""
	return rs
}
