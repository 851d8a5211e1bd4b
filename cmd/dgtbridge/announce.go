package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/rules/announce"
)

// runAnnounce implements "dgtbridge announce --lang L [--variant V] [--fen
// FEN] MOVE" (docs/contract.md §1, §3.5): it prints the blind-player
// announcement of one move (UCI or SAN) in that position. With --clock
// instead of MOVE it prints the talking-clock announcement (D.2.6.1).
func runAnnounce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const synopsis = "--lang L [--variant V] [--fen FEN] [--style long|short] MOVE\n       dgtbridge announce --lang L --clock WHITE/BLACK [--moves N]"
	fs := cli.NewFlags("announce", synopsis,
		"Print the blind-player announcement (FIDE Laws Appendix D) of one move, written in UCI or SAN,\n"+
			"in the given position; or, with --clock, the talking-clock announcement of the times and move count.", stderr)
	lang := fs.String("lang", "en", "language: en, de (FIDE D.2.1 wording) or vi")
	variant := fs.String("variant", "chess", "variant: chess, chess960, crazyhouse, team-drop, xiangqi")
	fen := fs.String("fen", "", "position before the move (default: the variant's start position)")
	style := fs.String("style", "long", "long (piece, from and to squares) or short (SAN-like)")
	noCheck := fs.Bool("no-check", false, "leave out check and checkmate")
	clock := fs.String("clock", "", "announce the clock instead of a move: WHITE/BLACK remaining times, e.g. 1h25m30s/58m2s")
	moves := fs.Int("moves", 0, "with --clock: the number of moves completed")
	speak := fs.String("speak", "", `also speak it with espeak-ng: "device", or a folder for announce.wav`)

	// Flags may follow MOVE.
	pos, err := cli.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}

	l, err := announce.ParseLang(*lang)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	var text string
	switch {
	case *clock != "":
		if len(pos) > 0 {
			return cli.UsageError{Err: fmt.Errorf("announce: give either MOVE or --clock, not both")}
		}
		text, err = announce.ClockText(*clock, *moves, l)
	case len(pos) == 1:
		text, err = announce.MoveText(pos[0], *variant, *fen, *style, *noCheck, l)
	case len(pos) == 0:
		return cli.UsageError{Err: errors.New("announce: give the MOVE to announce (UCI or SAN), e.g. dgtbridge announce --lang de Nf3")}
	default:
		return cli.UsageError{Err: fmt.Errorf("announce: one MOVE only, got %q", strings.Join(pos, " "))}
	}
	var re *announce.RequestError
	if errors.As(err, &re) {
		return cli.UsageError{Err: err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, text)
	sp, err := announce.NewSpeaker(*speak) // nil without --speak: Speak does nothing
	if err != nil {
		return err
	}
	path, err := sp.Speak(ctx, l, text, "announce")
	if path != "" {
		fmt.Fprintln(stderr, "wrote", path)
	}
	return err
}
