package teamdrop

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// Complete records the move mv completed by the clock press at time at on
// board b, by the side to move there: a board move, a drop (N@f3), or a lift
// of an opponent's piece (rules.FlagRemove with From the square: -e8).
//
// A legal move is played. An illegal one that a hand can make is recorded
// as it stands, with an [IllegalMove] finding naming the 004 article and,
// where the settings allow, the opponent's right to confiscate the piece
// (A4); a drop of a piece the pocket lacks is recorded too (the piece is on
// the board) and the pocket owes it until the partner board sends one. A
// lift is the removal of a pawn on the last rank when that is due and legal
// (A6), else the confiscation of the piece the opponent just moved
// illegally, else an illegal lift. A capture (or a removal, or a
// confiscation) puts the piece into the pocket of the capturer's partner
// now, at this press (reserve_available_on clock_press). Then the board is
// judged: the removal obligation, checkmate under the mate definition
// (which ends the match), stalemate, threefold repetition.
//
// After the match has ended, a move completed later than the end is not
// recorded ([NotRecorded]). A move no hand can make (no piece of the mover
// on From, a drop on an occupied square, a king lifted) is an error
// wrapping ErrImpossible and changes nothing.
func (m *Match) Complete(b Board, mv rules.Move, at time.Time) (Update, error) {
	var u Update
	if b > B {
		return u, fmt.Errorf("%w: board %d", ErrBadCommand, b)
	}
	if t, over := m.endTime(b); over && at.After(t) {
		pos := m.st.b[b].pos
		u.add(&NotRecorded{At: m.where(b, at, m.rs.TeamDrop.Articles.MatchEnd), Side: Side{b, pos.Turn()}, Text: moveText(pos, mv), EndedAt: t})
		return u, nil
	}
	m.expire(&u, at)
	e := entry{kind: entryMove, board: b, move: mv, at: at, recorded: true, index: len(m.log)}
	if err := m.apply(&u, &e, false); err != nil {
		return Update{}, err
	}
	m.log = append(m.log, e)
	m.events = append(m.events, Event{Kind: EventMove, Board: b, At: at, Move: &mv})
	u.Recorded = true
	return u, nil
}

// apply plays the move entry e on its board and notes in e whether the
// pocket had to owe a dropped piece. In a replay (Reinstate) it reports
// only what the correction changed: no findings about the move itself, no
// technical errors.
func (m *Match) apply(u *Update, e *entry, replay bool) error {
	b := e.board
	bs := &m.st.b[b]
	pos := bs.pos
	mover := pos.Turn()
	side := Side{b, mover}
	td := m.rs.TeamDrop
	if !replay && td.LongThink > 0 {
		if think := e.at.Sub(bs.press); think >= td.LongThink {
			u.add(&LongThink{At: Where{b, len(bs.plies) + 1, e.at, td.Articles.LongThink}, Side: side, Think: think})
		}
	}
	mv := e.move
	if mv.Flags&rules.FlagRemove != 0 {
		return m.lift(u, *e, replay)
	}
	inCheck := pos.InCheck()
	var next *chess.Position
	ply := Ply{Board: b, Number: len(bs.plies) + 1, Color: mover, PassesTurn: true, At: e.at, Kind: PlyMove}
	if mv.IsDrop() {
		ply.Kind = PlyDrop
	}
	from, owed, checkErr, wait := judgeMove(pos, mover, mv, e, replay)
	if checkErr == nil {
		canon, err := from.ParseMove(from.UCI(mv))
		if err != nil {
			return fmt.Errorf("teamdrop: legal move %s does not read back: %w", from.UCI(mv), err)
		}
		mv = canon
		ply.SAN, ply.UCI = from.SAN(mv), from.UCI(mv)
		next, _ = from.PlayMove(mv)
	} else {
		var err error
		if next, err = from.PlayIllegalMove(mv); err != nil {
			return fmt.Errorf("%w: %s on board %s: %w", ErrImpossible, moveText(pos, mv), b, err)
		}
		ply.Illegal = true
		ply.SAN, ply.UCI = moveText(pos, mv), pos.UCI(mv)
	}
	if !e.applied {
		e.applied, e.illegal = true, checkErr != nil
		var ie *rules.IllegalMoveError
		if errors.As(checkErr, &ie) {
			e.reason = ie.Reason
		}
	}
	ply.Move = mv
	m.owe(u, e, side, owed, ply.Number, replay)
	taken, takenSq := takenPiece(pos, next, mover)
	dropped := bs.dropped
	bs.dropped = movedMarks(bs.dropped, mv, takenSq)
	bs.pos = next
	if !taken.IsEmpty() {
		k := taken.Kind
		if pos.Promoted(takenSq) {
			k = rules.Pawn // a promoted piece goes back as a pawn (promotion: standard)
		}
		ply.Taken, ply.TakenTo, ply.TakenToPocket = taken, side.Partner(), true
		m.give(u, side.Partner(), k, e.at, replay)
	}
	if mv.IsDrop() {
		u.Pockets[b] = true
	}
	bs.canConf = false
	m.record(u, b, ply, e.at, replay)
	if checkErr != nil {
		m.illegal(u, *e, side, pos, next, mv, checkErr, inCheck, dropped, replay, &ply)
	}
	if wait {
		e.pending = true
	}
	if e.pending {
		m.st.waiting = append(m.st.waiting, waiting{side: side, kind: owed, at: e.at, ply: ply.Number, log: e.index})
	}
	return nil
}

