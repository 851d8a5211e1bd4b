package config

import (
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dgtbridge/dgtbridge/rules/clock"
)

// maxBusAddress is the largest DGT bus address (14 bits;
// docs/dgt-boards.md, "The protocol in brief").
const maxBusAddress = 16383

// Validate checks every value and returns nil, a *KeyError, or several
// joined with errors.Join. [Load] calls it; call it again after changing a
// Config by hand.
func (c *Config) Validate() error {
	var errs []error
	add := func(e *KeyError) {
		if e != nil {
			errs = append(errs, e)
		}
	}

	if c.DataDir == "" {
		add(keyErr("data_dir", "must not be empty"))
	}
	add(checkToken("nats.prefix", c.NATS.Prefix))
	if r := c.NATS.Replicas; r < 1 || r > 5 {
		add(&KeyError{Key: "nats.replicas", Err: fmt.Errorf("%d: want 1 to 5 (3 on a three-node cluster)", r)})
	}
	if u := c.NATS.WebsocketURL; u != "" && strings.Contains(u, "://") && !strings.HasPrefix(u, "ws://") && !strings.HasPrefix(u, "wss://") {
		add(keyErr("nats.websocket_url", "%q: want ws://…, wss://… or a path relative to the web page", u))
	}
	if c.NATS.Creds != "" && c.NATS.URL == "" {
		add(keyErr("nats.creds", "is only used with nats.url (the embedded server takes nats.embedded.users)"))
	}
	if c.NATS.Nkey != "" && c.NATS.URL == "" {
		add(keyErr("nats.nkey", "is only used with nats.url (the embedded server takes nats.embedded.users)"))
	}
	if c.NATS.Nkey != "" && c.NATS.Creds != "" {
		add(keyErr("nats.nkey", "and nats.creds are two ways to sign in: set one"))
	}
	if c.NATS.URL == "" {
		errs = append(errs, c.validateEmbedded()...)
	}
	if c.HTTP.Listen != "" {
		add(checkHostPort("http.listen", c.HTTP.Listen))
	}
	add(c.HTTP.checkAdmin())
	add(checkSpeak(c.Relay.Speak))
	add(oneOf("penalties", string(c.Penalties), string(PenaltiesAlert), string(PenaltiesAuto)))
	errs = append(errs, c.validateLichess()...)
	errs = append(errs, c.validateLiveChess()...)

	add(checkToken("event.id", c.Event.ID))
	add(checkName("event.name", c.Event.Name))
	add(checkName("event.site", c.Event.Site))
	if c.Event.Round < 0 {
		add(keyErr("event.round", "must not be negative (0: every board gives its round)"))
	}
	add(oneOf("event.ruleset", c.Event.Ruleset, RulesetNames()...))
	add(checkTC("event.time_control", c.Event.TimeControl))
	if c.Event.PublicDelay < 0 {
		add(keyErr("event.public_delay", "must not be negative"))
	}
	errs = append(errs, checkRules("event.rules", c.Event.Ruleset, c.Event.Rules, nil)...)
	errs = append(errs, c.Storage.validate()...)
	errs = append(errs, c.Tracker.validate()...)
	errs = append(errs, c.Daemon.validate()...)

	errs = append(errs, c.validateBoards()...)
	return errors.Join(errs...)
}

