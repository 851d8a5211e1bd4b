package broadcast

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// kind says which payload an [envelope] carries.
type kind uint8

// Kinds of envelopes.
const (
	kindMove kind = iota + 1
	kindCorrection
	kindClock
	kindEnd
	kindState
	kindAlert
	kindAnnounce
	kindStatus
)

var kindNames = [...]string{"", "move", "correction", "clock", "end", "state", "alert", "announce", "status"}

// String returns the kind's name, as used in message ids.
func (k kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// target says how an envelope is sent.
type target uint8

// Targets.
const (
	// targetStream: a JetStream publish, acknowledged by a stream.
	targetStream target = iota + 1
	// targetKV: a JetStream publish to the KV bucket's subject.
	targetKV
	// targetCore: a core NATS publish (no stream covers the subject);
	// counted as sent once the server has flushed it.
	targetCore
)

// envelope is one message ready to send: subject, Nats-Msg-Id, JSON body and
// how to send it. Envelopes are what the outbox journals.
type envelope struct {
	Subject string  `json:"s"`
	MsgID   string  `json:"i"`
	Data    []byte  `json:"d,omitempty"`
	Target  target  `json:"t"`
	Kind    kind    `json:"k"`
	Game    game.ID `json:"g,omitzero"`
	// Public marks the delayed public copy.
	Public bool `json:"p,omitempty"`
}

func ms(t game.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

func newEnvelope(subject string, id string, kind kind, target target, g game.ID, v any) (envelope, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return envelope{}, fmt.Errorf("broadcast: marshal %s: %w", kind, err)
	}
	return envelope{Subject: subject, MsgID: id, Data: data, Target: target, Kind: kind, Game: g}, nil
}

// moveEnvelope builds <p>.game.<g>.move with id <g>.move.<ply>.<revision>.
func (s Subjects) moveEnvelope(ev game.MoveEvent) (envelope, error) {
	if err := ev.Game.Validate(); err != nil {
		return envelope{}, err
	}
	id := fmt.Sprintf("%s.move.%d.%d", ev.Game, ev.Ply, ev.Revision)
	return newEnvelope(s.move(ev.Game), id, kindMove, targetStream, ev.Game, ev)
}

// correctionEnvelope builds <p>.game.<g>.correction with id
// <g>.correction.<ply>.<revision>.
func (s Subjects) correctionEnvelope(c game.Correction) (envelope, error) {
	if err := c.Game.Validate(); err != nil {
		return envelope{}, err
	}
	id := fmt.Sprintf("%s.correction.%d.%d", c.Game, c.Ply, c.Revision)
	return newEnvelope(s.correction(c.Game), id, kindCorrection, targetStream, c.Game, c)
}

// clockEnvelope builds <p>.game.<g>.clock with id <g>.clock.<at unix ms>.
func (s Subjects) clockEnvelope(c game.ClockEvent) (envelope, error) {
	if err := c.Game.Validate(); err != nil {
		return envelope{}, err
	}
	id := fmt.Sprintf("%s.clock.%s", c.Game, ms(c.At))
	return newEnvelope(s.clock(c.Game), id, kindClock, targetStream, c.Game, c)
}

// resultEnvelope builds <p>.game.<g>.end with id
// <g>.end.<revision>.<result>.<provisional|final>.
func (s Subjects) resultEnvelope(r game.Result) (envelope, error) {
	if err := r.Game.Validate(); err != nil {
		return envelope{}, err
	}
	fin := "final"
	if r.Provisional {
		fin = "provisional"
	}
	id := fmt.Sprintf("%s.end.%d.%s.%s", r.Game, r.Revision, r.Result, fin)
	return newEnvelope(s.end(r.Game), id, kindEnd, targetStream, r.Game, r)
}

// stateEnvelope builds the KV put of a GameState (key <event>.<round>.<board>
// in <p>_games) with id <g>.state.<revision>.<moves>.<updated_at unix ms>.
func (s Subjects) stateEnvelope(st game.GameState) (envelope, error) {
	if err := st.Game.Validate(); err != nil {
		return envelope{}, err
	}
	id := fmt.Sprintf("%s.state.%d.%d.%s", st.Game, st.Revision, len(st.Moves), ms(st.UpdatedAt))
	return newEnvelope(s.kvSubject(st.Game), id, kindState, targetKV, st.Game, st)
}

// alertEnvelope builds <p>.arbiter.<g>.alert with id <g>.alert.<id>, id
// being the alert's own id (stable across re-sends).
func (s Subjects) alertEnvelope(a game.Alert) (envelope, error) {
	g := a.Game
	if err := g.Validate(); err != nil {
		return envelope{}, err
	}
	if a.ID == "" {
		return envelope{}, &TokenError{Field: "alert id", Token: a.ID, Err: ErrBadToken}
	}
	return newEnvelope(s.alert(g), g.String()+".alert."+a.ID, kindAlert, targetStream, g, a)
}

// announceEnvelope builds <p>.relay.<g>.announce (core NATS: no stream covers
// relay subjects) with id <g>.announce.<ply>.<kind>.<lang>.<at unix ms>.
func (s Subjects) announceEnvelope(a game.Announcement) (envelope, error) {
	if err := a.Game.Validate(); err != nil {
		return envelope{}, err
	}
	id := fmt.Sprintf("%s.announce.%d.%s.%s.%s", a.Game, a.Ply, a.Kind, a.Lang, ms(a.At))
	return newEnvelope(s.announce(a.Game), id, kindAnnounce, targetCore, a.Game, a)
}

// statusEnvelope builds <p>.board.<board_id>.status (core NATS) with id
// board.<board_id>.status.<at unix ms>.
func (s Subjects) statusEnvelope(b game.BoardStatus) (envelope, error) {
	subj, err := s.boardStatus(b.BoardID)
	if err != nil {
		return envelope{}, err
	}
	return newEnvelope(subj, "board."+b.BoardID+".status."+ms(b.At), kindStatus, targetCore, game.ID{}, b)
}

// publicCopy returns the delayed public counterpart of an organiser envelope:
// <p>.game.<g>.<leaf> becomes <p>.public.<g>.<leaf> and a GameState goes to
// <p>.public.<g>.state; the message id is kept (the PUBLIC stream has its own
// duplicate window). ok is false for kinds that are never made public
// (alerts, announcements, board status).
func (s Subjects) publicCopy(e envelope) (pub envelope, ok bool) {
	switch e.Kind {
	case kindMove, kindCorrection, kindClock, kindEnd:
		pub = e
		pub.Subject = s.game("public", e.Game, e.Kind.String())
	case kindState:
		pub = e
		pub.Subject = s.publicState(e.Game)
		pub.Target = targetStream
	default:
		return envelope{}, false
	}
	pub.Public = true
	return pub, true
}