// judgeMove decides whether e's move mv, made by mover in pos, is legal. A
// drop of a piece the pocket does not hold is judged as if it held it
// (from has the piece added; owed names it): when only the piece is
// missing, the verdict waits (wait) for the partner board's capture that
// may have been pressed first and reported later (waiting.go). On a replay
// after a correction, a move keeps the verdict it had when made.
func judgeMove(pos *chess.Position, mover rules.Color, mv rules.Move, e *entry, replay bool) (from *chess.Position, owed rules.Kind, checkErr error, wait bool) {
	from, owed = pos, rules.NoKind
	if mv.IsDrop() && mv.Drop >= rules.Pawn && mv.Drop <= rules.Queen && pos.Pocket(mover, mv.Drop) == 0 {
		// The piece is on the board, so it came from somewhere: the pocket
		// owes it.
		from, owed = pos.WithPocket(mover, mv.Drop, 1), mv.Drop
	}
	checkErr = pos.Check(mv)
	if owed != rules.NoKind && !e.applied && emptyPocket(checkErr) && from.Check(mv) == nil {
		checkErr, wait = nil, true
	}
	if replay && e.applied {
		// A correction changes pockets, not what the move was when made: a
		// drop that was legal stays legal (its piece now owed), an illegal
		// move stays illegal for the same reason.
		switch {
		case e.illegal && checkErr == nil:
			checkErr = &rules.IllegalMoveError{Move: mv, Reason: e.reason}
		case !e.illegal:
			checkErr = from.Check(mv)
		}
	}
	return from, owed, checkErr, wait
}

// owe notes that the piece dropped at ply came from nowhere yet (owed, or
// rules.NoKind): the side's debt grows, and on a replay where a
// correction took back the capture it came from, the arbiter is told.
func (m *Match) owe(u *Update, e *entry, side Side, owed rules.Kind, ply int, replay bool) {
	wasOwed := e.owed
	e.owed = owed != rules.NoKind
	if !e.owed {
		return
	}
	b, mover := side.Board, side.Color
	m.st.debt[b][mover][owed]++
	if replay && !wasOwed {
		u.add(&BoardMismatch{At: Where{b, ply, e.at, m.rs.TeamDrop.Articles.Pockets}, Piece: rules.Piece{Color: mover, Kind: owed}, Missing: 1,
			Reason: fmt.Sprintf("The %s dropped on board %s at ply %d came from a capture on board %s that the correction took back; the arbiter decides where it comes from.",
				pieceName(rules.Piece{Kind: owed}), b, ply, b.Partner())})
	}
}

// illegal classifies an illegal move that stood and reports it.
func (m *Match) illegal(u *Update, e entry, side Side, pos, next *chess.Position, mv rules.Move, checkErr error, inCheck bool, dropped uint64, replay bool, ply *Ply) {
	bs := &m.st.b[side.Board]
	td := m.rs.TeamDrop
	var ie *rules.IllegalMoveError
	reason := rules.ReasonUnknown
	if errors.As(checkErr, &ie) {
		reason = ie.Reason
	}
	v, article := m.violation(next, mv, reason, inCheck, dropped, side.Color)
	sq := mv.To
	if mv.IsCastle() {
		sq = rules.NoSquare // the king moved: never confiscated
	}
	conf := sq != rules.NoSquare && next.At(sq).Color == side.Color && next.At(sq).Kind != rules.King && !next.At(sq).IsEmpty()
	if td.ConfiscationScope == ruleset.DropsOnly && v != DropGivesCheck && v != DropOnLastRank && v != DropPawnRank {
		conf = false
	}
	bs.canConf, bs.confisc = conf, sq
	if replay {
		return
	}
	u.add(&IllegalMove{At: Where{side.Board, ply.Number, e.at, article}, Side: side, Move: mv, Text: ply.SAN, Reason: reason, Violation: v,
		Square: sq, Confiscable: conf, Candidate: m.rs.TechnicalErrors.RequiresArbiter, TimeAward: m.rs.Illegal.TimeAward})
	if !m.rs.TechnicalErrors.RequiresArbiter {
		m.countTE(u, side, v == KingLeftInCheck, e.at)
	}
}