func (c *Config) validateEmbedded() []error {
	var errs []error
	e := c.NATS.Embedded
	tls := e.TLS.Cert != "" || e.TLS.Key != ""
	if tls && (e.TLS.Cert == "" || e.TLS.Key == "") {
		errs = append(errs, keyErr("nats.embedded.tls", "needs both cert and key (PEM files)"))
	}
	exposed := func(key, addr string) {
		switch {
		case loopback(addr):
		case len(e.Users) == 0:
			errs = append(errs, keyErr(key, "%q is not a loopback address, and nats.embedded.users is empty (no authentication): add users or listen on 127.0.0.1", addr))
		case !tls && !e.Insecure:
			errs = append(errs, keyErr(key, "%q is not a loopback address and nats.embedded.tls is not set: passwords and live games would cross the network in clear (set nats.embedded.tls, or nats.embedded.insecure: true to accept that)", addr))
		}
	}
	if err := checkHostPort("nats.embedded.listen", e.Listen); err != nil {
		errs = append(errs, err)
	} else {
		exposed("nats.embedded.listen", e.Listen)
	}
	if e.WebSocket != "" {
		if err := checkHostPort("nats.embedded.websocket", e.WebSocket); err != nil {
			errs = append(errs, err)
		} else {
			exposed("nats.embedded.websocket", e.WebSocket)
		}
	}
	seen := map[string]bool{}
	for i, u := range e.Users {
		p := fmt.Sprintf("nats.embedded.users[%d]", i)
		switch {
		case u.User == "":
			errs = append(errs, keyErr(p+".user", "must not be empty"))
		case seen[u.User]:
			errs = append(errs, keyErr(p+".user", "%q is listed twice", u.User))
		}
		seen[u.User] = true
		if u.Password == "" {
			errs = append(errs, keyErr(p+".password", "must not be empty"))
		}
		if err := oneOf(p+".role", string(u.Role), string(RoleOrganiser), string(RoleArbiter), string(RolePublic), string(RoleRelay)); err != nil {
			errs = append(errs, err)
		}
		switch {
		case u.Role == RoleRelay && u.Board < 1:
			errs = append(errs, keyErr(p+".board", "%d: a relay user needs the number of its board (1 or more)", u.Board))
		case u.Role != RoleRelay && u.Board != 0:
			errs = append(errs, keyErr(p+".board", "is only for role relay"))
		}
	}
	return errs
}

type portKey struct {
	port string
	bus  int
}

type gameKey struct{ round, board int }

func (c *Config) validateBoards() []error {
	v := &boardsCheck{c: c, ports: map[portKey]string{}, games: map[gameKey]int{}}
	for i, b := range c.Boards {
		v.board(i, b)
	}
	for i, b := range c.Boards {
		v.partner(i, b)
	}
	v.spares()
	return v.errs
}

// spares checks the spares: an id that is a subject token and no board's
// ("r<round>-b<board>"), used once, and a device path of their own.
func (v *boardsCheck) spares() {
	ids := map[string]string{}
	for i, b := range v.c.Boards {
		ids[fmt.Sprintf("r%d-b%d", v.c.round(b), b.Board)] = fmt.Sprintf("boards[%d]", i)
	}
	auto := ""
	for i, b := range v.c.Boards {
		if b.Port == AutoPort && auto == "" {
			auto = fmt.Sprintf("boards[%d]", i)
		}
	}
	for i, s := range v.c.Spares {
		p := fmt.Sprintf("spares[%d]", i)
		if auto != "" {
			// A board on auto takes the first DGT board it finds on a
			// port not open now: an idle spare's.
			v.add(keyErr(p, "%s is on port auto, which could take this spare's board: give that board its device path", auto))
		}
		switch other, dup := ids[s.ID]; {
		case checkToken(p+".id", s.ID) != nil:
			v.add(checkToken(p+".id", s.ID))
		case dup:
			v.add(keyErr(p+".id", "%q is already the id of %s", s.ID, other))
		default:
			ids[s.ID] = p
		}
		if s.Port == AutoPort {
			v.add(keyErr(p+".port", "a spare needs its device path, not auto"))
			continue
		}
		v.usePort(p, s.Port, 0)
	}
}

// boardsCheck gathers the errors of the boards section and what its
// checks share: the ports (and bus addresses) in use and the games seen.
type boardsCheck struct {
	c     *Config
	errs  []error
	ports map[portKey]string
	games map[gameKey]int
}

func (v *boardsCheck) add(e *KeyError) {
	if e != nil {
		v.errs = append(v.errs, e)
	}
}

// usePort checks a port and bus address under key prefix p and claims
// them: two boards never share one.
func (v *boardsCheck) usePort(p, port string, bus int) {
	if port == "" {
		v.add(keyErr(p+".port", "must not be empty (a device path, or \"auto\")"))
		return
	}
	if bus < 0 || bus > maxBusAddress {
		v.add(keyErr(p+".bus_address", "%d is not between 0 and %d", bus, maxBusAddress))
	}
	if port == AutoPort {
		if bus > 0 {
			v.add(keyErr(p+".port", "a board on a DGT bus line (bus_address %d) needs the line's device path, not auto", bus))
		}
		return
	}
	k := portKey{port, bus}
	if other, dup := v.ports[k]; dup {
		v.add(keyErr(p+".port", "%s (bus address %d) is already used by %s", port, bus, other))
		return
	}
	v.ports[k] = p
}

