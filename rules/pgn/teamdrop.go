package pgn

import (
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// Pockets are the two pockets of one team-drop board, each written as
// upper-case piece letters sorted Q R B N P ("NPP"), "" when empty, as the
// MoveEvent's "pockets" has them (docs/contract.md §3.3).
type Pockets struct {
	White, Black string
}

// String returns the [%pocket] value: "NPP/-", "-" for an empty pocket.
func (p Pockets) String() string {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	return dash(p.White) + "/" + dash(p.Black)
}

// ParsePockets reads a [%pocket] value, "NPP/-"; ok is false unless it is
// two pockets of piece letters (P N B R Q, either case) or "-" around one
// slash. The pockets are returned upper case, sorted Q R B N P.
func ParsePockets(s string) (p Pockets, ok bool) {
	w, b, found := strings.Cut(strings.TrimSpace(s), "/")
	if !found {
		return Pockets{}, false
	}
	if p.White, ok = normPocket(w); !ok {
		return Pockets{}, false
	}
	if p.Black, ok = normPocket(b); !ok {
		return Pockets{}, false
	}
	return p, true
}

func normPocket(s string) (string, bool) {
	if s == "-" {
		return "", true
	}
	if s == "" {
		return "", false
	}
	var n [rules.King]int
	for i := 0; i < len(s); i++ {
		k, ok := rules.KindFromLetter(s[i])
		if !ok || k < rules.Pawn || k > rules.Queen {
			return "", false
		}
		n[k]++
	}
	var b strings.Builder
	for _, k := range []rules.Kind{rules.Queen, rules.Rook, rules.Bishop, rules.Knight, rules.Pawn} {
		b.WriteString(strings.Repeat(string(k.Letter()), n[k]))
	}
	return b.String(), true
}

// SetTeams sets the WhiteTeam and BlackTeam tags of a team-drop game
// (names trimmed; empty names are not written).
func (g *Game) SetTeams(white, black string) {
	if white = strings.TrimSpace(white); white != "" {
		g.SetTag("WhiteTeam", white)
	}
	if black = strings.TrimSpace(black); black != "" {
		g.SetTag("BlackTeam", black)
	}
}

// teamBoard returns pos as a team-drop chess position, whose pockets are
// fed from the partner board.
func teamBoard(pos rules.Position) (*chess.Position, bool) {
	p, ok := pos.(*chess.Position)
	return p, ok && p.ChessVariant() == chess.TeamDrop
}

// feedDrop gives the mover of a team-drop position the piece m drops when
// its pocket lacks it: the partner board sent it between the last
// [%pocket] and this move.
func feedDrop(pos rules.Position, m rules.Move) rules.Position {
	p, ok := teamBoard(pos)
	if !ok || !m.IsDrop() || p.Pocket(p.Turn(), m.Drop) > 0 {
		return pos
	}
	return p.WithPocket(p.Turn(), m.Drop, 1)
}

// afterNode applies what n's comment says happened after the move in a
// team-drop game: the pockets at the press, then a lift that used no turn.
func afterNode(pos rules.Position, n *MoveNode) (rules.Position, error) {
	p, ok := teamBoard(pos)
	if !ok || !n.HasPockets && n.Lift == "" {
		return pos, nil
	}
	if n.HasPockets {
		q, err := p.WithPockets(n.Pockets.White, n.Pockets.Black)
		if err != nil {
			return nil, err
		}
		p = q
	}
	if n.Lift != "" {
		s, err := rules.Chess8x8.ParseSquare(n.Lift)
		if err != nil {
			return nil, fmt.Errorf("pgn: [%%lift %s]: %w", n.Lift, err)
		}
		q, _, err := p.Lift(s, false)
		if err != nil {
			return nil, err
		}
		p = q
	}
	return p, nil
}

// playNode plays n from pos (feeding a team-drop pocket as needed) and
// applies its [%pocket] and [%lift].
func playNode(pos rules.Position, n *MoveNode) (rules.Position, error) {
	next, err := feedDrop(pos, n.Move).Play(n.Move)
	if err != nil {
		return nil, err
	}
	return afterNode(next, n)
}

// PlayNode plays n.Move from pos as the reader and the writer do: in a
// team-drop game a dropped piece the pocket lacks is first given to the
// mover (the partner board sent it since the last [%pocket]), and after
// the move n's [%pocket] and [%lift] are applied. Elsewhere it is
// pos.Play(n.Move).
func PlayNode(pos rules.Position, n *MoveNode) (rules.Position, error) { return playNode(pos, n) }

// ParseFed resolves the move s (SAN or UCI) in pos like pos.ParseMove,
// except that in a team-drop game a drop of a piece the pocket lacks is
// resolved as if the partner board had just sent it (what [PlayNode]
// then plays).
func ParseFed(pos rules.Position, s string) (rules.Move, error) {
	m, err := pos.ParseMove(s)
	if err == nil {
		return m, nil
	}
	p, ok := teamBoard(pos)
	if !ok {
		return m, err
	}
	at := strings.IndexByte(s, '@')
	if at != 1 {
		return m, err
	}
	k, kok := rules.KindFromLetter(s[0])
	if !kok || k < rules.Pawn || k > rules.Queen || p.Pocket(p.Turn(), k) > 0 {
		return m, err
	}
	return p.WithPocket(p.Turn(), k, 1).ParseMove(s)
}
