package broadcast

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Kind says which payload an [Envelope] carries.
type Kind uint8

// Kinds of envelopes.
const (
	KindMove Kind = iota + 1
	KindCorrection
	KindClock
	KindEnd
	KindState
	KindAlert
	KindAnnounce
	KindStatus
)

var kindNames = [...]string{"", "move", "correction", "clock", "end", "state", "alert", "announce", "status"}

// String returns the kind's name, as used in message ids.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Target says how an envelope is sent.
type Target uint8

// Targets.
const (
	// TargetStream: a JetStream publish, acknowledged by a stream.
	TargetStream Target = iota + 1
	// TargetKV: a JetStream publish to the KV bucket's subject.
	TargetKV
	// TargetCore: a core NATS publish (no stream covers the subject);
	// counted as sent once the server has flushed it.
	TargetCore
)

// Envelope is one message ready to send: subject, Nats-Msg-Id, JSON body and
// how to send it. Envelopes are what the outbox journals.
type Envelope struct {
	Subject string `json:"s"`
	MsgID   string `json:"i"`
	Data    []byte `json:"d"`
	Target  Target `json:"t"`
	Kind    Kind   `json:"k"`
	Game    GameID `json:"g,omitzero"`
	// Public marks the delayed public copy.
	Public bool `json:"p,omitempty"`
}

func ms(t Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

func envelope(subject string, id string, kind Kind, target Target, g GameID, v any) (Envelope, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return Envelope{}, fmt.Errorf("broadcast: marshal %s: %w", kind, err)
	}
	return Envelope{Subject: subject, MsgID: id, Data: data, Target: target, Kind: kind, Game: g}, nil
}

// MoveEnvelope builds <p>.game.<g>.move with id <g>.move.<ply>.<revision>.
func (s Subjects) MoveEnvelope(ev MoveEvent) (Envelope, error) {
	if err := ev.Game.Validate(); err != nil {
		return Envelope{}, err
	}
	id := fmt.Sprintf("%s.move.%d.%d", ev.Game, ev.Ply, ev.Revision)
	return envelope(s.Move(ev.Game), id, KindMove, TargetStream, ev.Game, ev)
}

// CorrectionEnvelope builds <p>.game.<g>.correction with id
// <g>.correction.<ply>.<revision>.
func (s Subjects) CorrectionEnvelope(c Correction) (Envelope, error) {
	if err := c.Game.Validate(); err != nil {
		return Envelope{}, err
	}
	id := fmt.Sprintf("%s.correction.%d.%d", c.Game, c.Ply, c.Revision)
	return envelope(s.Correction(c.Game), id, KindCorrection, TargetStream, c.Game, c)
}

// ClockEnvelope builds <p>.game.<g>.clock with id <g>.clock.<at unix ms>.
func (s Subjects) ClockEnvelope(c ClockEvent) (Envelope, error) {
	if err := c.Game.Validate(); err != nil {
		return Envelope{}, err
	}
	id := fmt.Sprintf("%s.clock.%s", c.Game, ms(c.At))
	return envelope(s.Clock(c.Game), id, KindClock, TargetStream, c.Game, c)
}

// ResultEnvelope builds <p>.game.<g>.end with id
// <g>.end.<revision>.<result>.<provisional|final>.
func (s Subjects) ResultEnvelope(r Result) (Envelope, error) {
	if err := r.Game.Validate(); err != nil {
		return Envelope{}, err
	}
	fin := "final"
	if r.Provisional {
		fin = "provisional"
	}
	id := fmt.Sprintf("%s.end.%d.%s.%s", r.Game, r.Revision, r.Result, fin)
	return envelope(s.End(r.Game), id, KindEnd, TargetStream, r.Game, r)
}

// StateEnvelope builds the KV put of a GameState (key <event>.<round>.<board>
// in <p>_games) with id <g>.state.<revision>.<moves>.<updated_at unix ms>.
func (s Subjects) StateEnvelope(st GameState) (Envelope, error) {
	if err := st.Game.Validate(); err != nil {
		return Envelope{}, err
	}
	id := fmt.Sprintf("%s.state.%d.%d.%s", st.Game, st.Revision, len(st.Moves), ms(st.UpdatedAt))
	return envelope(s.KVSubject(st.Game), id, KindState, TargetKV, st.Game, st)
}

// AlertEnvelope builds <p>.arbiter.<g>.alert with id <g>.alert.<id>. payload
// is the alert (§3.4) as any JSON-marshalable value (arbiter.Alert, or raw
// JSON); id is the alert's own id, stable across re-sends.
func (s Subjects) AlertEnvelope(g GameID, id string, payload any) (Envelope, error) {
	if err := g.Validate(); err != nil {
		return Envelope{}, err
	}
	if id == "" {
		return Envelope{}, &TokenError{Field: "alert id", Token: id, Err: ErrBadToken}
	}
	return envelope(s.Alert(g), g.String()+".alert."+id, KindAlert, TargetStream, g, payload)
}

// AnnounceEnvelope builds <p>.relay.<g>.announce (core NATS: no stream covers
// relay subjects) with id <g>.announce.<ply>.<kind>.<lang>.<at unix ms>.
func (s Subjects) AnnounceEnvelope(a Announcement) (Envelope, error) {
	if err := a.Game.Validate(); err != nil {
		return Envelope{}, err
	}
	id := fmt.Sprintf("%s.announce.%d.%s.%s.%s", a.Game, a.Ply, a.Kind, a.Lang, ms(a.At))
	return envelope(s.Announce(a.Game), id, KindAnnounce, TargetCore, a.Game, a)
}

// StatusEnvelope builds <p>.board.<board_id>.status (core NATS) with id
// board.<board_id>.status.<at unix ms>.
func (s Subjects) StatusEnvelope(b BoardStatus) (Envelope, error) {
	subj, err := s.BoardStatus(b.BoardID)
	if err != nil {
		return Envelope{}, err
	}
	return envelope(subj, "board."+b.BoardID+".status."+ms(b.At), KindStatus, TargetCore, GameID{}, b)
}

// PublicCopy returns the delayed public counterpart of an organiser envelope:
// <p>.game.<g>.<leaf> becomes <p>.public.<g>.<leaf> and a GameState goes to
// <p>.public.<g>.state; the message id is kept (the PUBLIC stream has its own
// duplicate window). ok is false for kinds that are never made public
// (alerts, announcements, board status).
func (s Subjects) PublicCopy(e Envelope) (pub Envelope, ok bool) {
	switch e.Kind {
	case KindMove, KindCorrection, KindClock, KindEnd:
		pub = e
		pub.Subject = s.game("public", e.Game, e.Kind.String())
	case KindState:
		pub = e
		pub.Subject = s.PublicState(e.Game)
		pub.Target = TargetStream
	default:
		return Envelope{}, false
	}
	pub.Public = true
	return pub, true
}
