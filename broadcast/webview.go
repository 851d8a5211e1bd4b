package broadcast

import (
	"bufio"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
)

// The spectators' view of one game, built from the public (delayed) copy
// only: <p>.public.<g>.move, .correction, .clock, .end and .state. It is a
// pure value: the [Web] hub owns one per game and serialises it for the page.

// webPockets are a team-drop board's pockets (docs/contract.md §3.3: upper-case
// piece letters, "" when empty).
type webPockets struct {
	White string `json:"white"`
	Black string `json:"black"`
}

// webMoveEvent is a public MoveEvent with the fields other variants add
// (team-drop pockets and partner; the Vietnamese xiangqi notation is in
// MoveEvent already).
type webMoveEvent struct {
	game.MoveEvent
	Pockets *webPockets `json:"pockets,omitempty"`
	Partner string      `json:"partner,omitempty"`
}

// webGameState is a public GameState with the team-drop and xiangqi fields
// of contract §3.3.
type webGameState struct {
	game.GameState
	Pockets  *webPockets `json:"pockets,omitempty"`
	Partner  string      `json:"partner,omitempty"`
	Notation []string    `json:"notation,omitempty"`
}

// webLast is the last move shown.
type webLast struct {
	Ply      int    `json:"ply"`
	SAN      string `json:"san"`
	UCI      string `json:"uci"`
	Notation string `json:"notation,omitempty"`
}

// webClock is the clock as the page shows it: the reading, which side runs,
// and how long ago (server time) the reading became public, so the page
// ticks from there without trusting its own clock against the server's.
type webClock struct {
	WhiteMS int64  `json:"white_ms"`
	BlackMS int64  `json:"black_ms"`
	Running string `json:"running"`
	AgeMS   int64  `json:"age_ms"`
}

// webBoardJSON is one board of the snapshot and of each server-sent event.
type webBoardJSON struct {
	Game        string      `json:"game"`
	Round       int         `json:"round"`
	Board       int         `json:"board"`
	BoardID     string      `json:"board_id,omitempty"`
	White       string      `json:"white"`
	Black       string      `json:"black"`
	WhiteFideID string      `json:"white_fide_id,omitempty"`
	BlackFideID string      `json:"black_fide_id,omitempty"`
	WhiteTeam   string      `json:"white_team,omitempty"`
	BlackTeam   string      `json:"black_team,omitempty"`
	Variant     string      `json:"variant"`
	FEN         string      `json:"fen"`
	Ply         int         `json:"ply"`
	Revision    int         `json:"revision"`
	Last        *webLast    `json:"last"`
	Clock       *webClock   `json:"clock"`
	Result      string      `json:"result"`
	Termination string      `json:"termination,omitempty"`
	Provisional bool        `json:"provisional,omitempty"`
	Pockets     *webPockets `json:"pockets,omitempty"`
	Partner     string      `json:"partner,omitempty"`
	Status      string      `json:"status"`
}

// webPly is one ply of a game's move list.
type webPly struct {
	Ply      int         `json:"ply"`
	SAN      string      `json:"san"`
	UCI      string      `json:"uci"`
	FEN      string      `json:"fen"`
	Notation string      `json:"notation,omitempty"`
	Pockets  *webPockets `json:"pockets,omitempty"`
}

// webGame is the view of one game.
type webGame struct {
	id       game.ID
	boardID  string
	white    string
	black    string
	whiteID  string
	blackID  string
	whiteTm  string
	blackTm  string
	variant  string
	startFEN string
	partner  string

	fen      string
	revision int
	moves    []string // UCI, the public record
	san      []string
	notation []string
	// seen: the FEN, pockets and notation each ply had in its MoveEvent
	// (current revision), which the move list prefers to a replay.
	seen    map[int]webPly
	pockets *webPockets
	updated time.Time // GameState.UpdatedAt of the last state applied

	clock   *game.ClockPair
	running string
	clockAt time.Time // when the reading became public (server time)

	result      string
	termination string
	provisional bool

	// heard: a public message or state was applied (a game only
	// configured so far may be seeded from the public store).
	heard bool
}