// board checks boards[i]: its input, its game's identity and players, its
// rules and its blind player's board.
func (v *boardsCheck) board(i int, b Board) {
	p := fmt.Sprintf("boards[%d]", i)
	proto := b.Protocol
	if proto == "" {
		proto = ProtocolDGT
	}
	if err := oneOf(p+".protocol", proto, ProtocolNames()...); err != nil {
		v.add(err)
	} else if proto == ProtocolManual {
		if b.Port != "" {
			v.add(keyErr(p+".port", "a manual board has no port (its moves are entered on <prefix>.input.<game>.move); remove the port or set the protocol"))
		}
		if b.Blind != nil {
			v.add(keyErr(p+".blind", "a manual board cannot relay to a blind player's board"))
		}
	} else {
		v.usePort(p, b.Port, b.BusAddress)
	}
	round := v.c.round(b)
	if round < 1 {
		if b.Round == 0 && v.c.Event.Round == 0 {
			v.add(keyErr(p+".round", "missing: give the board's round, or event.round for every board"))
		} else {
			v.add(keyErr(p+".round", "must be 1 or more, got %d", round))
		}
	}
	if b.Board < 1 {
		v.add(keyErr(p+".board", "must be 1 or more, got %d", b.Board))
	}
	if j, dup := v.games[gameKey{round, b.Board}]; dup && round >= 1 && b.Board >= 1 {
		v.add(keyErr(p+".board", "round %d board %d is already boards[%d]", round, b.Board, j))
	}
	v.games[gameKey{round, b.Board}] = i
	v.add(checkFideID(p+".white_fide_id", b.WhiteFideID))
	v.add(checkFideID(p+".black_fide_id", b.BlackFideID))
	v.add(checkTitle(p+".white_title", b.WhiteTitle))
	v.add(checkTitle(p+".black_title", b.BlackTitle))
	for _, n := range []struct{ key, v string }{{"white", b.White}, {"black", b.Black}, {"white_team", b.WhiteTeam}, {"black_team", b.BlackTeam}} {
		v.add(checkName(p+"."+n.key, n.v))
	}
	v.rules(p, b)
	if b.Blind != nil {
		bp := p + ".blind"
		if b.Blind.Player == "" {
			v.add(oneOf(bp+".side", b.Blind.Side, "white", "black"))
		} else if v.c.Event.Pairings == "" {
			v.add(keyErr(bp+".player", "the blind player is found in the pairing file: set event.pairings (or give blind.side and the board's number instead)"))
		}
		v.add(oneOf(bp+".lang", b.Blind.Lang, Languages()...))
		v.usePort(bp, b.Blind.Port, b.Blind.BusAddress)
		if b.Blind.BusAddress > 0 {
			v.add(keyErr(bp+".bus_address", "the blind player's board must be alone on its port (bus_address: 0): it is written to, which a bus line does not allow"))
		}
	}
}

// rules checks the board's variant, rule set, time control, start
// position and rule settings (under key prefix p), as they apply to it
// with the event's defaults.
func (v *boardsCheck) rules(p string, b Board) {
	eff := v.c.Effective(b)
	if err := oneOf(p+".variant", eff.Variant, VariantNames()...); err != nil {
		v.add(err)
	} else if b.Ruleset != "" {
		if err := oneOf(p+".ruleset", b.Ruleset, RulesetNames()...); err != nil {
			v.add(err)
		} else {
			v.add(checkFit(p+".ruleset", eff))
		}
	} else {
		v.add(checkFit(p+".variant", eff))
	}
	if b.TimeControl != "" {
		v.add(checkTC(p+".time_control", b.TimeControl))
	}
	if (b.Protocol == "" || b.Protocol == ProtocolDGT) && eff.Variant == VariantXiangqi {
		v.add(keyErr(p+".protocol", "a DGT board has 8×8 squares and cannot read a xiangqi game: set protocol obp (an Open Board Protocol board) or manual (moves entered by hand)"))
	}
	v.add(checkFEN(p+".fen", b.FEN, eff.Variant))
	if len(b.Rules) > 0 {
		// The event's keys were checked above; name only the board's.
		v.errs = append(v.errs, checkRules(p+".rules", eff.Ruleset, eff.Rules, b.Rules)...)
	}
}

