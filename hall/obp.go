package hall

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/obp"
	obplink "github.com/dgtbridge/dgtbridge/obp/link"
	"github.com/dgtbridge/dgtbridge/obp/obpfeed"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// Boards that speak the Open Board Protocol (docs/open-board-protocol.md):
// xiangqi (9×10) and chess (8×8) boards on the same transport as DGT
// boards. One goroutine owns the port (obp/link: identify, watchdog,
// reconnect, a bad line answered by asking for the whole board), every
// byte is recorded in the hexlog format, and the lines reach the tracker
// through obp/obpfeed as protocol-free sensor reports. A fault the board
// reports about itself (an E line) goes to the arbiter, never acted on; a
// piece a board that senses only occupancy cannot name goes to the arbiter
// with the command that names it ({"cmd":"identify","square":…,"piece":…}).

// errNoClockCommands: the board's clock takes no commands (OBP/1 has none;
// a manual board has no clock).
var errNoClockCommands = errors.New("this board's clock takes no commands (OBP/1 defines none, a manual board has no clock)")

// faultRepeat is how long the same fault code of a board is not reported
// again (a board may repeat a fault line every second).
const faultRepeat = 10 * time.Minute

// checkProtocol checks what a board's protocol needs.
func checkProtocol(b Board) error {
	switch b.Protocol {
	case ProtocolDGT, ProtocolOBP:
		if b.Open == nil {
			return fmt.Errorf("%w: board %s: no Opener", ErrOptions, b.ID)
		}
	case ProtocolManual:
	default:
		return fmt.Errorf("%w: board %s: protocol %d", ErrOptions, b.ID, b.Protocol)
	}
	if b.Protocol == ProtocolDGT && b.Session.RuleSet.Variant == "xiangqi" {
		return fmt.Errorf("%w: board %s: a DGT board (8×8) cannot read a xiangqi game: an OBP or manual board can", ErrOptions, b.ID)
	}
	if b.Protocol != ProtocolDGT && (b.BusAddress > 0 || b.Blind != nil || b.Session.Blind != nil) {
		return fmt.Errorf("%w: board %s: a DGT bus address and a blind player's relay need a DGT board", ErrOptions, b.ID)
	}
	return nil
}

// obpState is what the board goroutine keeps about its OBP board.
type obpState struct {
	lk    *obplink.Link
	feed  *obpfeed.Translator
	ident obp.Ident
	// ignored: the board connected has another size than the game's; its
	// lines are not read until another board connects.
	ignored bool
	// tb maps board timestamps to wall time in this connection.
	tb     obp.Timebase
	faults map[string]time.Time // fault code → last reported
	buf    []game.Sensed
	// unnamed are the points of an occupancy board's whole board that
	// the translator could not name: the read is held back from the
	// tracker (a piece missing from it would be read as moves) until the
	// arbiter names them (identify) or the board is read whole again.
	unnamed map[rules.Square]bool
	// slides finds pieces slid across points (Art. 9.7; obp_slide.go).
	slides *session.SlideWatch
}

// serveOBP owns the board's OBP line until ctx is done.
func (br *boardRun) serveOBP(ctx context.Context) error {
	open := br.b.Open
	if br.h.o.Record {
		open = recordingOpener(open, br.h.o.DataDir, br.b.ID, br.h.o.Now, br.log)
	}
	lo := br.b.OBP
	if lo.Logger == nil {
		lo.Logger = br.log
	}
	st := &obpState{lk: obplink.New(port.Opener(open), lo), faults: map[string]time.Time{}}
	br.obp = st
	var lw sync.WaitGroup
	lw.Go(func() { st.lk.Run(ctx) })
	defer lw.Wait()
	tick := time.NewTicker(br.h.o.Tick)
	defer tick.Stop()
	for {
		select {
		case ev, ok := <-st.lk.Events():
			if !ok {
				br.clockDue(time.Now(), true)
				br.persistOnly()
				return nil
			}
			br.obpEvent(ev)
		case <-tick.C:
			now := br.h.o.Now()
			// Lines already queued were read before now: they go first
			// (as serveLink does), so a tick never stamps time ahead of
			// them.
			for n := len(st.lk.Events()); n > 0; n-- {
				ev, ok := <-st.lk.Events()
				if !ok {
					break
				}
				br.obpEvent(ev)
			}
			br.apply(br.s.Tick(br.mono(now)))
			br.clockDue(time.Now(), false)
		case c := <-br.cmds:
			c.to.command(c)
		}
	}
}

// obpEvent handles one event of the OBP link.
func (br *boardRun) obpEvent(ev obplink.Event) {
	st := br.obp
	switch e := ev.(type) {
	case obplink.Connected:
		st.tb.Reset()
		br.obpConnected(e)
	case obplink.Message:
		br.status.LastSeen = game.T(e.At)
		if st.ignored {
			return
		}
		at := br.mono(st.tb.Time(e.At, e.Msg.BoardTime()))
		switch m := e.Msg.(type) {
		case obp.Fault:
			br.obpFault(at, m)
			return
		case obp.Unknown:
			br.log.Debug("OBP line of an unknown type ignored", "line", m)
			return
		case obp.Ident:
			return
		case obp.Board, obp.Clock, obp.Lift, obp.Put:
		}
		br.obpSense(at, e.Msg)
	case obplink.BadLine:
		br.log.Debug("OBP line dropped; whole board asked for", "err", e.Err)
	case obplink.Disconnected:
		msg := "disconnected"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		br.down(e.At, msg)
	}
}

