package teamdrop

import (
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

func sqName(s rules.Square) string { return rules.Chess8x8.Name(s) }

func pieceName(p rules.Piece) string { return p.Kind.String() }

// Message implements Finding.
func (f *IllegalMove) Message() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: illegal %s (%s)", f.Side, f.Text, f.Violation)
	if f.Reason != rules.ReasonUnknown && f.Violation == IllegalOther {
		fmt.Fprintf(&b, ": %s", f.Reason)
	}
	b.WriteString(".")
	if f.Violation == KingLeftInCheck {
		fmt.Fprintf(&b, " %s may stop the clock and call the arbiter; two such errors lose.", f.Side.Opponent())
	}
	if f.Confiscable {
		fmt.Fprintf(&b, " %s may lift the piece on %s and give it to the partner, as a capture (A4).", f.Side.Opponent(), sqName(f.Square))
	}
	if f.Candidate {
		b.WriteString(" Technical-error candidate: it counts once the arbiter confirms it.")
	}
	if f.TimeAward > 0 {
		fmt.Fprintf(&b, " Proposed: %v extra for %s.", f.TimeAward, f.Side.Opponent())
	}
	return b.String()
}

// Message implements Finding.
func (f *TechnicalError) Message() string {
	what := "technical error"
	if f.KingInCheck {
		what = "king-left-in-check error"
	}
	msg := fmt.Sprintf("%s: %s number %d (%d lose).", f.Side, what, f.Count, f.LossAt)
	if f.Proposal != "" {
		msg += fmt.Sprintf(" Proposed: %s on board %s, which ends the match.", f.Proposal, f.Side.Board)
	}
	return msg
}

// Message implements Finding.
func (f *UnpromotedPawn) Message() string {
	switch {
	case f.Due:
		return fmt.Sprintf("%s must now remove the pawn on %s (A6): lift it or capture it.", f.Side, sqName(f.Square))
	case f.Deferred == DeferredCheck:
		return fmt.Sprintf("The pawn on %s reached the last rank with check: %s defends first; the removal is due once it is legal (A6 special case, R6.3).", sqName(f.Square), f.Side)
	case f.Deferred == DeferredIllegal:
		return fmt.Sprintf("The pawn on %s reached the last rank, but removing it is illegal for %s now (it shields the king): the removal waits until it is legal (R6.5).", sqName(f.Square), f.Side)
	}
	return fmt.Sprintf("No promotion: %s must remove the pawn on %s on this move, by lifting it or capturing it (A6).", f.Side, sqName(f.Square))
}

// Message implements Finding.
func (f *Confiscation) Message() string {
	to := fmt.Sprintf("it goes to the pocket of %s", f.To)
	turn := "as a capturing move"
	if !f.ConsumesTurn {
		turn = "and still has the move"
	}
	return fmt.Sprintf("%s confiscated the %s on %s %s (A4); %s. Any technical error waits for the arbiter.", f.By, pieceName(f.Piece), sqName(f.Square), turn, to)
}

// Message implements Finding.
func (f *BoardMismatch) Message() string {
	n, what := f.Missing, "missing from"
	if n < 0 {
		n, what = -n, "too many on"
	}
	return fmt.Sprintf("The boards and pockets do not add up: %d %s %s(s) %s them. %s", n, colourName(f.Piece.Color), pieceName(f.Piece), what, f.Reason)
}

// Message implements Finding.
func (f *PocketsCorrected) Message() string {
	return fmt.Sprintf("Pockets of board %s corrected (%s): White %s → %s, Black %s → %s.", f.At.Board, f.Cause,
		dash(f.Before[0]), dash(f.After[0]), dash(f.Before[1]), dash(f.After[1]))
}

// Message implements Finding.
func (f *PocketSettled) Message() string {
	return fmt.Sprintf("The %s %s dropped early arrived from the partner board: the pocket is square again.", colourName(f.Piece.Color), pieceName(f.Piece))
}

// Message implements Finding.
func (f *Checkmate) Message() string {
	loser := f.Winner.Opponent()
	switch {
	case f.Ends && f.Current && f.AnyDrop:
		return fmt.Sprintf("Checkmate: %s is mated; the match ends (A11).", loser)
	case f.Ends && f.Current:
		return fmt.Sprintf("Checkmate: %s is mated with the pocket it has; the match ends (A11). Under any_possible_drop it would not be mate: a drop could still block.", loser)
	case f.Ends:
		return fmt.Sprintf("Checkmate under any_possible_drop: %s is mated; the match ends (A11).", loser)
	case f.Current:
		return fmt.Sprintf("%s has no legal move in check with its pocket, but a drop could block: not mate under mate_definition any_possible_drop; the game goes on.", loser)
	}
	return fmt.Sprintf("%s would be mate under any_possible_drop, but has a legal move: the game goes on.", loser)
}

// Message implements Finding.
func (f *Stalemate) Message() string {
	return fmt.Sprintf("%s has no legal move and is not in check: not a draw in this variant (A11); the player waits for a piece from the partner board (R9.6).", f.Side)
}

// Message implements Finding.
func (f *Threefold) Message() string {
	return fmt.Sprintf("The position on board %s occurred for the %s time: a draw by repetition if the arbiter confirms (A11).", f.At.Board, ordinal(f.Count))
}

// Message implements Finding.
func (f *MatchEnd) Message() string {
	p := ""
	if f.Provisional {
		p = " (provisional, for the arbiter to confirm)"
	}
	return fmt.Sprintf("The match ended on board %s (%s): board A %s, board B %s%s.", f.At.Board, f.Termination, f.Results[A], f.Results[B], p)
}

// Message implements Finding.
func (f *SimultaneousEnd) Message() string {
	gap := f.Second.At.Sub(f.First.At)
	if gap < 0 {
		gap = -gap
	}
	if f.Late {
		return fmt.Sprintf("An end on board %s (%s, %s) was reported after one on board %s (%s) that came later: the earlier one stands provisionally; the arbiter decides (R9.7).",
			f.First.Board, f.First.Termination, f.First.Result, f.Second.Board, f.Second.Termination)
	}
	return fmt.Sprintf("Ends on both boards %v apart: board %s %s (%s) and board %s %s (%s); the earlier stands provisionally, the arbiter decides (R9.7).",
		gap.Round(time.Millisecond), f.First.Board, f.First.Result, f.First.Termination, f.Second.Board, f.Second.Result, f.Second.Termination)
}

// Message implements Finding.
func (f *NotRecorded) Message() string {
	return fmt.Sprintf("%s played %s after the match ended (%s): not recorded.", f.Side, f.Text, f.EndedAt.UTC().Format("15:04:05.000"))
}

// Message implements Finding.
func (f *LongThink) Message() string {
	return fmt.Sprintf("%s thought %v before this move (information only, A9).", f.Side, f.Think.Round(time.Second))
}

func colourName(c rules.Color) string {
	if c == rules.Black {
		return "black"
	}
	return "white"
}

func dash(p Pocket) string {
	if s := p.String(); s != "" {
		return s
	}
	return "-"
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", n)
}
