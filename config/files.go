package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dgtbridge/dgtbridge/pairings"
	"github.com/spf13/viper"
)

// MaxTokenFileSize bounds lichess.token_file: a token is a few dozen
// characters.
const MaxTokenFileSize = 4 << 10

// pathKeys are the keys holding a file or folder; a relative path written
// in the configuration file is relative to that file's folder.
var pathKeys = []struct {
	key string
	get func(*Config) *string
}{
	{"data_dir", func(c *Config) *string { return &c.DataDir }},
	{"nats.creds", func(c *Config) *string { return &c.NATS.Creds }},
	{"nats.nkey", func(c *Config) *string { return &c.NATS.Nkey }},
	{"nats.embedded.tls.cert", func(c *Config) *string { return &c.NATS.Embedded.TLS.Cert }},
	{"nats.embedded.tls.key", func(c *Config) *string { return &c.NATS.Embedded.TLS.Key }},
	{"relay.speak", func(c *Config) *string { return &c.Relay.Speak }},
	{"event.pairings", func(c *Config) *string { return &c.Event.Pairings }},
	{"lichess.token_file", func(c *Config) *string { return &c.Lichess.TokenFile }},
}

// resolvePaths makes the relative paths that the file gives relative to
// the file's folder. A path from a default, the environment or the
// command line stays relative to the working directory, where the person
// typing it is. relay.speak "device" is not a path.
func (c *Config) resolvePaths(v *viper.Viper, overrides map[string]any) {
	if c.File == "" {
		return
	}
	dir := filepath.Dir(c.File)
	for _, pk := range pathKeys {
		p := pk.get(c)
		if *p == "" || filepath.IsAbs(*p) || (pk.key == "relay.speak" && *p == SpeakDevice) {
			continue
		}
		if _, ok := overrides[pk.key]; ok {
			continue
		}
		if _, ok := os.LookupEnv(envName(pk.key)); ok {
			continue
		}
		if !v.InConfig(pk.key) {
			continue
		}
		*p = filepath.Join(dir, *p)
	}
}

// envName is the environment variable of a key: DGTBRIDGE_NATS_URL.
func envName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// readFiles reads what the configuration points to: the pairing file
// (whose players fill the boards) and the Lichess token; and checks that
// espeak-ng is there when relay.speak asks for speech. It opens no port.
func (c *Config) readFiles() []error {
	var errs []error
	if c.Event.Pairings != "" {
		errs = append(errs, c.applyPairings()...)
	}
	if len(c.Lichess.Rounds) > 0 || c.Lichess.TokenFile != "" {
		if err := c.readToken(); err != nil {
			errs = append(errs, err)
		}
	}
	if c.Relay.Speak != SpeakOff && c.hasBlind() {
		if _, err := exec.LookPath("espeak-ng"); err != nil {
			errs = append(errs, keyErr("relay.speak", "%q needs espeak-ng, which is not installed (apt-get install espeak-ng), or set relay.speak: \"\"", c.Relay.Speak))
		}
	}
	return errs
}

func (c *Config) hasBlind() bool {
	for _, b := range c.Boards {
		if b.Blind != nil {
			return true
		}
	}
	return false
}

// applyPairings reads event.pairings and fills each board's players, FIDE
// ids and teams for its round, where the board does not give them. A
// board missing from the file is an error naming its round and board.
func (c *Config) applyPairings() []error {
	const key = "event.pairings"
	tb, err := pairings.ReadFile(c.Event.Pairings)
	if err != nil {
		return []error{keyErr(key, "%s", fileProblem(c.Event.Pairings, err))}
	}
	errs := c.followBlindPlayers(tb)
	for i := range c.Boards {
		b := &c.Boards[i]
		r := c.round(*b)
		if r < 1 || b.Board < 1 {
			continue // reported by Validate
		}
		p, ok := tb.Get(r, b.Board)
		if !ok {
			errs = append(errs, keyErr(key, "round %d board %d (boards[%d]) is not in %s (%s)", r, b.Board, i, c.Event.Pairings, tableSummary(tb)))
			continue
		}
		fill := func(dst *string, v string) {
			if *dst == "" {
				*dst = v
			}
		}
		fill(&b.White, p.White)
		fill(&b.Black, p.Black)
		fill(&b.WhiteFideID, p.WhiteFideID)
		fill(&b.BlackFideID, p.BlackFideID)
		fill(&b.WhiteTitle, p.WhiteTitle)
		fill(&b.BlackTitle, p.BlackTitle)
		fill(&b.WhiteTeam, p.WhiteTeam)
		fill(&b.BlackTeam, p.BlackTeam)
	}
	return errs
}

// tableSummary says what a pairing file holds, for an error about a board
// it lacks: "TRF-16, rounds 1–3, 4 boards in round 3".
func tableSummary(tb *pairings.Table) string {
	rounds := tb.Rounds()
	if len(rounds) == 0 {
		return tb.Format.String() + ", no games"
	}
	last := rounds[len(rounds)-1]
	span := fmt.Sprintf("round %d", last)
	if len(rounds) > 1 {
		span = fmt.Sprintf("rounds %d–%d", rounds[0], last)
	}
	return fmt.Sprintf("%s, %s, %d boards in round %d", tb.Format, span, len(tb.Round(last)), last)
}

// readToken reads lichess.token_file into Lichess.Token.
func (c *Config) readToken() error {
	const key = "lichess.token_file"
	if c.Lichess.TokenFile == "" {
		return keyErr(key, "lichess.rounds is set, so a file with a Lichess API token (scope study:write) is needed")
	}
	data, err := readFile(c.Lichess.TokenFile, MaxTokenFileSize, "a token")
	if err != nil {
		return keyErr(key, "%s", fileProblem(c.Lichess.TokenFile, err))
	}
	tok := strings.TrimSpace(string(data))
	switch {
	case tok == "":
		return keyErr(key, "%s is empty: put the Lichess API token (scope study:write) in it", c.Lichess.TokenFile)
	case strings.ContainsAny(tok, " \t\r\n"):
		return keyErr(key, "%s holds more than one word: it must hold the token alone", c.Lichess.TokenFile)
	}
	c.Lichess.Token = tok
	return nil
}

// fileProblem says what is wrong with a file the configuration names:
// "p.csv: no such file or directory", "p.csv: line 3: …".
func fileProblem(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return path + ": " + pe.Err.Error()
	}
	if strings.HasPrefix(err.Error(), path) {
		return err.Error()
	}
	return path + ": " + err.Error()
}