// violation names the rule an illegal move broke and its article.
func (m *Match) violation(next *chess.Position, mv rules.Move, reason rules.Reason, inCheck bool, dropped uint64, mover rules.Color) (Violation, string) {
	a := m.rs.TeamDrop.Articles
	if next.KingAttacked(mover) {
		if inCheck {
			return KingLeftInCheck, a.KingLeftInCheck
		}
		return KingExposed, a.IllegalMove + " (R5.4)"
	}
	switch reason {
	case rules.ReasonDropGivesCheck:
		return DropGivesCheck, a.DropCheck
	case rules.ReasonEmptyPocket:
		return DropNotInPocket, a.DropNotInPocket
	case rules.ReasonBadDrop:
		rank := rules.Chess8x8.Rank(mv.To)
		last := 7
		if mover == rules.Black && m.rs.TeamDrop.LastRankReading == ruleset.LastRankRelative {
			last = 0
		}
		if rank == last {
			return DropOnLastRank, a.DropLastRank
		}
		return DropPawnRank, a.DropPawnFirstRank
	case rules.ReasonMustRemovePawn:
		return RemovalDue, a.Removal + " (R6.7)"
	case rules.ReasonCastleRightsGone:
		if mv.IsCastle() && mv.To >= 0 && dropped&(1<<uint(mv.To)) != 0 {
			return DroppedRookCastles, a.DroppedRookCastle
		}
	}
	return IllegalOther, a.IllegalMove
}

// lift plays the lift of the piece on e.move.From: a removal (A6), a
// confiscation (A4) or an illegal lift.
func (m *Match) lift(u *Update, e entry, replay bool) error {
	b := e.board
	bs := &m.st.b[b]
	pos := bs.pos
	mover := pos.Turn()
	side := Side{b, mover}
	td := m.rs.TeamDrop
	sq := e.move.From
	piece := pos.At(sq)
	if piece.IsEmpty() || piece.Color == mover || piece.Kind == rules.King {
		return fmt.Errorf("%w: -%s on board %s: no opponent's piece other than the king there", ErrImpossible, sqName(sq), b)
	}
	mv := rules.Move{From: sq, To: rules.NoSquare, Flags: rules.FlagRemove}
	ply := Ply{Board: b, Number: len(bs.plies) + 1, Color: mover, Move: mv, SAN: "-" + sqName(sq), UCI: "-" + sqName(sq),
		PassesTurn: true, At: e.at, Taken: piece}
	var next *chess.Position
	switch {
	case bs.canConf && bs.confisc == sq:
		ply.Kind = PlyConfiscation
		ply.PassesTurn = td.ConfiscationConsumesTurn
		next, _, _ = pos.Lift(sq, ply.PassesTurn)
		ply.TakenTo, ply.TakenToPocket = side.Partner(), true
		if !replay {
			u.add(&Confiscation{At: Where{b, ply.Number, e.at, td.Articles.Confiscation}, By: side, Square: sq, Piece: piece, To: side.Partner(), ConsumesTurn: ply.PassesTurn})
		}
	case pos.Check(mv) == nil:
		ply.Kind = PlyRemoval
		next, _ = pos.PlayMove(mv)
		ply.TakenTo, ply.TakenToPocket = side.Partner(), td.LiftedPawnToPartner
	default:
		ply.Kind = PlyIllegalLift
		ply.Illegal = true
		next, _, _ = pos.Lift(sq, true)
	}
	bs.pos = next
	bs.dropped &^= 1 << uint(sq)
	bs.canConf = false
	switch {
	case ply.TakenToPocket:
		m.give(u, side.Partner(), piece.Kind, e.at, replay)
	default:
		m.st.out[piece.Color][piece.Kind]++
	}
	if ply.Kind == PlyIllegalLift && !replay {
		var reason rules.Reason
		var ie *rules.IllegalMoveError
		if errors.As(pos.Check(mv), &ie) {
			reason = ie.Reason
		}
		u.add(&IllegalMove{At: Where{b, ply.Number, e.at, td.Articles.Confiscation}, Side: side, Move: mv, Text: ply.SAN, Reason: reason,
			Violation: IllegalLift, Square: rules.NoSquare, Candidate: m.rs.TechnicalErrors.RequiresArbiter, TimeAward: m.rs.Illegal.TimeAward})
		if !m.rs.TechnicalErrors.RequiresArbiter {
			m.countTE(u, side, false, e.at)
		}
	}
	m.record(u, b, ply, e.at, replay)
	return nil
}

