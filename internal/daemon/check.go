package daemon

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/dgtbridge/dgtbridge/config"
)

// printCheck reports a valid configuration for "run --check": what the
// daemon would run (every board with its game and players, the Lichess
// rounds), then notes that do not make it invalid but deserve a look (a
// port not there now, a token file others can read, boards this build
// does not run yet). It opens nothing.
func PrintCheck(w io.Writer, cfg *config.Config) {
	where := "the built-in defaults (no configuration file found)"
	if cfg.File != "" {
		where = cfg.File
	}
	fmt.Fprintf(w, "configuration %s: valid\n", where)
	fmt.Fprintf(w, "  event %s %q, data in %s, NATS %s, HTTP %s\n", cfg.Event.ID, cfg.Event.Name, cfg.DataDir, natsWhere(cfg), orWord(cfg.HTTP.Listen, "off"))
	if cfg.Event.Pairings != "" {
		fmt.Fprintf(w, "  players from %s\n", cfg.Event.Pairings)
	}
	fmt.Fprintf(w, "  %d boards:\n", len(cfg.Boards))
	for _, b := range cfg.EffectiveBoards() {
		port := b.Port
		if b.BusAddress > 0 {
			port += fmt.Sprintf(" bus %d", b.BusAddress)
		}
		if b.Protocol == config.ProtocolManual {
			port = "(manual)"
		}
		fmt.Fprintf(w, "    %-8s %-16s %-22s %s – %s", boardID(b), cfg.GameID(b), port, orWord(b.White, "?"), orWord(b.Black, "?"))
		if b.WhiteTeam != "" || b.BlackTeam != "" {
			fmt.Fprintf(w, " (%s – %s)", orWord(b.WhiteTeam, "?"), orWord(b.BlackTeam, "?"))
		}
		fmt.Fprintf(w, "  %s %s %s\n", b.Variant, b.Ruleset, b.TimeControl)
	}
	if len(cfg.Lichess.Rounds) > 0 {
		rounds := make([]int, 0, len(cfg.Lichess.Rounds))
		for r := range cfg.Lichess.Rounds {
			rounds = append(rounds, r)
		}
		slices.Sort(rounds)
		var parts []string
		for _, r := range rounds {
			parts = append(parts, fmt.Sprintf("round %d → %s", r, cfg.Lichess.Rounds[r]))
		}
		fmt.Fprintf(w, "  Lichess push to %s: %s (token from %s)\n", cfg.Lichess.URL, strings.Join(parts, ", "), cfg.Lichess.TokenFile)
	}
	if notes := checkNotes(cfg); len(notes) > 0 {
		fmt.Fprintln(w, "notes:")
		for _, n := range notes {
			fmt.Fprintln(w, "  "+n)
		}
	}
}

// checkNotes lists what a valid configuration may still get wrong on this
// machine, each naming its key.
func checkNotes(cfg *config.Config) []string {
	var notes []string
	missing := map[string]bool{}
	for i, b := range cfg.Boards {
		key := fmt.Sprintf("boards[%d]", i)
		if b.Protocol != config.ProtocolManual && b.Port != config.AutoPort {
			if _, err := os.Stat(b.Port); err != nil && !missing[b.Port] {
				missing[b.Port] = true
				notes = append(notes, fmt.Sprintf("%s.port: %s is not there now (the daemon waits for it: plug the board in)", key, b.Port))
			}
		}
		if b.Blind != nil {
			if _, err := os.Stat(b.Blind.Port); err != nil {
				notes = append(notes, fmt.Sprintf("%s.blind.port: %s is not there now (the daemon waits for it)", key, b.Blind.Port))
			}
		}
	}
	notes = append(notes, cfg.SecretFileNotes()...)
	notes = append(notes, cfg.LichessNotes()...)
	if len(cfg.Boards) == 0 {
		notes = append(notes, "boards: none configured: run would refuse to start")
	}
	notes = append(notes, TeamDropNotes(cfg)...)
	if err := cfg.Unsupported(); err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			for _, p := range ce.Problems {
				notes = append(notes, p.Error()+"; run refuses it")
			}
		}
	}
	return notes
}

func natsWhere(cfg *config.Config) string {
	if cfg.NATS.URL != "" {
		return cfg.NATS.URL
	}
	return "embedded on " + cfg.NATS.Embedded.Listen
}

func orWord(s, w string) string {
	if s == "" {
		return w
	}
	return s
}
