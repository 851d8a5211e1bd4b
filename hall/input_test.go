package hall

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules/adjudicator"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

func xqSessionOptions(t *testing.T, name string) session.SessionOptions {
	t.Helper()
	rs, err := ruleset.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return session.SessionOptions{Info: gamerecord.Info{Game: game.ID{Event: "open2026", Round: 1, Board: 7}, Variant: "xiangqi", Ruleset: rs.Name},
		RuleSet: rs, Tracker: session.DefaultTrackerOptions(), NoBoard: true}
}

func alertKinds(out []game.Payload) []string {
	var k []string
	for _, o := range out {
		if a, ok := o.(game.Alert); ok {
			k = append(k, a.Kind+"/"+a.Severity)
		}
	}
	return k
}

// TestEnterXiangqi: moves entered in every notation a xiangqi game takes
// become MoveEvents with the ICCS uci, WXF san and the short Vietnamese
// notation; a readable illegal move raises the board's illegal-move alert
// (a technical error candidate) and enters nothing; an unreadable one is
// only an error.
func TestEnterXiangqi(t *testing.T) {
	s, err := session.NewSession(xqSessionOptions(t, ruleset.XiangqiVN2004), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	at := t0
	var evs []game.MoveEvent
	for i, in := range []session.Input{
		{Move: "P2-5", Notation: "vi"},
		{Move: "M8.7", Notation: "vi"},
		{Move: "h0g2", Notation: "iccs"},
		{Move: "R9=8", Notation: "wxf"},
		{Move: "c3c4", Notation: "uci", Clock: &session.InputClock{WhiteMS: ptr(int64(5_300_000)), BlackMS: ptr(int64(5_350_000))}},
		{Move: "X1.1"},
	} {
		at = at.Add(20 * time.Second)
		st, ply, err := s.Enter(at, in)
		if err != nil || ply != i+1 {
			t.Fatalf("%+v: ply %d, %v", in, ply, err)
		}
		evs = append(evs, moveEvents(st.Out)...)
	}
	want := []struct{ uci, san, note string }{
		{"h2e2", "C2.5", "P2-5"}, {"h9g7", "H8+7", "M8.7"}, {"h0g2", "H2+3", "M2.3"},
		{"i9h9", "R9.8", "X9-8"}, {"c3c4", "P7+1", "B7.1"}, {"a9a8", "R1+1", "X1.1"},
	}
	if len(evs) != len(want) {
		t.Fatalf("move events: %+v", evs)
	}
	for i, w := range want {
		if e := evs[i]; e.UCI != w.uci || e.SAN != w.san || e.Notation != w.note || e.Ply != i+1 {
			t.Errorf("ply %d: %s %s %s, want %+v", i+1, e.UCI, e.SAN, e.Notation, w)
		}
	}
	if c := evs[4].Clock; c == nil || c.WhiteMS != 5_300_000 || c.BlackMS != 5_350_000 {
		t.Errorf("clock of ply 5: %+v", c)
	}
	if st := s.Record().State(); len(st.Notation) != 6 || st.Notation[0] != "P2-5" || st.Variant != "xiangqi" {
		t.Errorf("game state notation %v", st.Notation)
	}

	// Red's horse b0 to b3: readable, illegal.
	st, ply, err := s.Enter(at.Add(time.Minute), session.Input{Move: "b0b3", Notation: "iccs"})
	if !errors.Is(err, session.ErrIllegalEntry) || ply != 0 || len(s.Record().Moves) != 6 {
		t.Fatalf("illegal: ply %d err %v moves %d", ply, err, len(s.Record().Moves))
	}
	if k := alertKinds(st.Out); len(k) != 1 || k[0] != "illegal_move/crit" {
		t.Fatalf("illegal entry alerts %v", k)
	}
	al := st.Out[0].(game.Alert)
	if al.Proposal["technical_error"] != "white" || al.Ply != 7 || al.Side != "white" {
		t.Errorf("illegal alert %+v", al)
	}
	// In VN notation: Red's chariot on i0 blocked by its soldier on i3.
	st, _, err = s.Enter(at.Add(2*time.Minute), session.Input{Move: "X9.5", Notation: "vi"})
	if !errors.Is(err, session.ErrIllegalEntry) || len(alertKinds(st.Out)) != 1 || len(s.Record().Moves) != 6 {
		t.Errorf("X9.5: %v %v", err, alertKinds(st.Out))
	}
	st, _, err = s.Enter(at.Add(3*time.Minute), session.Input{Move: "Q7.1", Notation: "vi"})
	if !errors.Is(err, session.ErrUnreadable) || len(alertKinds(st.Out)) != 0 {
		t.Errorf("unreadable: %v %v", err, alertKinds(st.Out))
	}
	if _, _, err := s.Enter(at, session.Input{Move: "e4", Notation: "fen"}); !errors.Is(err, session.ErrUnreadable) {
		t.Errorf("unknown notation: %v", err)
	}
	// The PGN: WXF movetext with the ICCS comments.
	p := s.Record().PGN()
	for _, w := range []string{`[Variant "Xiangqi"]`, "1. C2.5 { [%iccs h2e2]", "H8+7\n{ [%iccs h9g7]"} {
		if !contains(p, w) {
			t.Errorf("PGN lacks %q:\n%s", w, p)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestEnterOnSilentBoard: a chess game whose board never answered takes
// entered moves (SAN and UCI); when the board comes back showing the start
// position, that is not a takeback of the entered moves nor a new game:
// the board is unexplained, for the arbiter; once it shows the game's
// position the game goes on from the board.
func TestEnterOnSilentBoard(t *testing.T) {
	s, err := session.NewSession(sessionOptions(t), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	at := t0
	for i, in := range []session.Input{{Move: "e4", Notation: "san"}, {Move: "e7e5", Notation: "uci"}, {Move: "Nf3"}} {
		at = at.Add(10 * time.Second)
		if _, ply, err := s.Enter(at, in); err != nil || ply != i+1 {
			t.Fatalf("%+v: %d %v", in, ply, err)
		}
	}
	at = at.Add(time.Minute)
	st := s.Sense(at, game.FullRead{Placement: chess.StartPosition(chess.Standard).Placement()})
	for range 10 {
		at = at.Add(time.Second)
		st.Out = append(st.Out, s.Tick(at).Out...)
	}
	for _, o := range st.Out {
		switch o.(type) {
		case game.Correction, game.MoveEvent:
			t.Fatalf("the board's old position changed the record: %+v", o)
		}
	}
	if len(s.Record().Moves) != 3 {
		t.Fatalf("record %v", s.Record().UCIs())
	}
	if k := alertKinds(st.Out); len(k) == 0 || k[0] != "displaced_pieces/crit" && k[0] != "displaced_pieces/warn" {
		t.Errorf("want a displaced_pieces alert, got %v", k)
	}
	// The board set to the game's position, then Black's reply made on it.
	at = at.Add(time.Second)
	s.Sense(at, game.FullRead{Placement: s.Tracker().Position().Placement()})
	at, out := play(t, s, at, "b8c6")
	if evs := moveEvents(out); len(evs) != 1 || evs[0].Ply != 4 || evs[0].SAN != "Nc6" {
		t.Fatalf("after the board came back: %+v", out)
	}
	// A chess game refuses xiangqi notations.
	if _, _, err := s.Enter(at, session.Input{Move: "P2-5", Notation: "vi"}); !errors.Is(err, session.ErrUnreadable) {
		t.Errorf("vi on chess: %v", err)
	}
}

// TestEnterManualReinstate: on a manual board the arbiter's reinstate
// takes the record back and further entries go on from there (the
// tracker's board follows the record, so nothing is read as a set-up).
func TestEnterManualReinstate(t *testing.T) {
	s, err := session.NewSession(xqSessionOptions(t, ruleset.XiangqiVN2004), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	at := t0
	for _, m := range []string{"h2e2", "h9g7", "h0g2"} {
		at = at.Add(10 * time.Second)
		if _, _, err := s.Enter(at, session.Input{Move: m, Notation: "iccs"}); err != nil {
			t.Fatal(err)
		}
	}
	ply := 1
	if _, err := s.Command(cmdReinstate(ply), at); err != nil {
		t.Fatal(err)
	}
	at = at.Add(10 * time.Second)
	st, p, err := s.Enter(at, session.Input{Move: "b9c7", Notation: "iccs"})
	if err != nil || p != 2 || len(s.Record().Moves) != 2 {
		t.Fatalf("after reinstate: %d %v %v", p, err, s.Record().UCIs())
	}
	for range 5 {
		at = at.Add(time.Second)
		st.Out = append(st.Out, s.Tick(at).Out...)
	}
	if k := alertKinds(st.Out); len(k) != 0 {
		t.Errorf("alerts on a manual board: %v", k)
	}
	if s.Tracker().Position().FEN() != s.Record().FEN() {
		t.Errorf("tracker %s record %s", s.Tracker().Position().FEN(), s.Record().FEN())
	}
}

func cmdReinstate(ply int) adjudicator.Command {
	return adjudicator.Command{Cmd: "reinstate", Ply: &ply}
}

// TestHallRefusesXiangqiOnDGT: a xiangqi game cannot be read by a DGT
// board (8×8): the hall refuses it with the board named; an OBP board and a
// manual board take it.
func TestHallRefusesXiangqiOnDGT(t *testing.T) {
	g := game.ID{Event: "open2026", Round: 1, Board: 9}
	noPort := func(context.Context) (io.ReadWriteCloser, error) { return nil, errors.New("no port") }
	hb := obpBoardFor(t, "xq9", g, ruleset.XiangqiVN2004, "", "", noPort)
	hb.Protocol = ProtocolDGT
	if _, err := New(Options{Boards: []Board{hb}, Sink: &timedSink{}, DataDir: t.TempDir()}); !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "board xq9: a DGT board (8×8) cannot read a xiangqi game") {
		t.Errorf("New with a DGT board for a xiangqi game: %v", err)
	}
	for _, p := range []Protocol{ProtocolOBP, ProtocolManual} {
		hb.Protocol = p
		if _, err := New(Options{Boards: []Board{hb}, Sink: &timedSink{}, DataDir: t.TempDir()}); err != nil {
			t.Errorf("protocol %v: %v", p, err)
		}
	}
}
