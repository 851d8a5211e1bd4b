package daemon

import (
	"errors"
	"fmt"

	"github.com/dgtbridge/dgtbridge/board"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// boardID names a configured board in <p>.board.<id>.status, the status
// bucket and the recording directory: "r<round>-b<board>" of the
// configuration the daemon started with (a round changed by a reload
// keeps the id).
func boardID(b config.Board) string { return fmt.Sprintf("r%d-b%d", b.Round, b.Board) }

// opener makes a hall board (its Open) for a configured board.
type opener func(b config.Board) (hall.Board, error)

// hallBoards turns the configured boards into the hall's. cfg has passed
// config.Load, which checked every value; what can still fail here is the
// host (a speech folder that cannot be made).
func HallBoards(cfg *config.Config, open opener) ([]hall.Board, error) {
	var out []hall.Board
	var errs []error
	for i, b := range cfg.EffectiveBoards() {
		key := fmt.Sprintf("boards[%d]", i)
		so, err := sessionOptions(cfg, b)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
			continue
		}
		var hb hall.Board
		if hallProtocol(b) != hall.ProtocolManual {
			if hb, err = open(b); err != nil {
				errs = append(errs, fmt.Errorf("%s.port: %w", key, err))
				continue
			}
		}
		hb.Protocol = hallProtocol(b) // boards_obp.go
		if b.Blind != nil {
			relay, bb, err := blindRelay(cfg, b, key, open)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			so.Blind = relay
			hb.Blind = bb
		}
		hb.ID = boardID(b)
		hb.Port = b.Port
		hb.BusAddress = uint16(b.BusAddress)
		hb.Session = so
		out = append(out, hb)
	}
	return out, errors.Join(errs...)
}

// sessionOptions returns the game of a configured (effective) board: its
// players, rule set (the preset with event.rules and the board's rules on
// top), time control and penalties. The blind-player relay is set by
// hallBoards.
func sessionOptions(cfg *config.Config, b config.Board) (session.SessionOptions, error) {
	rs, err := b.RuleSet()
	if err != nil {
		return session.SessionOptions{}, err
	}
	var tc clock.TimeControl
	if b.TimeControl != "" {
		if tc, err = clock.ParseTimeControl(b.TimeControl); err != nil {
			return session.SessionOptions{}, err
		}
	}
	pen := adjudicator.PenaltiesAlert
	if cfg.Penalties == config.PenaltiesAuto {
		pen = adjudicator.PenaltiesAuto
	}
	return session.SessionOptions{
		Info: gamerecord.Info{Game: game.ID{Event: cfg.Event.ID, Round: b.Round, Board: b.Board},
			EventName: cfg.Event.Name, Site: cfg.Event.Site, White: b.White, Black: b.Black,
			WhiteFideID: b.WhiteFideID, BlackFideID: b.BlackFideID, WhiteTitle: b.WhiteTitle, BlackTitle: b.BlackTitle, WhiteTeam: b.WhiteTeam, BlackTeam: b.BlackTeam,
			Variant: b.Variant, Ruleset: rs.Name, TimeControl: b.TimeControl},
		StartFEN: b.FEN, RuleSet: rs, TimeControl: tc, Penalties: pen, Tracker: trackerOptions(cfg.Tracker),
		Partner: partnerGame(cfg, b),
		NoBoard: b.Protocol == config.ProtocolManual,
	}, nil
}

// trackerOptions are a hall board's tracker options with the tracker keys.
func trackerOptions(t config.Tracker) board.TrackerOptions {
	o := session.DefaultTrackerOptions()
	o.PressGrace, o.HandHold, o.LostAfter, o.Reread = t.PressGrace, t.HandHold, t.LostAfter, t.Reread
	return o
}
