package hall

import (
	"context"
	"fmt"
	"sync"

	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// The two boards of a team-drop match share one goroutine, which owns
// their match: board A's for two boards on their own ports (it runs B's
// link too), the line's for two boards on one DGT bus line. Two partner
// boards on different lines, or one on a line and one on its own port,
// are refused.

// teamRun is the part of a board goroutine that serves a partner board.
type teamRun struct {
	partner *boardRun
	// follower: this board's events are served by its partner's goroutine
	// (own ports: board B).
	follower bool
	// draining: the pair's pending steps are being applied.
	draining *bool
}

// pairTeams links the boards of every team-drop match (Session.Partner)
// before any goroutine starts.
func (h *Hall) pairTeams() error {
	for _, br := range h.boards {
		p := br.b.Session.Partner
		if p == (game.ID{}) || br.team != nil {
			continue
		}
		other, ok := h.byGame[p]
		if !ok {
			return fmt.Errorf("%w: board %s: its partner game %s is not configured", ErrOptions, br.b.ID, p)
		}
		if other.b.Session.Partner != br.b.Session.Info.Game {
			return fmt.Errorf("%w: board %s: game %s names %s as its partner, not %s", ErrOptions, br.b.ID, p, other.b.Session.Partner, br.b.Session.Info.Game)
		}
		sameLine := br.b.BusAddress > 0 && other.b.BusAddress > 0 && br.b.Port == other.b.Port
		ownPorts := br.b.BusAddress == 0 && other.b.BusAddress == 0
		if !sameLine && !ownPorts {
			return fmt.Errorf("%w: boards %s and %s are partners: they must both have their own port or both be on one bus line", ErrOptions, br.b.ID, other.b.ID)
		}
		if br.b.Blind != nil || other.b.Blind != nil {
			return fmt.Errorf("%w: boards %s and %s: a team-drop game cannot be relayed for a blind player", ErrOptions, br.b.ID, other.b.ID)
		}
		a, b := br, other
		if a.b.Session.Info.Game.Board > b.b.Session.Info.Game.Board {
			a, b = b, a
		}
		draining := new(bool)
		a.team = &teamRun{partner: b, draining: draining}
		b.team = &teamRun{partner: a, follower: ownPorts, draining: draining}
		if ownPorts {
			b.cmds = a.cmds
		}
	}
	return nil
}

// startTeam starts both sessions of br's match (the first of the two
// boards to start does it) and hands again what a previous run may not
// have journalled.
func (br *boardRun) startTeam() error {
	if br.s != nil {
		return nil // started with its partner
	}
	p := br.team.partner
	now := br.h.o.Now()
	ss, err := session.NewTeamSessions(br.b.Session, p.b.Session, br.rec, p.rec, now)
	if err != nil {
		return err
	}
	mine, theirs := ss[0], ss[1]
	if mine.Record().Info.Game != br.b.Session.Info.Game {
		mine, theirs = theirs, mine
	}
	br.s, p.s = mine, theirs // both, before either hands anything on
	br.begin(mine, now)
	p.begin(theirs, now)
	return nil
}

// startPartner starts the partner board's link on br's goroutine (own
// ports) and returns its events; nil when br serves no partner.
func (br *boardRun) startPartner(ctx context.Context, wg *sync.WaitGroup) <-chan link.Event {
	if br.team == nil || br.team.follower {
		return nil
	}
	p := br.team.partner
	if !p.team.follower {
		return nil
	}
	lo := p.b.Link
	if lo.Logger == nil {
		lo.Logger = p.log
	}
	open := p.b.Open
	if br.h.o.Record {
		open = recordingOpener(open, br.h.o.DataDir, p.b.ID, br.h.o.Now, p.log)
	}
	p.lk = link.New(open, lo)
	p.ctx = ctx
	wg.Go(func() { p.lk.Run(ctx) })
	return p.lk.Events()
}

// servedPartner returns the partner board br's goroutine serves (own
// ports), or nil.
func (br *boardRun) servedPartner() *boardRun {
	if br.team == nil || br.team.follower || !br.team.partner.team.follower {
		return nil
	}
	return br.team.partner
}

// drainTeam applies what either board's input did to the other board
// (Session.TakePartner), until nothing is left.
func (br *boardRun) drainTeam() {
	t := br.team
	if t == nil || *t.draining || br.s == nil || t.partner.s == nil {
		return
	}
	*t.draining = true
	defer func() { *t.draining = false }()
	for range 8 {
		a, b := br.s.TakePartner(), t.partner.s.TakePartner()
		if a.Empty() && b.Empty() {
			return
		}
		br.apply(a)
		t.partner.apply(b)
	}
	br.log.Error("team-drop match: effects between the partner boards did not settle")
}
