package pgn

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// BPGNGame is a match of two partner boards as BPGN 1.0 writes it
// (docs/team-drop.md, "Notation"): one tag section (WhiteA, BlackA, WhiteB,
// BlackB instead of White and Black; Result is the result of the team of
// White on A and Black on B) and one movetext in which the moves of both
// boards follow each other in the order of their clock presses, each
// numbered with its board's move number and letter: 1A. (White on A), 1a.
// (Black on A), 1B., 1b.
type BPGNGame struct {
	// Tags in order; Write puts Event, Site, Date, Round, WhiteA, BlackA,
	// WhiteB, BlackB and Result first.
	Tags []Tag
	// Start holds boards A and B before the first move; nil means the
	// team-drop start with empty pockets. Read sets them.
	Start [2]rules.Position
	Moves []BPGNMove
	// Comment is the termination text written before the result
	// ({White on A checkmated}); Result is "1-0", "0-1", "1/2-1/2" or "*".
	Comment, Result string
}

// BPGNMove is one move of the stream.
type BPGNMove struct {
	Board  Board2        // BoardA or BoardB
	Color  rules.Color   // the mover
	Number int           // full-move number on its board
	SAN    string        // the move as written (N@f3, -e8, e8, O-O)
	Move   rules.Move    // resolved by ReadBPGN; NoMove when read ParseOnly
	Clock  time.Duration // the mover's remaining time after the move
	// HasClock says Clock is set ({298.123} after the move).
	HasClock bool
	// Lift is the square of a piece lifted off after this move without a
	// move of its own ([%lift e5]), "" none.
	Lift string
}

// Board2 names one board of a BPGN match.
type Board2 uint8

// The boards.
const (
	BoardA Board2 = iota
	BoardB
)

// letter returns the move-number letter of a move of colour c on b.
func (b Board2) letter(c rules.Color) byte {
	l := byte('A') + byte(b)
	if c == rules.Black {
		l += 'a' - 'A'
	}
	return l
}

// Tag returns the value of the tag called name, or "".
func (g *BPGNGame) Tag(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// SetTag sets a tag, replacing one of the same name.
func (g *BPGNGame) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
}

var bpgnRoster = [...]Tag{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"WhiteA", "?"}, {"BlackA", "?"}, {"WhiteB", "?"}, {"BlackB", "?"}, {"Result", "*"},
}

// WriteBPGN writes g as BPGN 1.0 followed by a blank line: the tag roster
// of BPGN first ("?" for missing values, Result from g.Result), then
// [Variant "Bughouse"], then SetUp and FEN ("<A> | <B>") when a start is
// not the team-drop start, then the other tags; the movetext wrapped at
// opts.Width (80 by default), each move as "1A. e4{298.123}" (the clock in
// seconds when known) and [%lift e5] comments; the termination comment and
// the result. Moves are written as held (SAN); a move without SAN is an
// error wrapping ErrBadMove, and then nothing is written.
func WriteBPGN(w io.Writer, g *BPGNGame, opts WriteOptions) error {
	var buf bytes.Buffer
	bw := bufio.NewWriter(&buf)
	result := g.Result
	if result == "" {
		result = "*"
	}
	for _, t := range bpgnRoster {
		v := g.Tag(t.Name)
		if t.Name == "Result" {
			v = result
		} else if v == "" {
			v = t.Value
		}
		writeTag(bw, t.Name, v)
	}
	writeTag(bw, "Variant", "Bughouse")
	if fen, custom := bpgnFEN(g.Start); custom {
		writeTag(bw, "SetUp", "1")
		writeTag(bw, "FEN", fen)
	}
outer:
	for _, t := range g.Tags {
		for _, r := range bpgnRoster {
			if t.Name == r.Name {
				continue outer
			}
		}
		if t.Name == "Variant" || t.Name == "SetUp" || t.Name == "FEN" {
			continue
		}
		writeTag(bw, t.Name, t.Value)
	}
	bw.WriteByte('\n')
	width := opts.Width
	if width <= 0 {
		width = 80
	}
	line := 0
	emit := func(tok string) {
		switch {
		case line == 0:
		case line+1+len(tok) > width:
			bw.WriteByte('\n')
			line = 0
		default:
			bw.WriteByte(' ')
			line++
		}
		bw.WriteString(tok)
		line += len(tok)
	}
	for i, mv := range g.Moves {
		if mv.SAN == "" {
			return fmt.Errorf("%w: BPGN move %d has no SAN", ErrBadMove, i+1)
		}
		tok := strconv.Itoa(mv.Number) + string(mv.Board.letter(mv.Color)) + ". " + mv.SAN
		if mv.HasClock {
			tok += "{" + strconv.FormatFloat(mv.Clock.Seconds(), 'f', 3, 64) + "}"
		}
		emit(tok)
		if mv.Lift != "" {
			emit("{[%lift " + mv.Lift + "]}")
		}
	}
	if c := strings.TrimSpace(g.Comment); c != "" {
		emit("{" + strings.ReplaceAll(c, "}", ")") + "}")
	}
	emit(result)
	bw.WriteString("\n\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// bpgnFEN returns the FEN tag value of two starts and whether either is
// not the team-drop start.
func bpgnFEN(start [2]rules.Position) (string, bool) {
	std := chess.StartPosition(chess.TeamDrop).FEN()
	fens := [2]string{std, std}
	custom := false
	for i, p := range start {
		if p != nil && p.FEN() != std {
			fens[i], custom = p.FEN(), true
		}
	}
	return fens[0] + " | " + fens[1], custom
}
