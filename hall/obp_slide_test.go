package hall

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/replay"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/nats-io/nats.go"
)

// TestSlideWatch: which square changes are a piece slid across a point
// (Art. 9.7): put down on the way and lifted within the commit debounce
// (200 ms), then put elsewhere. The first slide of a side is an info
// reminder, the next a warn technical-error candidate; a lift and return,
// a piece that stood long enough to be placed, a capture, a slide whose
// hand stopped and a chess game's slide are none.
func TestSlideWatch(t *testing.T) {
	sq := func(n string) rules.Square { return xqSquare(t, n) }
	chariot := rules.Piece{Color: rules.White, Kind: rules.Rook}
	horse := rules.Piece{Color: rules.Black, Kind: rules.Knight}
	lift := func(s string) game.Sensed { return game.SquareChange{Square: sq(s), Piece: rules.NoPiece} }
	put := func(s string, pc rules.Piece) game.Sensed { return game.SquareChange{Square: sq(s), Piece: pc} }
	type step struct {
		ms int
		r  game.Sensed
	}
	run := func(w *session.SlideWatch, rec *gamerecord.Record, steps []step) []game.Alert {
		var out []game.Alert
		for _, s := range steps {
			if al, ok := w.See(t0.Add(time.Duration(s.ms)*time.Millisecond), s.r, rec); ok {
				out = append(out, al)
			}
		}
		return out
	}
	s, err := session.NewSession(xqSessionOptions(t, ruleset.XiangqiVN2004), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	rec := s.Record()
	slide := func(from, via, to string, pc rules.Piece, at, stood int) []step {
		return []step{{at, lift(from)}, {at + 300, put(via, pc)}, {at + 300 + stood, lift(via)}, {at + 500 + stood, put(to, pc)}}
	}
	for _, c := range []struct {
		name  string
		steps []step
		want  int
	}{
		{"a slide", slide("a0", "a1", "a3", chariot, 0, 120), 1},
		{"a slide with clock readings between", []step{{0, lift("a0")}, {100, game.ClockFace{}}, {300, put("a1", chariot)}, {350, game.ClockFace{}}, {400, lift("a1")}, {450, game.ClockFace{}}, {600, put("a3", chariot)}}, 1},
		{"stood 250 ms: placed, then moved on (9.5(b), not a slide)", slide("a0", "a1", "a3", chariot, 0, 250), 0},
		{"lifted and put back, then moved", []step{{0, lift("a0")}, {200, put("a0", chariot)}, {300, lift("a0")}, {600, put("a1", chariot)}}, 0},
		{"a capture", []step{{0, lift("a0")}, {200, lift("a3")}, {400, put("a3", chariot)}}, 0},
		{"the hand stopped for 4 s", slide("a0", "a1", "a3", chariot, 0, 100)[:3], 0},
		{"a whole board read in between", append(slide("a0", "a1", "a3", chariot, 0, 100)[:3], step{500, game.FullRead{}}, step{600, put("a3", chariot)}), 0},
	} {
		w := session.NewSlideWatch(s)
		if got := run(w, rec, c.steps); len(got) != c.want {
			t.Errorf("%s: %d alerts, want %d: %+v", c.name, len(got), c.want, got)
		}
	}
	w := session.NewSlideWatch(s)
	al := run(w, rec, append(slide("a0", "a1", "a3", chariot, 0, 120), slide("b9", "b8", "b6", horse, 5000, 80)...))
	al = append(al, run(w, rec, slide("a3", "a4", "a6", chariot, 9000, 150))...)
	if len(al) != 3 {
		t.Fatalf("three slides, %d alerts: %+v", len(al), al)
	}
	if a := al[0]; a.Kind != game.KindTouchMove || a.Article != "9.7" || a.Severity != game.Info || a.Side != "white" || a.Proposal["via"] != "a1" ||
		a.Proposal["from"] != "a0" || a.Proposal["to"] != "a3" || !strings.Contains(a.Message, "Red slid a Red chariot across a1") || len(a.Evidence) != 3 {
		t.Errorf("first slide: %+v", a)
	}
	if a := al[1]; a.Severity != game.Info || a.Side != "black" {
		t.Errorf("Black's first slide: %+v", a)
	}
	if a := al[2]; a.Severity != game.Warn || a.Proposal["slides"] != 2 || a.Proposal["penalty"] != "technical_error" || !strings.Contains(a.Message, `"side":"white"`) {
		t.Errorf("Red's second slide: %+v", a)
	}
	// A chess game: the FIDE Laws have no such rule.
	cs, err := session.NewSession(sessionOptions(t), nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if session.NewSlideWatch(cs).Watching() {
		t.Errorf("chess: watching slides")
	}
}

// TestOBPSlides: on an OBP xiangqi board on a pseudo-terminal, through a
// real NATS server, Red slides his chariot across a1 on its way to a2 (the
// piece on a1 for 100 ms), then, two plies later, the other chariot across
// i1 to i2: the
// arbiter gets a 9.7 reminder (info), then a technical-error candidate
// (warn); the moves are recorded as a0a2 and i0i2, nothing else is made of
// the slides; replaying the board's recording finds the same two alerts.
func TestOBPSlides(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	b := newOBPPTY(t, emu.Options{Serial: "XQ-SLIDE", Base: 15 * time.Minute, Increment: 5 * time.Second})
	red, black := rules.White, rules.Black
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	chariot := rules.Piece{Color: red, Kind: rules.Rook}
	horse := rules.Piece{Color: black, Kind: rules.Knight}
	sq := func(n string) rules.Square { return xqSquare(t, n) }
	s := emu.Script{
		{At: 0, Action: emu.Lever{Side: black}},
		{At: ms(1000), Action: emu.Lift{Square: sq("a0")}},
		{At: ms(1300), Action: emu.Put{Square: sq("a1"), Piece: chariot}},
		{At: ms(1400), Action: emu.Lift{Square: sq("a1")}},
		{At: ms(1600), Action: emu.Put{Square: sq("a2"), Piece: chariot}},
		{At: ms(2300), Action: emu.Lever{Side: red}},
		{At: ms(4000), Action: emu.Lift{Square: sq("h9")}},
		{At: ms(4500), Action: emu.Put{Square: sq("g7"), Piece: horse}},
		{At: ms(5200), Action: emu.Lever{Side: black}},
		{At: ms(7000), Action: emu.Lift{Square: sq("i0")}},
		{At: ms(7300), Action: emu.Put{Square: sq("i1"), Piece: chariot}},
		{At: ms(7400), Action: emu.Lift{Square: sq("i1")}},
		{At: ms(7600), Action: emu.Put{Square: sq("i2"), Piece: chariot}},
		{At: ms(8300), Action: emu.Lever{Side: red}},
	}
	g := game.ID{Event: "open2026", Round: 1, Board: 12}
	hb := obpBoardFor(t, "xq12", g, ruleset.XiangqiVN2004, "", "900+5", b.Open)
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	alerts := subscribe(t, arb, testPrefix+".arbiter."+g.String()+".alert")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, hb)
	waitConnected(t, d.h)
	b.e.Schedule(time.Now().Add(500*time.Millisecond), s)

	var slides []game.Alert
	keep := func(a game.Alert) {
		if a.Article == "9.7" {
			slides = append(slides, a)
		} else if a.Severity != game.Info {
			t.Errorf("unexpected alert %s %s: %s", a.Kind, a.Severity, a.Message)
		}
	}
	awaitAlert(t, alerts, 30*time.Second, "the second slide", keep, func(a game.Alert) bool { return a.Article == "9.7" && a.Severity == game.Warn })
	if len(slides) != 2 || slides[0].Severity != game.Info || slides[0].Proposal["via"] != "a1" || slides[1].Proposal["via"] != "i1" || slides[1].Proposal["slides"] != float64(2) {
		t.Errorf("slides %+v", slides)
	}
	waitFor(t, 20*time.Second, "three moves", func() bool { r, _ := d.h.Record(g); return len(r.Moves) == 3 })
	r, _ := d.h.Record(g)
	if got := strings.Join(r.UCIs(), " "); got != "a0a2 h9g7 i0i2" {
		t.Errorf("record %s", got)
	}

	// The recording replays to the same moves and the same slides.
	d.stop()
	files, _ := filepath.Glob(filepath.Join(dir, "data", "record", "xq12", "*.hexlog"))
	if len(files) != 1 {
		t.Fatalf("recordings %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := ruleset.Lookup(ruleset.XiangqiVN2004)
	res, err := replay.OBP(bytes.NewReader(data), replay.Options{Session: session.SessionOptions{Info: gamerecord.Info{Game: g, Variant: "xiangqi", Ruleset: rs.Name}, RuleSet: rs, Tracker: session.DefaultTrackerOptions()}})
	if err != nil {
		t.Fatal(err)
	}
	var again []string
	for _, a := range res.Alerts {
		if a.Article == "9.7" {
			again = append(again, a.Severity+" "+a.Proposal["via"].(string))
		}
	}
	if strings.Join(again, ",") != "info a1,warn i1" || len(res.Games) == 0 || strings.Join(res.Games[0].UCIs(), " ") != "a0a2 h9g7 i0i2" {
		t.Errorf("replay: slides %v, games %d", again, len(res.Games))
	}
}

// TestXiangqiTouchWords: a touch finding on a xiangqi board names the
// pieces in xiangqi words: Red's horse lifted and put back, then the
// cannon moved (C2.5): the touch_move alert (Art. 9.1) says "horse h0",
// not the chess "knight", and cites the law's adjustment, 9.5(a).
func TestXiangqiTouchWords(t *testing.T) {
	o := xqSessionOptions(t, ruleset.XiangqiVN2004)
	o.NoBoard = false
	s, err := session.NewSession(o, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	red := rules.White
	var out []game.Payload
	at := t0
	feed := func(ms int, r game.Sensed) {
		at = at.Add(time.Duration(ms) * time.Millisecond)
		out = append(out, s.Sense(at, r).Out...)
	}
	feed(0, game.FullRead{Placement: s.Tracker().Position().Placement()})
	feed(1000, game.SquareChange{Square: xqSquare(t, "h0"), Piece: rules.NoPiece})
	feed(1500, game.SquareChange{Square: xqSquare(t, "h0"), Piece: rules.Piece{Color: red, Kind: rules.Knight}})
	feed(800, game.SquareChange{Square: xqSquare(t, "h2"), Piece: rules.NoPiece})
	feed(500, game.SquareChange{Square: xqSquare(t, "e2"), Piece: rules.Piece{Color: red, Kind: rules.Cannon}})
	for range 10 {
		at = at.Add(time.Second)
		out = append(out, s.Tick(at).Out...)
	}
	var touch []game.Alert
	for _, p := range out {
		if a, ok := p.(game.Alert); ok && a.Kind == game.KindTouchMove {
			touch = append(touch, a)
		}
	}
	if len(touch) != 1 || !strings.Contains(touch[0].Message, "horse h0 was touched first") || strings.Contains(touch[0].Message, "knight") || !strings.Contains(touch[0].Message, "(9.5(a))") || touch[0].Article != "9.1, 9.11" {
		t.Fatalf("touch alerts %+v (all: %v)", touch, alertKinds(out))
	}
}
