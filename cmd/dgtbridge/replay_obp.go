package main

import (
	"flag"
	"fmt"

	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// replayVariant checks replay's --variant and returns the variant and the
// rule set the games are judged by: a xiangqi replay without --ruleset is
// judged by xiangqi-vn2004 (the default rule set is a chess one).
func replayVariant(fs *flag.FlagSet, variant string, rs ruleset.RuleSet) (string, ruleset.RuleSet, error) {
	if variant == "" {
		return rs.Variant, rs, nil
	}
	if variant != "xiangqi" {
		if _, err := chess.ParseVariant(variant); err != nil {
			return "", rs, cli.UsageError{Err: fmt.Errorf("replay: --variant %q: %w (want chess, chess960, team-drop or xiangqi)", variant, err)}
		}
		return variant, rs, nil
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "ruleset" })
	if !given {
		x, err := ruleset.Lookup(ruleset.XiangqiVN2004)
		if err != nil {
			return "", rs, err
		}
		rs = x
	}
	if rs.Variant != "xiangqi" {
		return "", rs, cli.UsageError{Err: fmt.Errorf("replay: --ruleset %s is for %s games, not xiangqi (want xiangqi-vn2004, -rapid or -blitz)", rs.Name, rs.Variant)}
	}
	return variant, rs, nil
}
