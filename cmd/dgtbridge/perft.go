package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// perftPos is what perft needs of an engine's position: the rules and the
// engine's own fast leaf count.
type perftPos interface {
	rules.Position
	Perft(depth int) uint64
}

// runPerft implements "dgtbridge perft --variant V [--fen FEN] --depth D"
// (specs/interfaces.md §1): it prints the leaf count of the legal move tree,
// alone on the last line. With --divide it first prints every root move
// with its subtree count.
func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("perft", "--variant V [--fen FEN] --depth D",
		"Print the number of leaf nodes of the legal move tree (a check of the rules engine).\nVariants: chess, chess960, crazyhouse, xiangqi.", stderr)
	variant := fs.String("variant", "chess", "rule set: chess, chess960, crazyhouse, xiangqi")
	fen := fs.String("fen", "", "start position (default: the variant's start position)")
	depth := fs.Int("depth", 0, "depth in plies (1 or more)")
	divide := fs.Bool("divide", false, "also print the count below each root move")
	timing := fs.Bool("time", false, "also print the time taken and nodes per second (on stderr)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("perft: unexpected argument %q", fs.Arg(0))}
	}
	if *depth < 1 {
		return usageError{errors.New("perft: --depth must be 1 or more")}
	}
	pos, err := perftPosition(*variant, *fen)
	if err != nil {
		return err
	}
	start := time.Now()
	each := func(string, uint64) {}
	if *divide {
		each = func(m string, n uint64) { fmt.Fprintf(stdout, "%s: %d\n", m, n) }
	}
	n, err := perftRoot(ctx, pos, *depth, each)
	if err != nil {
		return err
	}
	if *timing {
		el := time.Since(start)
		fmt.Fprintf(stderr, "%v, %.1f M nodes/s\n", el.Round(time.Millisecond), float64(n)/el.Seconds()/1e6)
	}
	fmt.Fprintln(stdout, n)
	return nil
}

// perftRoot counts the leaves of the legal move tree of depth below pos,
// one root move at a time in the order of their UCI (ICCS) text, handing
// each root move's count to each. It checks ctx between root moves, so
// that Ctrl-C stops a deep count: main's signal context replaces the
// default exit on SIGINT.
func perftRoot(ctx context.Context, pos perftPos, depth int, each func(move string, nodes uint64)) (uint64, error) {
	type root struct {
		uci   string
		child rules.Position
	}
	var roots []root
	for _, m := range pos.LegalMoves(nil) {
		child, err := pos.Play(m)
		if err != nil {
			return 0, fmt.Errorf("perft: legal move %s does not play: %w", pos.UCI(m), err)
		}
		roots = append(roots, root{pos.UCI(m), child})
	}
	slices.SortFunc(roots, func(a, b root) int { return strings.Compare(a.uci, b.uci) })
	var total uint64
	for _, r := range roots {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		child, ok := r.child.(perftPos)
		if !ok {
			return 0, fmt.Errorf("perft: %T has no leaf count", r.child)
		}
		n := child.Perft(depth - 1)
		each(r.uci, n)
		total += n
	}
	return total, ctx.Err()
}

// perftPosition parses fen (the variant's start position when empty) with
// the engine of variant. Xiangqi moves are ICCS with ranks 0–9
// (specs/rules-references.md §5.2), not Fairy-Stockfish's 1–10.
func perftPosition(variant, fen string) (perftPos, error) {
	if variant == "xiangqi" {
		if fen == "" {
			fen = xiangqi.StartFEN
		}
		pos, err := xiangqi.NewPosition(fen)
		if err != nil {
			return nil, fmt.Errorf("perft: %w", err)
		}
		return pos, nil
	}
	v, err := chess.ParseVariant(variant)
	if err != nil || v == chess.TeamDrop {
		return nil, usageError{fmt.Errorf("perft: unknown variant %q (want chess, chess960, crazyhouse or xiangqi)", variant)}
	}
	if fen == "" {
		fen = v.StartFEN()
	}
	pos, err := chess.NewPosition(v, fen)
	if err != nil {
		return nil, fmt.Errorf("perft: %w", err)
	}
	return pos, nil
}