// give puts a piece of kind k into side s's pocket, or settles what the
// pocket owes for an early drop.
func (m *Match) give(u *Update, s Side, k rules.Kind, at time.Time, replay bool) {
	if d := &m.st.debt[s.Board][s.Color]; d[k] > 0 {
		d[k]--
		if m.settle(u, s, k, at, replay) {
			return // the drop waited for this piece, captured before it was dropped
		}
		if !replay {
			u.add(&PocketSettled{At: m.where(s.Board, at, m.rs.TeamDrop.Articles.Pockets), Side: s, Piece: rules.Piece{Color: s.Color, Kind: k}})
		}
		return
	}
	bs := &m.st.b[s.Board]
	bs.pos = bs.pos.WithPocket(s.Color, k, bs.pos.Pocket(s.Color, k)+1)
	m.st.came[s.Board] = append(m.st.came[s.Board], arrival{color: s.Color, kind: k, at: at})
	u.Pockets[s.Board] = true
}

// record appends the ply to its board and judges the position it left.
func (m *Match) record(u *Update, b Board, ply Ply, at time.Time, replay bool) {
	bs := &m.st.b[b]
	ply.Pockets = [2]Pocket{pocketOf(bs.pos, rules.White), pocketOf(bs.pos, rules.Black)}
	for _, a := range m.st.came[b] {
		if a.at.After(at) && ply.Pockets[a.color][a.kind] > 0 {
			ply.Pockets[a.color][a.kind]--
		}
	}
	ply.FEN = bs.pos.FEN()
	bs.plies = append(bs.plies, ply)
	bs.press = at
	m.judge(u, b, ply, at, replay)
}

// takenPiece returns the opponent's piece that left the board between pos
// and next (a capture, en passant included), and its square.
func takenPiece(pos, next *chess.Position, mover rules.Color) (rules.Piece, rules.Square) {
	for s := rules.Square(0); s < 64; s++ {
		p := pos.At(s)
		if !p.IsEmpty() && p.Color != mover && next.At(s) != p {
			return p, s
		}
	}
	return rules.NoPiece, rules.NoSquare
}

// movedMarks carries the marks of dropped pieces along a move.
func movedMarks(marks uint64, mv rules.Move, taken rules.Square) uint64 {
	bit := func(s rules.Square) uint64 {
		if s < 0 || s >= 64 {
			return 0
		}
		return 1 << uint(s)
	}
	marks &^= bit(taken)
	switch {
	case mv.IsDrop():
		return marks | bit(mv.To)
	case mv.IsCastle():
		// King-takes-rook: the rook ends on the f- or d-file of its rank.
		rook := marks & bit(mv.To)
		marks &^= bit(mv.From) | bit(mv.To)
		if rook != 0 {
			rank := rules.Chess8x8.Rank(mv.To)
			file := 3
			if mv.To > mv.From {
				file = 5
			}
			marks |= bit(rules.Chess8x8.Square(file, rank))
		}
		return marks
	}
	if marks&bit(mv.From) != 0 {
		marks = marks&^bit(mv.From) | bit(mv.To)
	}
	return marks
}

// moveText writes a move as the record shows it: SAN when legal, else a
// long form (N@f6, Ra1a3, e7xd8, -e8, O-O).
func moveText(pos *chess.Position, mv rules.Move) string {
	if pos.Check(mv) == nil {
		return pos.SAN(mv)
	}
	switch {
	case mv.IsDrop():
		return string(mv.Drop.Letter()) + "@" + sqName(mv.To)
	case mv.Flags&rules.FlagRemove != 0:
		return "-" + sqName(mv.From)
	case mv.IsCastle():
		if mv.To > mv.From {
			return "O-O"
		}
		return "O-O-O"
	}
	s := ""
	if k := pos.At(mv.From).Kind; k != rules.Pawn && k != rules.NoKind {
		s = string(k.Letter())
	}
	s += sqName(mv.From)
	if !pos.At(mv.To).IsEmpty() {
		s += "x"
	}
	s += sqName(mv.To)
	if mv.Promo != rules.NoKind {
		s += "=" + string(mv.Promo.Letter())
	}
	return s
}
