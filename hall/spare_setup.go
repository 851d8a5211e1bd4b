package hall

import (
	"fmt"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/board/dgtfeed"
	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// spareSetup is a board the game was just moved to (spare.go), until it
// shows the game's position: what it shows is kept here, never fed to the
// session, and the arbiter is told what differs.
type spareSetup struct {
	id, port string
	board    rules.Placement // what it shows (its last full read, then its square changes)
	read     bool            // a full read came
	told     string          // the differences last told ("" none yet)
	toldAt   time.Time
}

// sessionStep is a step of payloads alone (and a changed record).
func sessionStep(out []game.Payload, changed bool) session.Step {
	return session.Step{Out: out, Changed: changed}
}

// setupMessage takes a message of a board being set up (instead of the
// session, which reads its clock's messages alone): once the board shows the game's position the game goes on
// from it, fed as one full read.
func (br *boardRun) setupMessage(at time.Time, m dgt.Message) {
	su := br.setup
	if _, clk := m.(dgt.ClockTimes); clk {
		// The game's clock, cabled to the board moved to: it is read
		// as before.
		br.apply(br.s.Message(br.mono(at), m))
		return
	}
	for _, r := range dgtfeed.Append(nil, m) {
		switch r := r.(type) {
		case game.FullRead:
			su.board, su.read = r.Placement, true
		case game.SquareChange:
			if su.read && su.board.Geo.Contains(r.Square) {
				su.board.Sq[r.Square] = r.Piece
			}
		case game.ClockFace, game.LeverPress, game.ResultSignal:
			// The clock's messages went to the session above; a result
			// signalled with the magic pieces on a board not set up
			// means nothing for the game.
		}
	}
	br.setupCheck(at, false)
}

// setupDue tells the arbiter again, at a tick, what still differs.
func (br *boardRun) setupDue(now time.Time) {
	if br.setup != nil {
		br.setupCheck(now, true)
	}
}

// setupCheck compares the board being set up with the game's position:
// equal, the setup ends and the session reads the board from now on;
// otherwise the arbiter is told what differs (at once the first time,
// then when it changed and spareTold has passed).
func (br *boardRun) setupCheck(at time.Time, tick bool) {
	su := br.setup
	if !su.read {
		return
	}
	want, ok := br.s.BoardPlacement()
	if !ok {
		return
	}
	g := br.s.Record().Info.Game
	ply := len(br.s.Record().Moves)
	if su.board == want {
		br.setup = nil
		br.awaitLog, br.boardLog = false, nil // its log is not this game's
		br.log.Info("the board moved to shows the game's position", "board", su.id)
		a := game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindSpareSetup, ply, at.UnixMilli()), Game: g, Kind: game.KindSpareSetup,
			Severity: game.Info, Ply: ply, At: game.T(at),
			Message: fmt.Sprintf("%s (%s) shows the game's position after ply %d: the game goes on from it.", su.id, su.port, ply)}
		br.apply(sessionStep([]game.Payload{a}, false))
		if d, err := dgt.DumpOf(&su.board, dgt.Normal); err == nil {
			br.apply(br.s.Message(br.mono(at), d))
		}
		return
	}
	diff := placementDiff(&su.board, &want)
	if turned := turnedAround(su.board); turned == want {
		diff = "the board is turned around (White's pieces on the side where Black's belong): turn it, or set the position up the other way"
	}
	if diff == su.told || su.told != "" && at.Sub(su.toldAt) < spareTold || tick && su.told == "" {
		return
	}
	su.told, su.toldAt = diff, at
	a := game.Alert{ID: fmt.Sprintf("%s.%s.%d.%d", g, game.KindSpareSetup, ply, at.UnixMilli()), Game: g, Kind: game.KindSpareSetup,
		Severity: game.Warn, Ply: ply, At: game.T(at),
		Message: fmt.Sprintf("%s (%s) does not show the game's position after ply %d yet: %s. Nothing it shows counts until it does.",
			su.id, su.port, ply, diff),
		Proposal: map[string]any{"board": su.board.String(), "position": want.String(), "differences": diff}}
	br.apply(sessionStep([]game.Payload{a}, false))
}

// turnedAround is what a board shows turned by half a turn.
func turnedAround(p rules.Placement) rules.Placement {
	q := rules.NewPlacement(p.Geo)
	n := p.Geo.Size()
	for i := range n {
		q.Sq[n-1-i] = p.Sq[i]
	}
	return q
}

// placementDiff names the squares where the board (has) differs from the
// position (want), pieces as FEN letters: "e4 empty, want P; d5 p, want empty".
func placementDiff(has, want *rules.Placement) string {
	var parts []string
	for _, sq := range has.Diff(want, nil) {
		parts = append(parts, fmt.Sprintf("%s %s, want %s", want.Geo.Name(sq), pieceName(has.At(sq)), pieceName(want.At(sq))))
	}
	return strings.Join(parts, "; ")
}

func pieceName(p rules.Piece) string {
	if p.IsEmpty() {
		return "empty"
	}
	return p.String() // a FEN letter: P white pawn, n black knight
}
