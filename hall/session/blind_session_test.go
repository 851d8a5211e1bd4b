package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// blindSession drives a relayed Session with DGT messages, no ports.
type blindSession struct {
	t   *testing.T
	s   *Session
	now time.Time
	out []game.Payload
	// pressed is the time of the last clock reading.
	pressed time.Time
}

func newBlindSession(t *testing.T, rec *gamerecord.Record) *blindSession {
	t.Helper()
	rs, err := ruleset.Lookup(ruleset.FIDE2018Standard)
	if err != nil {
		t.Fatal(err)
	}
	o := SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "open2026", Round: 1, Board: 7}, Ruleset: rs.Name},
		RuleSet: rs, Tracker: DefaultTrackerOptions(), Blind: DefaultBlind(rules.Black, announce.English)}
	now := time.Date(2026, 2, 8, 9, 0, 0, 0, time.UTC)
	s, err := NewSession(o, rec, now)
	if err != nil {
		t.Fatal(err)
	}
	return &blindSession{t: t, s: s, now: now}
}

func (b *blindSession) wait(d time.Duration) {
	for end := b.now.Add(d); b.now.Before(end); {
		b.now = b.now.Add(100 * time.Millisecond)
		b.out = append(b.out, b.s.Tick(b.now).Out...)
	}
}

// move plays uci on board w from the position its tracker shows.
func (b *blindSession) move(w game.Which, uci string) {
	b.t.Helper()
	pos := b.s.Relay().Tracker(w).Position()
	m, err := pos.ParseMove(uci)
	if err != nil {
		b.t.Fatal(err)
	}
	next, err := pos.Play(m)
	if err != nil {
		b.t.Fatal(err)
	}
	p, q := pos.Placement(), next.Placement()
	send := func(sq rules.Square, pc rules.Piece) {
		f, _ := dgt.FieldOf(sq, dgt.Normal)
		code := dgt.Empty
		if !pc.IsEmpty() {
			code, _ = dgt.PieceCodeOf(pc)
		}
		b.now = b.now.Add(150 * time.Millisecond)
		b.out = append(b.out, b.s.MessageFrom(w, b.now, dgt.FieldUpdate{Field: f, Piece: code}).Out...)
	}
	diff := p.Diff(&q, nil)
	for _, sq := range diff {
		if !p.Sq[sq].IsEmpty() {
			send(sq, rules.NoPiece)
		}
	}
	for _, sq := range diff {
		if !q.Sq[sq].IsEmpty() {
			send(sq, q.Sq[sq])
		}
	}
}

func (b *blindSession) press(running rules.Color) {
	b.now = b.now.Add(100 * time.Millisecond)
	b.pressed = b.now
	r := game.ClockReading{White: time.Hour, Black: time.Hour, Running: running}
	b.out = append(b.out, b.s.relayFeedClock(b.now, r).Out...)
}

// relayFeedClock feeds a clock reading as the clock's board would (a
// clock whose left display is White's).
func (s *Session) relayFeedClock(at time.Time, r game.ClockReading) Step {
	f := game.ClockFace{Left: r.White, Right: r.Black, LeftFlag: r.WhiteFlag, RightFlag: r.BlackFlag, LeftIs: rules.White}
	switch r.Running {
	case rules.White:
		f.Running = game.LeftDisplay
	case rules.Black:
		f.Running = game.RightDisplay
	}
	return s.Sense(at, f)
}

func (b *blindSession) announcements() []string {
	var out []string
	for _, o := range b.out {
		if a, ok := o.(game.Announcement); ok && a.Kind == game.AnnounceMove {
			out = append(out, a.Text)
		}
	}
	return out
}

// A relayed game resumes from its record: both boards are caught up, the
// relay continues at the next ply, and the talking clock counts the moves.
func TestBlindSessionResumeAndTime(t *testing.T) {
	b := newBlindSession(t, nil)
	b.press(rules.White)
	b.move(game.SightedBoard, "e2e4")
	b.wait(700 * time.Millisecond)
	b.press(rules.Black)
	b.wait(time.Second)
	b.move(game.BlindBoard, "e2e4")
	b.wait(time.Second)
	b.move(game.BlindBoard, "c7c5")
	b.wait(time.Second)
	b.press(rules.White)
	b.move(game.SightedBoard, "c7c5")
	b.wait(time.Second)
	if got := strings.Join(b.announcements(), " | "); got != "Pawn e2 to e4 | Pawn c7 to c5" {
		t.Fatalf("announcements %q", got)
	}
	if got := strings.Join(b.s.Record().UCIs(), " "); got != "e2e4 c7c5" {
		t.Fatalf("record %s", got)
	}
	for _, o := range b.out {
		if a, ok := o.(game.Alert); ok {
			t.Errorf("alert %+v", a)
		}
	}
	ta, ok, err := b.s.TimeAnnouncement(b.pressed.Add(10 * time.Second))
	if !ok || err != nil || ta.Text != "1 move. White 59 minutes 50 seconds. Black 1 hour." || ta.Kind != game.AnnounceTime {
		t.Errorf("time %+v %v %v", ta, ok, err)
	}

	// Under the 2001 Laws the talking clock is refused (002 F2.4).
	b.s.o.Blind.NoTalkingClock = true
	if _, ok, err := b.s.TimeAnnouncement(b.now); !ok || !errors.Is(err, ErrNoTalkingClock) {
		t.Errorf("time under 2001: %v %v", ok, err)
	}
	b.s.o.Blind.NoTalkingClock = false

	// Resume: a new session from the record.
	r := newBlindSession(t, b.s.Record())
	if n := r.s.Relay().Completed(); n != 2 {
		t.Fatalf("resumed relay at ply %d, want 2", n)
	}
	for _, w := range []game.Which{game.SightedBoard, game.BlindBoard} {
		if n := r.s.Relay().Tracker(w).Ply(); n != 2 {
			t.Errorf("%s board resumed at ply %d", w, n)
		}
	}
	r.now = b.now
	r.press(rules.White)
	r.move(game.SightedBoard, "g1f3")
	r.wait(700 * time.Millisecond)
	r.press(rules.Black)
	r.wait(time.Second)
	if got := strings.Join(r.announcements(), " | "); got != "Knight g1 to f3" {
		t.Fatalf("announcements after resuming %q", got)
	}
	if got := strings.Join(r.s.Record().UCIs(), " "); got != "e2e4 c7c5 g1f3" {
		t.Fatalf("record after resuming %s", got)
	}
}
