package broadcast

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/rules/arbiter"
)

// PublishArbiter publishes one output of the rules adjudicator: an
// *arbiter.Alert on <p>.arbiter.<g>.alert (its own JSON, id a.ID), an
// *arbiter.Result on <p>.game.<g>.end and an *arbiter.Correction on
// <p>.game.<g>.correction (both with their public copies). An
// *arbiter.ClockCommand is a hardware effect, not a message:
// [ErrNotPublishable].
func (p *Publisher) PublishArbiter(o arbiter.Output) error {
	switch v := o.(type) {
	case *arbiter.Alert:
		g, err := ParseGameID(v.Game)
		if err != nil {
			return err
		}
		return p.PublishAlert(g, v.ID, v)
	case *arbiter.Result:
		g, err := ParseGameID(v.Game)
		if err != nil {
			return err
		}
		return p.PublishResult(Result{Game: g, Result: v.Result, Termination: v.Termination,
			Article: v.Article, Provisional: v.Provisional, At: T(v.At)})
	case *arbiter.Correction:
		g, err := ParseGameID(v.Game)
		if err != nil {
			return err
		}
		return p.PublishCorrection(Correction{Game: g, Ply: v.Ply, FEN: v.FEN, Moves: v.Moves,
			Reason: v.Reason, At: T(v.At), Revision: v.Revision})
	}
	return fmt.Errorf("%w: %T", ErrNotPublishable, o)
}