// obpConnected: a board answered. A board of another size than the game's
// is reported and not read; otherwise the whole board and the clock are
// the tracker's first reports.
func (br *boardRun) obpConnected(e obplink.Connected) {
	st := br.obp
	id := e.Ident
	kind := "id"
	if id.Occupancy {
		kind = "occupancy"
	}
	version := fmt.Sprintf("OBP/%d %dx%d %s", id.Version, id.Geo.Files, id.Geo.Ranks, kind)
	clk := ""
	if !e.Clock.None {
		clk = "OBP clock"
	}
	br.up(e.At, version, id.Serial, clk)
	at := br.mono(e.At)
	geo := br.s.Tracker().Position().Geometry()
	st.ignored = id.Geo != geo
	if st.ignored {
		g := br.s.Record().Info.Game
		br.apply(session.Step{Out: []game.Payload{game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindBoardMismatch, len(br.s.Record().Moves), at.UnixMilli()),
			Game: g, Kind: game.KindBoardMismatch, Severity: game.Crit, Ply: len(br.s.Record().Moves), At: game.T(at),
			Message: fmt.Sprintf("The board on %s (%s, serial %s) is %dx%d; game %s is played on %dx%d: its lines are not read. Connect the right board.",
				br.b.Port, version, id.Serial, id.Geo.Files, id.Geo.Ranks, g, geo.Files, geo.Ranks)}}})
		return
	}
	if st.feed == nil || st.ident.Serial != id.Serial || st.ident.Geo != id.Geo {
		// A new board: what it shows is named from the game's position
		// (an occupancy board's '?'); the same board coming back keeps
		// what the translator followed.
		st.feed = obpfeed.New(br.s.Tracker().Position().Placement())
		st.feed.SetTurn(br.s.Tracker().Position().Turn())
		// A piece of an occupancy board put back while the opponent's
		// is in the hand is a capture only if the game's rules let
		// that piece take there.
		st.feed.SetCanTake(func(from, to rules.Square) bool {
			return obpfeed.CanTake(br.s.Tracker().Position(), st.feed.Shown(), from, to)
		})
	}
	st.ident = id
	if e.Clock.None {
		br.apply(br.s.NoClock(at))
	}
	br.obpSense(at, e.Board)
	br.obpSense(at, e.Clock)
}

// obpSense translates one message and feeds the reports to the session;
// a piece the translator cannot name is the arbiter's. A whole board with
// unnamed points is held back, and so are the square changes after it,
// until they are named (identify) or the board is read whole again; the
// translator follows the lines meanwhile.
func (br *boardRun) obpSense(at time.Time, m obp.Message) {
	st := br.obp
	var err error
	st.buf, err = st.feed.Append(st.buf[:0], m)
	unnamed := errors.Is(err, obpfeed.ErrUnidentified)
	switch m := m.(type) {
	case obp.Board:
		before := len(st.unnamed)
		clear(st.unnamed)
		if unnamed {
			if st.unnamed == nil {
				st.unnamed = map[rules.Square]bool{}
			}
			pl := st.feed.Placement()
			for _, s := range m.Unidentified {
				if pl.At(s).IsEmpty() {
					st.unnamed[s] = true
				}
			}
			if len(st.unnamed) != before {
				br.unidentified(at, m, err)
			}
			return
		}
	case obp.Lift:
		delete(st.unnamed, m.Square)
	}
	if st.slides == nil {
		st.slides = session.NewSlideWatch(br.s)
	}
	for _, r := range st.buf {
		if _, sq := r.(game.SquareChange); sq && len(st.unnamed) > 0 {
			continue
		}
		if al, ok := st.slides.See(at, r, br.s.Record()); ok {
			br.apply(session.Step{Out: []game.Payload{al}})
		}
		br.apply(br.s.Sense(at, r))
	}
	if unnamed {
		br.unidentified(at, m, err)
	}
}