// newWebGame is a configured board before any public message: its start
// position.
func newWebGame(b WebBoard) *webGame {
	v := b.Variant
	if v == "" {
		v = "chess"
	}
	g := &webGame{id: b.Game, boardID: b.BoardID, white: b.White, black: b.Black,
		whiteID: b.WhiteFideID, blackID: b.BlackFideID, whiteTm: b.WhiteTeam, blackTm: b.BlackTeam,
		variant: v, startFEN: b.StartFEN, seen: map[int]webPly{}}
	if g.startFEN == "" {
		g.startFEN = variantStartFEN(v)
	}
	if b.Partner > 0 {
		g.partner = game.ID{Event: b.Game.Event, Round: b.Game.Round, Board: b.Partner}.String()
	}
	g.fen = g.startFEN
	if v == "team-drop" {
		g.pockets = &webPockets{}
	}
	return g
}

// variantStartFEN is the start position of a variant ("" when the
// variant's start is not fixed, e.g. Chess960 without a configured FEN).
func variantStartFEN(variant string) string {
	switch variant {
	case "xiangqi":
		return xiangqi.StartFEN
	case "chess960":
		return ""
	}
	v, err := chess.ParseVariant(variant)
	if err != nil {
		return chess.Standard.StartFEN()
	}
	return v.StartFEN()
}

// turn returns "white" or "black" from a FEN's side-to-move field ("" when
// it has none).
func turn(fen string) string {
	f := strings.Fields(fen)
	if len(f) < 2 {
		return ""
	}
	switch f[1] {
	case "w", "r":
		return game.RunningWhite
	case "b":
		return game.RunningBlack
	}
	return ""
}

// truncate drops the record after ply n.
func (g *webGame) truncate(n int) {
	if n < len(g.moves) {
		g.moves = g.moves[:n]
	}
	if n < len(g.san) {
		g.san = g.san[:n]
	}
	if n < len(g.notation) {
		g.notation = g.notation[:n]
	}
	for p := range g.seen {
		if p > n {
			delete(g.seen, p)
		}
	}
}

// move applies a public MoveEvent; it reports whether the view changed (an
// event of an older revision, rewritten since, is ignored).
func (g *webGame) move(ev webMoveEvent, now time.Time) bool {
	if ev.Ply < 1 || ev.Revision < g.revision {
		return false
	}
	if ev.Revision > g.revision {
		g.seen = map[int]webPly{}
	}
	g.revision = ev.Revision
	g.truncate(ev.Ply - 1)
	for len(g.moves) < ev.Ply-1 { // a gap: the next state fills it
		g.moves = append(g.moves, "")
		g.san = append(g.san, "")
	}
	g.moves = append(g.moves, ev.UCI)
	g.san = append(g.san, ev.SAN)
	if ev.Notation != "" || len(g.notation) > 0 {
		for len(g.notation) < ev.Ply-1 {
			g.notation = append(g.notation, "")
		}
		g.notation = append(g.notation, ev.Notation)
	}
	g.fen = ev.FEN
	if ev.Pockets != nil {
		p := *ev.Pockets
		g.pockets = &p
	}
	if ev.Partner != "" {
		g.partner = ev.Partner
	}
	g.seen[ev.Ply] = webPly{Ply: ev.Ply, SAN: ev.SAN, UCI: ev.UCI, FEN: ev.FEN, Notation: ev.Notation, Pockets: ev.Pockets}
	if ev.Clock != nil {
		c := *ev.Clock
		g.clock, g.clockAt = &c, now
	}
	if g.result == "" || g.result == "*" {
		g.running = turn(ev.FEN)
	}
	return true
}

// correct applies a public Correction.
func (g *webGame) correct(c game.Correction) bool {
	if c.Revision < g.revision || c.Ply < 0 {
		return false
	}
	g.revision = c.Revision
	if len(c.Moves) == c.Ply {
		// The record's moves: keep the SAN of the plies that did not change.
		keep := 0
		for keep < len(c.Moves) && keep < len(g.moves) && g.moves[keep] == c.Moves[keep] {
			keep++
		}
		g.truncate(keep)
		g.moves = append(g.moves[:keep], c.Moves[keep:]...)
		for len(g.san) < len(g.moves) {
			g.san = append(g.san, "")
		}
	} else {
		g.truncate(c.Ply)
	}
	if c.FEN != "" {
		g.fen = c.FEN
	}
	if g.result == "" || g.result == "*" {
		g.running = turn(g.fen)
	}
	return true
}

