package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/rules/perft"
)

// runPerft implements "dgtbridge perft --variant V [--fen FEN] --depth D"
// (docs/contract.md §1): it prints the leaf count of the legal move tree,
// alone on the last line. With --divide it first prints every root move
// with its subtree count.
func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("perft", "--variant V [--fen FEN] --depth D",
		"Print the number of leaf nodes of the legal move tree (a check of the rules engine).\nVariants: chess, chess960, crazyhouse, team-drop, xiangqi.", stderr)
	variant := fs.String("variant", "chess", "rule set: chess, chess960, crazyhouse, team-drop, xiangqi")
	fen := fs.String("fen", "", "start position (default: the variant's start position)")
	depth := fs.Int("depth", 0, "depth in plies (1 or more)")
	divide := fs.Bool("divide", false, "also print the count below each root move")
	timing := fs.Bool("time", false, "also print the time taken and nodes per second (on stderr)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("perft: unexpected argument %q", fs.Arg(0))}
	}
	if *depth < 1 {
		return cli.UsageError{Err: errors.New("perft: --depth must be 1 or more")}
	}
	pos, err := perft.NewPosition(*variant, *fen)
	if errors.Is(err, perft.ErrUnknownVariant) {
		return cli.UsageError{Err: err}
	}
	if err != nil {
		return err
	}
	start := time.Now()
	each := func(string, uint64) {}
	if *divide {
		each = func(m string, n uint64) { fmt.Fprintf(stdout, "%s: %d\n", m, n) }
	}
	n, err := perft.Divide(ctx, pos, *depth, each)
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
