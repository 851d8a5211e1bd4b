package hall

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	dgtemu "github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/replay"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	obplink "github.com/dgtbridge/dgtbridge/obp/link"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/clock"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi/games"
	"github.com/nats-io/nats.go"
)

// obpPTY serves an emulated OBP board on a real pseudo-terminal, opened by
// the daemon as a serial device is.
type obpPTY struct {
	e      *emu.Emulator
	path   atomic.Value
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newOBPPTY(t *testing.T, o emu.Options) *obpPTY {
	t.Helper()
	e, err := emu.New(o, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	b := &obpPTY{e: e}
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	b.path.Store(path)
	b.wg.Go(func() { dgtemu.ServePTY(ctx, m, e) })
	t.Cleanup(func() { b.cancel(); b.wg.Wait() })
	return b
}

func (b *obpPTY) Open(context.Context) (io.ReadWriteCloser, error) {
	return os.OpenFile(b.path.Load().(string), os.O_RDWR|syscall.O_NOCTTY, 0)
}

// patientOBP: the OBP link's time-outs on a loaded test machine.
var patientOBP = obplink.Settings{IdentifyInterval: 5 * time.Second, ReplyTimeout: 10 * time.Second, Watchdog: 10 * time.Second}

// obpBoardFor is a hall board reading an OBP board for a game of rule set
// rsName from fen ("" the start).
func obpBoardFor(t *testing.T, id string, g game.ID, rsName, fen, tc string, open func(context.Context) (io.ReadWriteCloser, error)) Board {
	t.Helper()
	rs, err := ruleset.Lookup(rsName)
	if err != nil {
		t.Fatal(err)
	}
	var ctl clock.TimeControl
	if tc != "" {
		ctl = clock.MustParse(tc)
	}
	return Board{ID: id, Port: "pty", Protocol: ProtocolOBP, Open: open, OBP: patientOBP, Session: session.SessionOptions{
		Info:     gamerecord.Info{Game: g, White: "Red " + id, Black: "Black " + id, Variant: rs.Variant, Ruleset: rs.Name, TimeControl: tc},
		StartFEN: fen, RuleSet: rs, TimeControl: ctl, Tracker: session.DefaultTrackerOptions(),
	}}
}

// ccpdGame returns the first n plies of built-in game i (1-based).
func ccpdGame(t *testing.T, i, n int) (*xiangqi.Position, []rules.Move) {
	t.Helper()
	all, errs := pgn.ReadAll(strings.NewReader(games.CCPD), pgn.ReaderOptions{Variations: pgn.SkipVariations})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g := all[i-1]
	var moves []rules.Move
	for _, m := range g.Moves[:min(n, len(g.Moves))] {
		moves = append(moves, m.Move)
	}
	return xiangqi.StartPosition(), moves
}

// subscribe subscribes conn to subject into a channel (flushed).
func subscribe(t *testing.T, nc *nats.Conn, subject string) chan *nats.Msg {
	t.Helper()
	ch := make(chan *nats.Msg, 1024)
	if _, err := nc.ChanSubscribe(subject, ch); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return ch
}

// TestOBPXiangqiLive: a real master game played by human hands on an
// emulated OBP xiangqi board on a pseudo-terminal (a line damaged on the
// cable now and then), read through obp/link
// and obp/obpfeed into the tracker, published through a real NATS server:
// every MoveEvent has the ICCS move in uci, WXF in san and the short
// Vietnamese notation of 001; the PGN over the NATS API is Xiangqi with
// WXF movetext and [%iccs]; the hexlog recording holds the OBP lines; the
// board's status names it.
func TestOBPXiangqiLive(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	start, moves := ccpdGame(t, 1, 24)
	b := newOBPPTY(t, emu.Options{Serial: "XQ0042", Base: 15 * time.Minute, Increment: 10 * time.Second})
	s, err := emu.GameScript(start, moves, emu.GameOptions{Think: func(int) time.Duration { return 400 * time.Millisecond }, Speed: 2, Seed: 7, Incidents: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	// Now and then a line is damaged on the cable (a lift, a put): the
	// daemon drops it and asks for the whole board, which shows the move.
	for _, i := range []int{30, 17, 6} {
		s = append(s[:i], append(emu.Script{{At: s[i].At, Action: emu.Garble{}}}, s[i:]...)...)
	}
	g := game.ID{Event: "open2026", Round: 1, Board: 1}
	hb := obpBoardFor(t, "xq1", g, ruleset.XiangqiVN2004, "", "900+10", b.Open)
	org := connect(t, srv, "hall", "hall-pw")
	movesCh := subscribe(t, org, testPrefix+".game."+g.String()+".move")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, hb)
	waitConnected(t, d.h)
	b.e.Schedule(time.Now().Add(500*time.Millisecond), s)

	var got []game.MoveEvent
	deadline := time.After(90 * time.Second)
	for len(got) < len(moves) {
		select {
		case m := <-movesCh:
			var ev game.MoveEvent
			if decode(t, m.Data, &ev) {
				got = append(got, ev)
			}
		case <-deadline:
			t.Fatalf("%d of %d moves published", len(got), len(moves))
		}
	}
	pos := rules.Position(start)
	for i, m := range moves {
		ev := got[i]
		xp := pos.(*xiangqi.Position)
		if ev.Ply != i+1 || ev.UCI != pos.UCI(m) || ev.Notation != xp.Notation(m, xiangqi.DialectVN) || ev.SAN != xp.Notation(m, xiangqi.DialectWXF) {
			t.Errorf("ply %d: %+v, want %s %s %s", i+1, ev, pos.UCI(m), xp.Notation(m, xiangqi.DialectVN), xp.Notation(m, xiangqi.DialectWXF))
		}
		pos, _ = pos.Play(m)
		if ev.FEN != pos.FEN() || ev.Clock == nil {
			t.Errorf("ply %d: fen %s clock %v", i+1, ev.FEN, ev.Clock)
		}
	}
	// The round's PGN over NATS.
	rep, err := org.Request(testPrefix+".api.pgn."+g.Event+".1", nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	p := string(rep.Data)
	first := "1. " + start.Notation(moves[0], xiangqi.DialectWXF) + " { [%iccs " + start.UCI(moves[0]) + "]"
	for _, w := range []string{`[Variant "Xiangqi"]`, `[White "Red xq1"]`, first} {
		if !strings.Contains(p, w) {
			t.Errorf("PGN lacks %q:\n%s", w, p)
		}
	}
	if r, _ := d.h.Record(g); r.Status() != gamerecord.StatusPlaying {
		t.Errorf("status %s", r.Status())
	}
	if _, damaged := b.e.Lines(); damaged != 3 {
		t.Errorf("%d lines damaged, want 3", damaged)
	}
	d.stop()
	logs, _ := filepath.Glob(filepath.Join(dir, "data", "record", "xq1", "*.hexlog"))
	if len(logs) == 0 {
		t.Fatal("no recording")
	}
	raw, _ := os.ReadFile(logs[0])
	if !strings.Contains(string(raw), " > 49 0a") || !strings.Contains(string(raw), " < ") {
		t.Errorf("recording lacks the host's I and the board's lines:\n%.400s", raw)
	}
	// The recording replays to the same game.
	if !replay.IsOBPRecording(raw) {
		t.Error("the recording is not recognised as an OBP board's")
	}
	res, err := replay.OBP(strings.NewReader(string(raw)), replay.Options{Session: hb.Session, BadLine: func(err error) { t.Logf("replay: %v", err) }})
	if err != nil || len(res.Games) != 1 {
		t.Fatalf("replay: %v, %d games", err, len(res.Games))
	}
	var want []string
	for _, ev := range got {
		want = append(want, ev.UCI)
	}
	if r := res.Games[0]; strings.Join(r.UCIs(), " ") != strings.Join(want, " ") || r.Moves[0].Notation != got[0].Notation {
		t.Errorf("replayed %v\nwant %v", r.UCIs(), want)
	}
	for _, a := range res.Alerts {
		if a.Severity != game.Info {
			t.Errorf("replay alert %s %s: %s", a.Kind, a.Severity, a.Message)
		}
	}
}

// TestOBPChessLive: a chess board speaking OBP, sensing only occupancy,
// plays the opening of a game: the moves are read (the translator names
// the pieces from the game's position) and published as SAN/UCI; the
// board's E line is an arbiter alert (board_fault) and nothing else.
func TestOBPChessLive(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	start := chess.StartPosition(chess.Standard)
	var moves []rules.Move
	pos := rules.Position(start)
	for _, u := range strings.Fields("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6") {
		m := mustMove(t, pos, u)
		moves = append(moves, m)
		pos, _ = pos.Play(m)
	}
	b := newOBPPTY(t, emu.Options{Geo: rules.Chess8x8, Serial: "DIY-7", Occupancy: true, Base: 15 * time.Minute, Increment: 10 * time.Second})
	s, err := emu.GameScript(start, moves, emu.GameOptions{Think: func(int) time.Duration { return 400 * time.Millisecond }, Speed: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	s = append(s, emu.Step{At: s.Duration() + time.Second, Action: emu.Fault{Code: "12", Text: "row 3 sensor stuck"}})
	g := game.ID{Event: "open2026", Round: 1, Board: 2}
	hb := obpBoardFor(t, "c2", g, ruleset.FIDE2018Standard, "", "900+10", b.Open)
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	alerts := subscribe(t, arb, testPrefix+".arbiter."+g.String()+".alert")
	movesCh := subscribe(t, arb, testPrefix+".game."+g.String()+".move")
	status := subscribe(t, arb, testPrefix+".board.c2.status")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, hb)
	waitConnected(t, d.h)
	b.e.Schedule(time.Now().Add(500*time.Millisecond), s)

	var sans []string
	deadline := time.After(60 * time.Second)
	for len(sans) < len(moves) {
		select {
		case m := <-movesCh:
			var ev game.MoveEvent
			if decode(t, m.Data, &ev) {
				sans = append(sans, ev.SAN)
			}
		case <-deadline:
			t.Fatalf("moves %v", sans)
		}
	}
	if strings.Join(sans, " ") != "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6" {
		t.Errorf("moves %v", sans)
	}
	var kinds []string
	awaitAlert(t, alerts, 30*time.Second, "the board's fault", func(a game.Alert) { kinds = append(kinds, a.Kind) },
		func(a game.Alert) bool { return a.Kind == game.KindBoardFault && a.Proposal["code"] == "12" })
	for _, k := range kinds {
		if k == game.KindIllegalMove || k == game.KindDisplaced || k == game.KindUnidentified {
			t.Errorf("unexpected alert %s", k)
		}
	}
	// The board's status names it.
	rep := func() game.BoardStatus {
		var st game.BoardStatus
		for {
			select {
			case m := <-status:
				decode(t, m.Data, &st)
			default:
				return st
			}
		}
	}()
	if !rep.Connected || rep.Version != "OBP/1 8x8 occupancy" || rep.Serial != "DIY-7" || rep.Clock != "OBP clock" {
		t.Errorf("status %+v", rep)
	}
}

// xqSquare names a xiangqi point.
func xqSquare(t *testing.T, name string) rules.Square {
	t.Helper()
	s, err := rules.Xiangqi9x10.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestOBPPerpetualCheck: Art. 24.2 played on an OBP board set up at a
// position of the case: Red's chariot checks on every move. At the third
// occurrence of the position the arbiter is told that Red must change
// (perpetual, warn, no result); when Red repeats the cycle once more, Red's
// loss is proposed (crit, 0-1); the daemon sets no result.
func TestOBPPerpetualCheck(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	const fen = "3k3R1/9/9/9/9/9/9/9/9/5K3 b - - 0 1"
	start, err := xiangqi.NewPosition(fen)
	if err != nil {
		t.Fatal(err)
	}
	pl := start.Placement()
	var moves []rules.Move
	pos := rules.Position(start)
	for range 3 {
		for _, u := range strings.Fields("d9d8 h9h8 d8d9 h8h9") {
			m := mustMove(t, pos, u)
			moves = append(moves, m)
			pos, _ = pos.Play(m)
		}
	}
	b := newOBPPTY(t, emu.Options{Serial: "XQ0024", Placement: &pl, Base: 15 * time.Minute, Increment: 10 * time.Second})
	s, err := emu.GameScript(start, moves, emu.GameOptions{Think: func(int) time.Duration { return 500 * time.Millisecond }, Speed: 2, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	g := game.ID{Event: "open2026", Round: 1, Board: 5}
	hb := obpBoardFor(t, "xq5", g, ruleset.XiangqiVN2004, fen, "900+10", b.Open)
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	alerts := subscribe(t, arb, testPrefix+".arbiter."+g.String()+".alert")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, hb)
	waitConnected(t, d.h)
	b.e.Schedule(time.Now().Add(500*time.Millisecond), s)

	var seen []game.Alert
	keep := func(a game.Alert) { seen = append(seen, a) }
	awaitAlert(t, alerts, 60*time.Second, "Red must change", keep, func(a game.Alert) bool {
		return a.Kind == game.KindPerpetual && a.Ply == 8 && a.Severity == game.Warn && a.Side == "white" && a.Proposal["must_change"] == "white"
	})
	awaitAlert(t, alerts, 60*time.Second, "Red's loss proposed", keep, func(a game.Alert) bool {
		return a.Kind == game.KindPerpetual && a.Ply == 12 && a.Severity == game.Crit && a.Side == "white" && a.Proposal["result"] == "0-1"
	})
	for _, a := range seen {
		if a.Kind != game.KindPerpetual && a.Kind != game.KindTouchMove {
			t.Errorf("unexpected alert %s: %s", a.Kind, a.Message)
		}
	}
	waitFor(t, 10*time.Second, "the twelfth ply", func() bool { r, _ := d.h.Record(g); return len(r.Moves) == 12 })
	if r, _ := d.h.Record(g); r.Result != "*" {
		t.Errorf("the daemon decided: %s", r.Result)
	}
}

// TestOBPIllegalAndTouch: on an OBP xiangqi board Red touches the cannon
// on h2, puts it back and moves the other cannon (touch-move evidence for
// the arbiter, Art. 9.1, info: ruled only when a player asks); Black moves
// a horse straight ahead and presses the clock: the illegal-move alert (a
// technical error candidate, the position to be restored, 9.10), nothing
// entered; Black puts the horse back (the record is reinstated) and the
// game goes on.
func TestOBPIllegalAndTouch(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	b := newOBPPTY(t, emu.Options{Serial: "XQ0009", Base: 15 * time.Minute, Increment: 10 * time.Second})
	red, black := rules.White, rules.Black
	cannon := rules.Piece{Color: red, Kind: rules.Cannon}
	horse := rules.Piece{Color: black, Kind: rules.Knight}
	sec := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	s := emu.Script{
		{At: 0, Action: emu.Lever{Side: black}}, // Red's clock starts
		{At: sec(1), Action: emu.Lift{Square: xqSquare(t, "h2")}},
		{At: sec(1.6), Action: emu.Put{Square: xqSquare(t, "h2"), Piece: cannon}},
		{At: sec(3), Action: emu.Lift{Square: xqSquare(t, "b2")}},
		{At: sec(3.5), Action: emu.Put{Square: xqSquare(t, "e2"), Piece: cannon}},
		{At: sec(4.2), Action: emu.Lever{Side: red}},
		{At: sec(6), Action: emu.Lift{Square: xqSquare(t, "b9")}},
		{At: sec(6.5), Action: emu.Put{Square: xqSquare(t, "b6"), Piece: horse}},
		{At: sec(7.2), Action: emu.Lever{Side: black}},
		{At: sec(12), Action: emu.Lift{Square: xqSquare(t, "b6")}},
		{At: sec(12.5), Action: emu.Put{Square: xqSquare(t, "b9"), Piece: horse}},
	}
	g := game.ID{Event: "open2026", Round: 1, Board: 6}
	hb := obpBoardFor(t, "xq6", g, ruleset.XiangqiVN2004, "", "900+10", b.Open)
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	alerts := subscribe(t, arb, testPrefix+".arbiter."+g.String()+".alert")
	corrections := subscribe(t, arb, testPrefix+".game."+g.String()+".correction")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, hb)
	waitConnected(t, d.h)
	b.e.Schedule(time.Now().Add(500*time.Millisecond), s)

	var seen []game.Alert
	keep := func(a game.Alert) { seen = append(seen, a) }
	awaitAlert(t, alerts, 30*time.Second, "the touch-move evidence", keep, func(a game.Alert) bool {
		return a.Kind == game.KindTouchMove && a.Side == "white" && a.Severity == game.Info && strings.Contains(a.Article, "9.1")
	})
	awaitAlert(t, alerts, 30*time.Second, "the illegal move", keep, func(a game.Alert) bool {
		return a.Kind == game.KindIllegalMove && a.Severity == game.Crit && a.Side == "black" && a.Ply == 2 && a.Proposal["technical_error"] == "black"
	})
	select {
	case m := <-corrections:
		var c game.Correction
		if decode(t, m.Data, &c) && (c.Ply != 1 || c.Reason != game.Reinstatement) {
			t.Errorf("correction %+v", c)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no reinstatement after the horse went back")
	}
	if r, _ := d.h.Record(g); len(r.Moves) != 1 || r.Moves[0].UCI != "b2e2" || r.Moves[0].Notation != "P8-5" {
		t.Errorf("record %+v", r.Moves)
	}
}

// unplug stops serving the board (the cable is pulled); plug serves it on
// a new pseudo-terminal (it comes back, perhaps under another name).
func (b *obpPTY) unplug() {
	b.cancel()
	b.wg.Wait()
}

func (b *obpPTY) plug(t *testing.T) {
	t.Helper()
	m, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.cancel = cancel
	b.path.Store(path)
	b.wg.Go(func() { dgtemu.ServePTY(ctx, m, b.e) })
}

// TestOBPOccupancyIdentify: a xiangqi board that senses only occupancy
// loses its cable; meanwhile Red plays the central cannon. When it comes
// back, its whole board shows e2 occupied by a piece the daemon cannot
// name: the arbiter gets an unidentified_piece alert proposing the
// identify command; the arbiter names it (a red cannon) and the move the
// board shows is caught up as h2e2 (P2-5).
func TestOBPOccupancyIdentify(t *testing.T) {
	integration(t)
	dir := t.TempDir()
	srv := testServer(t, filepath.Join(dir, "nats"))
	t.Cleanup(srv.Shutdown)
	b := newOBPPTY(t, emu.Options{Serial: "XQ-OCC", Occupancy: true, NoClock: true})
	g := game.ID{Event: "open2026", Round: 1, Board: 8}
	hb := obpBoardFor(t, "xq8", g, ruleset.XiangqiVN2004, "", "", b.Open)
	hb.OBP.BackoffMax = 500 * time.Millisecond
	arb := connect(t, srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	alerts := subscribe(t, arb, testPrefix+".arbiter."+g.String()+".alert")
	moves := subscribe(t, arb, testPrefix+".game."+g.String()+".move")
	d := startDaemon(t, filepath.Join(dir, "data"), srv, 0, hb)
	waitConnected(t, d.h)

	b.unplug()
	waitFor(t, 20*time.Second, "the board lost", func() bool { _, dis := d.h.Summary(); return dis == 1 })
	cannon := rules.Piece{Color: rules.White, Kind: rules.Cannon}
	now := time.Now()
	b.e.Schedule(now, emu.Script{{At: 0, Action: emu.Lift{Square: xqSquare(t, "h2")}},
		{At: 300 * time.Millisecond, Action: emu.Put{Square: xqSquare(t, "e2"), Piece: cannon}}})
	b.e.Advance(now.Add(time.Second))
	b.e.Output() // nobody hears it
	b.plug(t)
	var al game.Alert
	awaitAlert(t, alerts, 30*time.Second, "the unidentified piece", nil, func(a game.Alert) bool {
		al = a
		return a.Kind == game.KindUnidentified
	})
	if al.Proposal["cmd"] != "identify" || al.Proposal["square"] != "e2" || al.Severity != game.Warn {
		t.Fatalf("alert %+v", al)
	}
	rep, err := arb.Request(testPrefix+".arbiter."+g.String()+".cmd", []byte(`{"cmd":"identify","square":"e2","piece":"C","alert_id":"`+al.ID+`","by":"arb"}`), 20*time.Second)
	var cr CommandReply
	if err != nil || !decode(t, rep.Data, &cr) || !cr.OK {
		t.Fatalf("identify: %v %s", err, rep.Data)
	}
	// The arbiter's action is on the record, answering the alert.
	awaitAlert(t, alerts, 30*time.Second, "the identify record", nil, func(a game.Alert) bool {
		if a.Kind != game.KindCommand {
			return false
		}
		if a.Proposal["cmd"] != "identify" || a.Proposal["square"] != "e2" || a.Proposal["piece"] != "C" || a.Proposal["alert"] != al.ID ||
			!strings.Contains(a.Message, "Red cannon") || !strings.Contains(a.Message, "(arb)") {
			t.Errorf("identify record %+v", a)
		}
		return true
	})
	select {
	case m := <-moves:
		var ev game.MoveEvent
		if decode(t, m.Data, &ev) && (ev.Ply != 1 || ev.UCI != "h2e2" || ev.Notation != "P2-5") {
			t.Errorf("move %+v", ev)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the move the board shows was not caught up")
	}
	// A bad identify is refused and changes nothing.
	rep, err = arb.Request(testPrefix+".arbiter."+g.String()+".cmd", []byte(`{"cmd":"identify","square":"z9","piece":"C"}`), 20*time.Second)
	if err != nil || !decode(t, rep.Data, &cr) || cr.OK || !strings.Contains(cr.Error, "square") {
		t.Errorf("bad identify: %v %s", err, rep.Data)
	}
}
