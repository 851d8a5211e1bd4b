package config

import (
	"fmt"
	"regexp"
	"strings"
)

// LiveChess serves the LiveChess-compatible local API (docs/livechess.md;
// the livechess package): programs written for DGT LiveChess, Lichess's
// DGT page among them, read the hall's boards.
type LiveChess struct {
	// Listen is host:port; "" (the default) or "off" serves nothing, "on"
	// is [DefaultLiveChessListen], where LiveChess itself listens.
	Listen string `mapstructure:"listen" json:"listen"`
	// FirstBoard is the board id (r<round>-b<board>) listed first: clients
	// that take the first board (Lichess's page) then take it. "": boards
	// by round and board number.
	FirstBoard string `mapstructure:"first_board" json:"first_board"`
	// Origins are more sites ("club.example.org", "*.example.org") whose
	// pages may open the API from a browser, beside lichess.org and pages
	// of this machine.
	Origins []string `mapstructure:"origins" json:"origins"`
	// AllowRemote serves clients on other machines. Off (the default), a
	// listener on a non-loopback address is refused and only clients of
	// this machine are served: the API has no authentication.
	AllowRemote bool `mapstructure:"allow_remote" json:"allow_remote"`
}

// DefaultLiveChessListen is where livechess.listen "on" listens: LiveChess's
// own port, where its clients look.
const DefaultLiveChessListen = "127.0.0.1:1982"

// Addr returns the address to listen on, "" when the API is off.
func (l LiveChess) Addr() string {
	switch strings.TrimSpace(l.Listen) {
	case "", "off":
		return ""
	case "on":
		return DefaultLiveChessListen
	}
	return l.Listen
}

var (
	boardIDRE = regexp.MustCompile(`^r[1-9][0-9]*-b[1-9][0-9]*$`)
	originRE  = regexp.MustCompile(`^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)
)

// validateLiveChess checks the livechess keys.
func (c *Config) validateLiveChess() []error {
	var errs []error
	l := c.LiveChess
	if addr := l.Addr(); addr != "" {
		if err := checkHostPort("livechess.listen", addr); err != nil {
			errs = append(errs, err)
		} else if !l.AllowRemote && !loopback(addr) {
			errs = append(errs, keyErr("livechess.listen", "%q is not a loopback address: the API has no authentication; listen on %s, or set livechess.allow_remote to serve other machines", addr, DefaultLiveChessListen))
		}
	}
	if f := l.FirstBoard; f != "" {
		if !boardIDRE.MatchString(f) {
			errs = append(errs, keyErr("livechess.first_board", "%q is not a board id (r<round>-b<board>, e.g. r1-b1)", f))
		} else if len(c.Boards) > 0 && !c.hasBoardID(f) {
			errs = append(errs, keyErr("livechess.first_board", "%q is none of the boards of the configuration", f))
		}
	}
	for i, o := range l.Origins {
		if !originRE.MatchString(o) {
			errs = append(errs, keyErr(fmt.Sprintf("livechess.origins[%d]", i), "%q is not a host name or *.domain (no scheme, port or path: e.g. club.example.org)", o))
		}
	}
	return errs
}

// hasBoardID reports whether a configured board has the id r<round>-b<board>.
func (c *Config) hasBoardID(id string) bool {
	for _, b := range c.Boards {
		if fmt.Sprintf("r%d-b%d", c.round(b), b.Board) == id {
			return true
		}
	}
	return false
}