// partner checks that a team-drop board (boards[i]) names a partner game
// of the same round that is a team-drop game naming it back.
func (v *boardsCheck) partner(i int, b Board) {
	if v.c.Effective(b).Variant != VariantTeamDrop {
		return
	}
	p := fmt.Sprintf("boards[%d].partner", i)
	if b.Partner == 0 {
		v.add(keyErr(p, "a team-drop board needs the board number of its partner game"))
		return
	}
	if b.Partner == b.Board {
		v.add(keyErr(p, "board %d cannot be its own partner", b.Board))
		return
	}
	round := v.c.round(b)
	j, ok := v.games[gameKey{round, b.Partner}]
	if !ok {
		v.add(keyErr(p, "round %d has no board %d", round, b.Partner))
		return
	}
	q := v.c.Boards[j]
	if v.c.Effective(q).Variant != VariantTeamDrop {
		v.add(keyErr(p, "board %d of round %d is not a team-drop game", b.Partner, round))
	} else if q.Partner != 0 && q.Partner != b.Board {
		v.add(keyErr(p, "board %d names board %d as its partner, not %d", b.Partner, q.Partner, b.Board))
	}
}

// checkFit reports a rule set that cannot judge the variant.
func checkFit(key string, b Board) *KeyError {
	vs, ok := rulesetVariants[b.Ruleset]
	if !ok || slices.Contains(vs, b.Variant) {
		return nil
	}
	return keyErr(key, "rule set %s does not apply to variant %s (it applies to %s); set the board's ruleset", b.Ruleset, b.Variant, strings.Join(vs, ", "))
}

func oneOf(key, v string, allowed ...string) *KeyError {
	if slices.Contains(allowed, v) {
		return nil
	}
	return keyErr(key, "%q is not one of %s", v, strings.Join(allowed, ", "))
}

// checkToken checks a NATS subject token of our own: [a-z0-9_-]+.
func checkToken(key, v string) *KeyError {
	if v == "" {
		return keyErr(key, "must not be empty ([a-z0-9_-]+)")
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return keyErr(key, "%q may hold only a-z, 0-9, _ and - (it is a NATS subject token)", v)
		}
	}
	return nil
}

// checkTC checks a PGN TimeControl with the parser the clock model uses
// (rules/clock), so that what loads also runs.
func checkTC(key, v string) *KeyError {
	if _, err := clock.ParseTimeControl(v); err != nil {
		return keyErr(key, "%v (PGN TimeControl, e.g. 5400+30 or 40/7200:1800+30)", err)
	}
	return nil
}

func checkHostPort(key, v string) *KeyError {
	_, port, err := net.SplitHostPort(v)
	if err != nil {
		return keyErr(key, "%q is not host:port", v)
	}
	if !digits(port) {
		return keyErr(key, "%q: the port must be a number", v)
	}
	return nil
}

// checkAdmin checks http.admin_listen: a loopback host:port (it serves
// the live hall without sign-in), not the public listener's.
func (h HTTP) checkAdmin() *KeyError {
	const key = "http.admin_listen"
	a := h.AdminListen
	if a == "" {
		return nil
	}
	if err := checkHostPort(key, a); err != nil {
		return err
	}
	if !loopback(a) {
		return keyErr(key, "%q is not a loopback address: the admin listener shows the live games without sign-in, so it listens on 127.0.0.1 (or ::1) only; "+
			"from elsewhere, read /healthz?detail and /metrics on http.listen with an organiser's or arbiter's credentials", a)
	}
	if _, port, _ := net.SplitHostPort(a); port != "0" && a == h.Listen {
		return keyErr(key, "%q is also http.listen: give the admin listener its own port", a)
	}
	return nil
}

