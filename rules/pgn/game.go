package pgn

import (
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Tag is one tag pair of a game's tag section, value unescaped.
type Tag struct {
	Name, Value string
}

// Game is one game of a PGN file: its tags in file order, the start
// position, the main line with its annotations and variations, and the
// result token that ended the movetext.
type Game struct {
	// Index is the 1-based position of the game in the stream it was read
	// from (0 for games built in code).
	Index int
	// Tags are the tag pairs in the order read. Use Tag/SetTag to access.
	Tags []Tag
	// Start is the position before the first move. It is nil when the game
	// was read with ReaderOptions.ParseOnly.
	Start rules.Position
	// Comment is the text of the comments that stand before the first move.
	Comment string
	// Moves is the main line.
	Moves []MoveNode
	// Result is the game termination marker: "1-0", "0-1", "1/2-1/2" or
	// "*" (also the Lichess extensions "0-0", "1/2-0", "0-1/2"). A game
	// whose movetext stops without one takes the Result tag, else "*".
	Result string
}

// MoveNode is one move of a line with what the PGN says about it.
type MoveNode struct {
	// Move is the move resolved against its position; rules.NoMove when
	// the game was read with ReaderOptions.ParseOnly.
	Move rules.Move
	// SAN is the move in the variant's standard notation as the position
	// formats it (ParseOnly: the text as written, suffix annotations
	// removed).
	SAN string
	// Clock is the mover's remaining time after the move ([%clk]); valid
	// when HasClock.
	Clock    time.Duration
	HasClock bool
	// EMT is the time the mover spent on the move ([%emt]); valid when
	// HasEMT.
	EMT    time.Duration
	HasEMT bool
	// Pockets are the team-drop pockets of this board after the move
	// ([%pocket W/B]); valid when HasPockets. Lift is the square of a piece
	// lifted off after the move without a move of its own ([%lift e5]: a
	// confiscation that does not use the confiscator's turn), "" none.
	Pockets    Pockets
	HasPockets bool
	Lift       string
	// Comment is the text of the comments after the move (several are
	// joined by a space), with the [%clk] and [%emt] commands removed;
	// other commands such as [%eval] stay in the text.
	Comment string
	// PreComment is the text of comments written before the move; only the
	// first move of a variation carries one (before the first move of the
	// main line, see Game.Comment).
	PreComment string
	// NAGs are the numeric annotation glyphs after the move; the suffixes
	// ! ? !! ?? !? ?! are read as 1…6.
	NAGs []int
	// Variations are alternatives to this move, each starting in the
	// position before it.
	Variations [][]MoveNode
}

// Lookup returns the value of the first tag called name (case-sensitive,
// as PGN tag names are) and whether there is one.
func (g *Game) Lookup(name string) (string, bool) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			return g.Tags[i].Value, true
		}
	}
	return "", false
}

// Tag returns the value of the tag called name, or "" when absent.
func (g *Game) Tag(name string) string {
	v, _ := g.Lookup(name)
	return v
}

// SetTag sets the tag called name, replacing its value in place when it
// exists and appending it otherwise.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
}

// DeleteTag removes every tag called name.
func (g *Game) DeleteTag(name string) {
	out := g.Tags[:0]
	for _, t := range g.Tags {
		if t.Name != name {
			out = append(out, t)
		}
	}
	g.Tags = out
}

// Ref returns the identification of g used in error messages.
func (g *Game) Ref() GameRef {
	return GameRef{Index: g.Index, Event: g.Tag("Event"), Round: g.Tag("Round"), White: g.Tag("White"), Black: g.Tag("Black")}
}

// Plies returns the number of half-moves of the main line.
func (g *Game) Plies() int { return len(g.Moves) }

// Positions returns the start position followed by the position after
// each main-line move: len(g.Moves)+1 positions. It fails when g has no
// Start (read with ParseOnly) or a move does not play. In a team-drop game
// the pockets follow the [%pocket] and [%lift] commands (see MoveNode).
func (g *Game) Positions() ([]rules.Position, error) {
	if g.Start == nil {
		return nil, ErrNoStart
	}
	out := make([]rules.Position, 0, len(g.Moves)+1)
	pos := g.Start
	out = append(out, pos)
	for i := range g.Moves {
		next, err := playNode(pos, &g.Moves[i])
		if err != nil {
			return out, err
		}
		pos = next
		out = append(out, pos)
	}
	return out, nil
}

// Final returns the position after the last main-line move.
func (g *Game) Final() (rules.Position, error) {
	ps, err := g.Positions()
	if err != nil {
		return nil, err
	}
	return ps[len(ps)-1], nil
}
