// Package perft counts the leaves of the legal move tree of a position
// (a check of the rules engines against published counts): in parallel
// over the root moves, and stopping within a fraction of a second when
// its context is cancelled.
package perft

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// Position is what perft needs of an engine's position: the rules and the
// engine's own fast leaf count.
type Position interface {
	rules.Position
	Perft(depth int) uint64
}

// ErrUnknownVariant: NewPosition has no engine for the variant named.
var ErrUnknownVariant = errors.New("unknown variant")

// Divide counts the leaves of the legal move tree of depth below pos,
// one root move at a time in the order of their UCI (ICCS) text, handing
// each root move's count to each in that order. The root moves' subtrees
// are counted in parallel, one worker per available core (the engines'
// positions are immutable values, safe to read from several goroutines).
// It checks ctx before handing on each root move's count, and then no
// worker starts another root move; inside a root move's subtree
// Count checks it between subtrees of a few plies, so that Ctrl-C or
// SIGTERM stops a deep count within a fraction of a second (the command's
// signal context replaces the default exit on those signals).
func Divide(ctx context.Context, pos Position, depth int, each func(move string, nodes uint64)) (uint64, error) {
	type root struct {
		uci   string
		child Position
		nodes uint64
		done  chan struct{}
	}
	var roots []*root
	for _, m := range pos.LegalMoves(nil) {
		child, err := pos.Play(m)
		if err != nil {
			return 0, fmt.Errorf("perft: legal move %s does not play: %w", pos.UCI(m), err)
		}
		c, ok := child.(Position)
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
					r.nodes, _ = Count(ctx, r.child, depth-1)
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

// Positionition parses fen (the variant's start position when empty) with
// the engine of variant. Xiangqi moves are ICCS with ranks 0–9, not
// Fairy-Stockfish's 1–10. An unknown variant is ErrUnknownVariant.
func NewPosition(variant, fen string) (Position, error) {
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
		return nil, fmt.Errorf("perft: %w %q (want chess, chess960, crazyhouse, team-drop or xiangqi)", ErrUnknownVariant, variant)
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

// leafDepth is the depth up to which Count hands a subtree to
// the engine's own count without looking at ctx: 4 plies of chess are at
// most a few million leaves (≈ 25 ms at the engine's speed), 3 plies of
// xiangqi about 80,000. Deeper leaves would make an interrupt slow in busy
// positions; shallower ones would cost the walk above them time.
func leafDepth(pos Position) int {
	if pos.Geometry() == rules.Chess8x8 {
		return 4
	}
	return 3
}

// Count is pos.Perft(depth), split into subtrees of leafDepth
// plies with ctx checked before each, so that a cancelled context stops a
// deep count quickly (it then returns ctx's error). The walk above the
// subtrees costs a move list and a position per internal node, a small
// share of the leaves below them.
func Count(ctx context.Context, pos Position, depth int) (uint64, error) {
	if depth <= leafDepth(pos) {
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
		cp, ok := child.(Position)
		if !ok {
			return 0, fmt.Errorf("perft: %T has no leaf count", child)
		}
		n, err := Count(ctx, cp, depth-1)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}
