package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// perftEngine is what runPerft needs of an engine's position: the leaf
// count and the per-root-move counts as (ICCS or UCI text, count).
type perftEngine struct {
	perft  func(depth int) uint64
	divide func(depth int) ([]string, []uint64)
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
	eng, err := perftPosition(*variant, *fen)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	start := time.Now()
	var n uint64
	if *divide {
		moves, counts := eng.divide(*depth)
		for i, m := range moves {
			fmt.Fprintf(stdout, "%s: %d\n", m, counts[i])
			n += counts[i]
		}
	} else {
		n = eng.perft(*depth)
	}
	if *timing {
		el := time.Since(start)
		fmt.Fprintf(stderr, "%v, %.1f M nodes/s\n", el.Round(time.Millisecond), float64(n)/el.Seconds()/1e6)
	}
	fmt.Fprintln(stdout, n)
	return nil
}

// perftPosition parses fen (the variant's start position when empty) with
// the engine of variant. Xiangqi moves are ICCS with ranks 0–9
// (specs/rules-references.md §5.2), not Fairy-Stockfish's 1–10.
func perftPosition(variant, fen string) (perftEngine, error) {
	if variant == "xiangqi" {
		if fen == "" {
			fen = xiangqi.StartFEN
		}
		pos, err := xiangqi.NewPosition(fen)
		if err != nil {
			return perftEngine{}, fmt.Errorf("perft: %w", err)
		}
		return perftEngine{perft: pos.Perft, divide: func(d int) ([]string, []uint64) {
			var ms []string
			var ns []uint64
			for _, e := range pos.Divide(d) {
				ms, ns = append(ms, e.UCI), append(ns, e.Nodes)
			}
			return ms, ns
		}}, nil
	}
	v, err := chess.ParseVariant(variant)
	if err != nil || v == chess.TeamDrop {
		return perftEngine{}, usageError{fmt.Errorf("perft: unknown variant %q (want chess, chess960, crazyhouse or xiangqi)", variant)}
	}
	if fen == "" {
		fen = v.StartFEN()
	}
	pos, err := chess.NewPosition(v, fen)
	if err != nil {
		return perftEngine{}, fmt.Errorf("perft: %w", err)
	}
	return perftEngine{perft: pos.Perft, divide: func(d int) ([]string, []uint64) {
		var ms []string
		var ns []uint64
		for _, e := range pos.Divide(d) {
			ms, ns = append(ms, e.UCI), append(ns, e.Nodes)
		}
		return ms, ns
	}}, nil
}