// unidentified tells the arbiter that a board sensing only occupancy shows
// a piece the daemon cannot name, and how to name it.
func (br *boardRun) unidentified(at time.Time, m obp.Message, err error) {
	rec := br.s.Record()
	g, ply := rec.Info.Game, len(rec.Moves)
	geo := br.s.Tracker().Position().Geometry()
	var squares []string
	switch m := m.(type) {
	case obp.Put:
		squares = append(squares, geo.Name(m.Square))
	case obp.Board:
		for s := rules.Square(0); int(s) < geo.Size(); s++ {
			if br.obp.unnamed[s] {
				squares = append(squares, geo.Name(s))
			}
		}
	}
	prop := map[string]any{"cmd": "identify", "squares": squares}
	if len(squares) > 0 {
		prop["square"] = squares[0]
	}
	br.apply(session.Step{Out: []game.Payload{game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindUnidentified, ply, at.UnixMilli()),
		Game: g, Kind: game.KindUnidentified, Severity: game.Warn, Ply: ply, At: game.T(at), Proposal: prop,
		Message: fmt.Sprintf("The board senses only occupancy and shows a piece that cannot be named (%v): until it is, the position may be read wrong. "+
			`Look at the board and name it: {"cmd":"identify","square":"%s","piece":"<letter>"} (upper case for White/Red).`, err, first(squares))}}})
}

func first(s []string) string {
	if len(s) == 0 {
		return "?"
	}
	return s[0]
}

// obpFault reports a fault the board noticed about itself (once per code
// every faultRepeat).
func (br *boardRun) obpFault(at time.Time, f obp.Fault) {
	st := br.obp
	if last, ok := st.faults[f.Code]; ok && at.Sub(last) < faultRepeat {
		return
	}
	st.faults[f.Code] = at
	rec := br.s.Record()
	g, ply := rec.Info.Game, len(rec.Moves)
	br.log.Warn("the board reports a fault", "code", f.Code, "text", f.Text)
	br.apply(session.Step{Out: []game.Payload{game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindBoardFault, ply, at.UnixMilli()),
		Game: g, Kind: game.KindBoardFault, Severity: game.Warn, Ply: ply, At: game.T(at),
		Proposal: map[string]any{"code": f.Code, "text": f.Text},
		Message: fmt.Sprintf("The board (serial %s) reports a fault: %s %s. The daemon does nothing about it; "+
			"check the board, and its moves while the fault lasts.", st.ident.Serial, f.Code, f.Text)}}})
}

// identify names the piece on a square of an occupancy board (the
// arbiter's identify command), on the board goroutine. A piece named is
// logged on the game's alerts as the other arbiter commands are (kind
// arbiter_action, naming the alert it answers), before what the board
// shows is read with it (a move caught up).
func (br *boardRun) identify(c identifyCommand) error {
	st := br.obp
	if br.b.Protocol != ProtocolOBP || st == nil || st.feed == nil {
		return fmt.Errorf("%w: identify: the board of this game is no connected OBP board", ErrBadInput)
	}
	geo := br.s.Tracker().Position().Geometry()
	s, err := geo.ParseSquare(c.Square)
	if err != nil {
		return fmt.Errorf("%w: identify: square %q: %v", ErrBadInput, c.Square, err)
	}
	pc, ok := parsePiece(c.Piece, geo)
	if !ok {
		return fmt.Errorf("%w: identify: piece %q (a piece letter, upper case for White/Red, or \"\" for an empty point)", ErrBadInput, c.Piece)
	}
	at := br.mono(br.h.o.Now())
	br.apply(session.Step{Out: []game.Payload{br.identified(at, c, geo, s, pc)}})
	sc := st.feed.Identify(s, pc)
	if len(st.unnamed) == 0 {
		br.apply(br.s.Sense(at, sc))
		return nil
	}
	// A whole board held back: given to the tracker once every point of
	// it is named.
	delete(st.unnamed, s)
	if len(st.unnamed) == 0 {
		br.apply(br.s.Sense(at, game.FullRead{Placement: st.feed.Placement()}))
	}
	return nil
}

// identified is the record of an identify command: an info alert of kind
// arbiter_action with {"cmd":"identify","square","piece"} and, when the
// command named it, the answered alert's id in "alert" (which closes it in
// the boards' status and on the arbiters' page).
func (br *boardRun) identified(at time.Time, c identifyCommand, geo rules.Geometry, sq rules.Square, pc rules.Piece) game.Alert {
	rec := br.s.Record()
	g, ply := rec.Info.Game, len(rec.Moves)
	square, letter, what := geo.Name(sq), "", "empty"
	if !pc.IsEmpty() {
		letter = c.Piece
		what = fmt.Sprintf("%s (%s)", session.PieceName(geo, pc), letter)
	}
	msg := fmt.Sprintf("Arbiter identified the point %s as %s.", square, what)
	if c.By != "" {
		msg += " (" + c.By + ")"
	}
	prop := map[string]any{"cmd": "identify", "square": square, "piece": letter}
	if c.AlertID != "" {
		prop["alert"] = c.AlertID
	}
	return game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindCommand, ply, at.UnixMilli()), Game: g, Kind: game.KindCommand,
		Severity: game.Info, Ply: ply, At: game.T(at), Proposal: prop, Message: msg}
}

// parsePiece reads a piece letter of the board's variant as OBP boards
// write them ("" or "-": no piece).
func parsePiece(s string, geo rules.Geometry) (rules.Piece, bool) {
	if s == "" || s == "-" {
		return rules.NoPiece, true
	}
	if len(s) != 1 {
		return rules.NoPiece, false
	}
	return obp.ParsePiece(geo, s[0])
}