// loopback reports whether host:port listens on loopback only.
func loopback(hostport string) bool {
	host, _, _ := net.SplitHostPort(hostport)
	return loopbackHost(host)
}

// loopbackHost reports whether host is localhost or a loopback address.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func checkSpeak(v string) *KeyError {
	if v == SpeakOff || v == SpeakDevice {
		return nil
	}
	st, err := os.Stat(v)
	if err == nil && !st.IsDir() {
		return keyErr("relay.speak", "%q is a file; use \"\", \"device\" or a folder for WAV files", v)
	}
	return nil
}

// checkTitle checks a FIDE title: GM, IM, FM, CM, WGM, WIM, WFM or WCM
// (as written, upper case), or none.
func checkTitle(key, v string) *KeyError {
	switch v {
	case "", "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM":
		return nil
	}
	return keyErr(key, "%q is not a FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM)", v)
}

func checkFideID(key, v string) *KeyError {
	if v != "" && !digits(v) {
		return keyErr(key, "%q is not a FIDE id (digits only)", v)
	}
	return nil
}

// checkFEN checks the shape of a start position: the placement field has
// one rank per board rank (8, or 10 for xiangqi). The rules engine checks
// the rest when the game starts.
func checkFEN(key, fen, variant string) *KeyError {
	if fen == "" {
		return nil
	}
	fields := strings.Fields(fen)
	ranks := 8
	if variant == VariantXiangqi {
		ranks = 10
	}
	if len(fields) == 0 || strings.Count(fields[0], "/")+1 < ranks {
		return keyErr(key, "%q is not a FEN: the placement needs %d ranks separated by /", fen, ranks)
	}
	return nil
}

// maxName bounds names (players, teams, event, site): they travel in
// every game state and PGN, and a runaway value (a pasted file) must not
// make messages the NATS server refuses.
const maxName = 200

// checkName checks a name's length and encoding.
func checkName(key, v string) *KeyError {
	switch {
	case len(v) > maxName:
		return keyErr(key, "is %d bytes long; at most %d", len(v), maxName)
	case !utf8.ValidString(v):
		return keyErr(key, "is not valid UTF-8")
	case strings.ContainsAny(v, "\n\r"):
		return keyErr(key, "must be one line")
	}
	return nil
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// validate checks the tracker keys.
func (t Tracker) validate() []error {
	var errs []error
	if g := t.PressGrace; g != 0 && (g < 100*time.Millisecond || g > 5*time.Second) {
		errs = append(errs, keyErr("tracker.press_grace", "%v: want 0 (two scan periods) or 100ms to 5s (a press waits this long for its move)", g))
	}
	if h := t.HandHold; h < 2*time.Second || h > 2*time.Minute {
		errs = append(errs, keyErr("tracker.hand_hold", "%v: want 2s to 2m (pieces off the board this long are reported)", h))
	}
	if l := t.LostAfter; l < 3*time.Second || l > 10*time.Minute {
		errs = append(errs, keyErr("tracker.lost_after", "%v: want 3s to 10m (a board nothing explains this long is a lost record)", l))
	}
	return errs
}

// validate checks the storage keys against what makes sense for a hall.
func (s Storage) validate() []error {
	var errs []error
	within := func(key string, d, lo, hi time.Duration, why string) {
		if d < lo || d > hi {
			errs = append(errs, keyErr(key, "%v: want %v to %v (%s)", d, lo, hi, why))
		}
	}
	within("storage.commit_window", s.CommitWindow, 0, time.Second, "a move waits this long before it is published")
	within("storage.compact_every", s.CompactEvery, 10*time.Second, time.Hour,
		"a restart sends this much again; the streams drop repeats within 6 h")
	within("storage.drain_timeout", s.DrainTimeout, time.Second, 10*time.Minute, "keep it below the service manager's stop timeout")
	within("storage.history_wait", s.HistoryWait, 0, 10*time.Minute, "a damaged game's board waits this long to start")
	if m := s.CompactMiB; m < 1 || m > 4096 {
		errs = append(errs, keyErr("storage.compact_mib", "%d: want 1 to 4096 (MiB of journal between compactions)", m))
	}
	return errs
}
