package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
// (docs/contract.md §1): it prints the leaf count of the legal move tree,
// alone on the last line. With --divide it first prints every root move
// with its subtree count.
func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("perft", "--variant V [--fen FEN] --depth D",
		"Print the number of leaf nodes of the legal move tree (a check of the rules engine).\nVariants: chess, chess960, crazyhouse, team-drop, xiangqi.", stderr)
	variant := fs.String("variant", "chess", "rule set: chess, chess960, crazyhouse, team-drop, xiangqi")
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
// each root move's count to each in that order. The root moves' subtrees
// are counted in parallel, one worker per available core (the engines'
// positions are immutable values, safe to read from several goroutines).
// It checks ctx before handing on each root move's count, and then no
// worker starts another root move; inside a root move's subtree
// perftCount checks it between subtrees of a few plies, so that Ctrl-C or
// SIGTERM stops a deep count within a fraction of a second: main's signal
// context replaces the default exit on those signals.
func perftRoot(ctx context.Context, pos perftPos, depth int, each func(move string, nodes uint64)) (uint64, error) {
	type root struct {
		uci   string
		child perftPos
		nodes uint64
		done  chan struct{}
	}
	var roots []*root
	for _, m := range pos.LegalMoves(nil) {
		child, err := pos.Play(m)
		if err != nil {
			return 0, fmt.Errorf("perft: legal move %s does not play: %w", pos.UCI(m), err)
		}
		c, ok := child.(perftPos)
		if !ok {
			return 0, fmt.Errorf("perft: %T has no leaf count", child)
		}
		roots = append(roots, &root{uci: pos.UCI(m), child: c, done: make(chan struct{})})
	}
	slices.SortFunc(roots, func(a, b *root) int { return strings.Compare(a.uci, b.uci) })
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop.Store(true)
	for range min(runtime.GOMAXPROCS(0), len(roots)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(len(roots)); i = next.Add(1) - 1 {
				r := roots[i]
				if !stop.Load() {
					// Only an interrupt fails a count: the caller sees
					// ctx done and never reads r.nodes.
					r.nodes, _ = perftCount(ctx, r.child, depth-1)
				}
				close(r.done)
			}
		}()
	}
	var total uint64
	for _, r := range roots {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		select {
		case <-r.done:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		each(r.uci, r.nodes)
		total += r.nodes
	}
	return total, ctx.Err()
}

// perftPosition parses fen (the variant's start position when empty) with
// the engine of variant. Xiangqi moves are ICCS with ranks 0–9
// (docs/xiangqi.md, "Board, pieces, FEN"), not Fairy-Stockfish's 1–10.
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
	if err != nil {
		return nil, usageError{fmt.Errorf("perft: unknown variant %q (want chess, chess960, crazyhouse, team-drop or xiangqi)", variant)}
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

// perftLeafDepth is the depth up to which perftCount hands a subtree to
// the engine's own count without looking at ctx: 4 plies of chess are at
// most a few million leaves (≈ 25 ms at the engine's speed), 3 plies of
// xiangqi about 80,000. Deeper leaves would make an interrupt slow in busy
// positions; shallower ones would cost the walk above them time.
func perftLeafDepth(pos perftPos) int {
	if pos.Geometry() == rules.Chess8x8 {
		return 4
	}
	return 3
}

// perftCount is pos.Perft(depth), split into subtrees of perftLeafDepth
// plies with ctx checked before each, so that a cancelled context stops a
// deep count quickly (it then returns ctx's error). The walk above the
// subtrees costs a move list and a position per internal node, a small
// share of the leaves below them.
func perftCount(ctx context.Context, pos perftPos, depth int) (uint64, error) {
	if depth <= perftLeafDepth(pos) {
		return pos.Perft(depth), nil
	}
	var total uint64
	for _, m := range pos.LegalMoves(nil) {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		child, err := pos.Play(m)
		if err != nil {
			return 0, fmt.Errorf("perft: legal move %s does not play: %w", pos.UCI(m), err)
		}
		cp, ok := child.(perftPos)
		if !ok {
			return 0, fmt.Errorf("perft: %T has no leaf count", child)
		}
		n, err := perftCount(ctx, cp, depth-1)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}
