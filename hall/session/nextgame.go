package session

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// NextRound is a SessionOptions.NextGame that numbers the next game of a
// board as the same board of the next round, with the same players: the
// usual shape of a hall where each board keeps its table number.
func NextRound(prev gamerecord.Info) gamerecord.Info {
	prev.Game.Round++
	return prev
}

// nextGame starts the board's next game after a set-up seen once the game
// has a result (SessionOptions.NextGame): the finished record is returned
// in Step.Finished, a fresh record and adjudicator take over, and the
// tracker (which reset itself on the set-up) carries on. A NextGame that
// returns the same or an invalid game id starts nothing: the arbiter is
// told, and the board stays on the finished game.
func (s *Session) nextGame(e game.SetupDetected, st *Step) {
	ended := s.endedCopy()
	info := s.nextInfo()
	err := info.Game.Validate()
	if err == nil {
		err = info.CheckText()
	}
	if err != nil || info.Game == s.rec.Info.Game {
		if err == nil {
			err = fmt.Errorf("next game has the same id %s", info.Game)
		}
		st.Out = append(st.Out, s.internalAlert(e.At, fmt.Errorf("no next game after a set-up: %w", err)))
		return
	}
	fen := ""
	if e.Position != nil && e.Position.FEN() != s.start.FEN() {
		fen = e.Position.FEN()
	}
	if p, err := startPosition(s.rec.Variant(), fen, s.o.RuleSet); err == nil {
		s.start = p
	}
	st.Finished = append(st.Finished, s.rec)
	s.ended = ended
	s.o.Info = info
	s.rec = gamerecord.NewRecord(info, fen, e.At)
	if s.tr != nil {
		s.rec.Rotated = s.tr.Rotated()
	}
	s.running = rules.NoColor
	s.lastClk = time.Time{}
	st.Changed = true
	s.adj = adjudicator.New(adjudicator.GameInfo{ID: info.Game, White: info.White, Black: info.Black},
		s.o.RuleSet, adjudicator.Options{Penalties: s.o.Penalties, TimeControl: s.o.TimeControl, NoTiming: s.o.NoTiming, Start: s.start})
	s.adj.Handle(e)
	s.relaySide(e.At, st)
}