// clockReading applies a public ClockEvent.
func (g *webGame) clockReading(c game.ClockEvent, now time.Time) bool {
	g.clock = &game.ClockPair{WhiteMS: c.WhiteMS, BlackMS: c.BlackMS}
	g.running, g.clockAt = c.Running, now
	return true
}

// end applies a public Result ("*" withdraws one).
func (g *webGame) end(r game.Result, now time.Time) bool {
	if r.Result == "*" {
		g.result, g.termination, g.provisional = "", "", false
		return true
	}
	g.result, g.termination, g.provisional = r.Result, r.Termination, r.Provisional
	g.stopClock(now)
	return true
}

// stopClock freezes the clock at what it shows now.
func (g *webGame) stopClock(now time.Time) {
	if g.clock != nil && g.running != "" && g.running != game.RunningNone {
		el := now.Sub(g.clockAt).Milliseconds()
		if g.running == game.RunningWhite {
			g.clock.WhiteMS = max(0, g.clock.WhiteMS-el)
		} else {
			g.clock.BlackMS = max(0, g.clock.BlackMS-el)
		}
		g.clockAt = now
	}
	g.running = game.RunningNone
}

// state applies a public GameState: the record, players and result as the
// daemon has them (it wins over what single messages built). A state older
// than one applied already is ignored.
func (g *webGame) state(st webGameState, now time.Time) bool {
	if st.Revision < g.revision || (!g.updated.IsZero() && st.UpdatedAt.Before(g.updated)) {
		return false
	}
	if st.Revision > g.revision {
		g.seen = map[int]webPly{}
	}
	g.revision = st.Revision
	g.updated = st.UpdatedAt.Time
	if st.White != "" || st.Black != "" {
		g.white, g.black = st.White, st.Black
	}
	if st.Variant != "" && st.Variant != g.variant {
		g.variant = st.Variant
		g.startFEN = variantStartFEN(st.Variant)
	}
	tags := pgnTags(st.PGN)
	if st.PGN == "" {
		// A game in progress: its state carries the tags as fields.
		tags = map[string]string{"WhiteFideId": st.WhiteFideID, "BlackFideId": st.BlackFideID,
			"WhiteTeam": st.WhiteTeam, "BlackTeam": st.BlackTeam, "FEN": st.StartFEN}
	}
	for k, dst := range map[string]*string{"WhiteFideId": &g.whiteID, "BlackFideId": &g.blackID, "WhiteTeam": &g.whiteTm, "BlackTeam": &g.blackTm} {
		if v, ok := tags[k]; ok && v != "" {
			*dst = v
		}
	}
	if fen := tags["FEN"]; fen != "" {
		g.startFEN = fen
	}
	keep := 0
	for keep < len(st.Moves) && keep < len(g.moves) && g.moves[keep] == st.Moves[keep] {
		keep++
	}
	g.truncate(keep)
	g.moves = append(g.moves[:keep], st.Moves[keep:]...)
	g.san = append([]string(nil), st.SAN...)
	for len(g.san) < len(g.moves) {
		g.san = append(g.san, "")
	}
	if len(st.Notation) > 0 {
		g.notation = append([]string(nil), st.Notation...)
	}
	if st.FEN != "" {
		g.fen = st.FEN
	}
	if st.Pockets != nil {
		p := *st.Pockets
		g.pockets = &p
	}
	if st.Partner != "" {
		g.partner = st.Partner
	}
	if g.clock == nil && st.Clock != nil {
		c := *st.Clock
		g.clock, g.clockAt = &c, now
		g.running = turn(g.fen)
	}
	switch st.Result {
	case "", "*":
		if g.result != "" {
			g.result, g.termination, g.provisional = "", "", false
			g.running = turn(g.fen)
		}
	default:
		if g.result != st.Result {
			g.result = st.Result
			g.provisional = st.Status == "provisional"
		}
		if g.running != game.RunningNone {
			g.stopClock(now)
		}
	}
	return true
}

// status is waiting, playing, provisional or ended.
func (g *webGame) status() string {
	switch {
	case g.result != "" && g.provisional:
		return "provisional"
	case g.result != "":
		return "ended"
	case len(g.moves) > 0:
		return "playing"
	}
	return "waiting"
}

// json renders the board for the page at server time now.
func (g *webGame) json(now time.Time) webBoardJSON {
	b := webBoardJSON{Game: g.id.String(), Round: g.id.Round, Board: g.id.Board, BoardID: g.boardID,
		White: g.white, Black: g.black, WhiteFideID: g.whiteID, BlackFideID: g.blackID,
		WhiteTeam: g.whiteTm, BlackTeam: g.blackTm, Variant: g.variant, FEN: g.fen,
		Ply: len(g.moves), Revision: g.revision, Result: g.result, Termination: g.termination,
		Provisional: g.provisional, Pockets: g.pockets, Partner: g.partner, Status: g.status()}
	if b.FEN == "" {
		b.FEN = g.startFEN
	}
	if n := len(g.moves); n > 0 {
		b.Last = &webLast{Ply: n, SAN: g.san[n-1], UCI: g.moves[n-1]}
		if n <= len(g.notation) {
			b.Last.Notation = g.notation[n-1]
		}
	}
	if g.clock != nil {
		run := g.running
		if run == "" {
			run = game.RunningNone
		}
		b.Clock = &webClock{WhiteMS: g.clock.WhiteMS, BlackMS: g.clock.BlackMS, Running: run,
			AgeMS: max(0, now.Sub(g.clockAt).Milliseconds())}
	}
	return b
}

// plies returns the move list with the position after each ply: the FEN of
// its MoveEvent where the view saw one, else replayed from the start
// position with the rules engine ("" where neither is possible, e.g. a
// team-drop drop whose piece came from the partner board before the view
// started).
func (g *webGame) plies() []webPly {
	out := make([]webPly, len(g.moves))
	var pos rules.Position
	if g.startFEN != "" {
		pos = newWebPosition(g.variant, g.startFEN)
	}
	for i, uci := range g.moves {
		p := webPly{Ply: i + 1, UCI: uci}
		if i < len(g.san) {
			p.SAN = g.san[i]
		}
		if i < len(g.notation) {
			p.Notation = g.notation[i]
		}
		if pos != nil {
			pos = playUCI(pos, uci)
		}
		if s, ok := g.seen[i+1]; ok && s.UCI == uci {
			p.FEN, p.Pockets = s.FEN, s.Pockets
			if pos == nil || pos.FEN() != s.FEN {
				pos = newWebPosition(g.variant, s.FEN)
			}
		} else if pos != nil {
			p.FEN = pos.FEN()
		}
		if i == len(g.moves)-1 && g.fen != "" {
			p.FEN = g.fen
		}
		out[i] = p
	}
	return out
}

// newWebPosition parses fen in the variant's dialect (nil when it does not
// parse).
func newWebPosition(variant, fen string) rules.Position {
	if variant == "xiangqi" {
		p, err := xiangqi.NewPosition(fen)
		if err != nil {
			return nil
		}
		return p
	}
	v, err := chess.ParseVariant(variant)
	if err != nil {
		v = chess.Standard
	}
	p, err := chess.NewPosition(v, fen)
	if err != nil {
		return nil
	}
	return p
}

// playUCI plays a recorded move, also one that broke the rules but stands
// (rapid and blitz); nil when it cannot be played at all.
func playUCI(pos rules.Position, uci string) rules.Position {
	m, err := pos.ParseMove(uci)
	if err != nil {
		return nil
	}
	next, err := pos.Play(m)
	if err != nil {
		if next, err = pos.PlayIllegal(m); err != nil {
			return nil
		}
	}
	return next
}

// pgnTags reads the tag pairs at the head of a PGN game.
func pgnTags(pgn string) map[string]string {
	tags := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(pgn))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			if len(tags) > 0 {
				break
			}
			continue
		}
		if !strings.HasPrefix(line, "[") || !strings.HasSuffix(line, "]") {
			break
		}
		name, val, ok := strings.Cut(line[1:len(line)-1], " ")
		if !ok {
			continue
		}
		if v, err := strconv.Unquote(strings.TrimSpace(val)); err == nil {
			tags[name] = v
		}
	}
	return tags
}

// decodeWeb unmarshals a public payload; a payload that does not decode is
// dropped (and logged by the caller).
func decodeWeb(data []byte, v any) error { return json.Unmarshal(data, v) }
