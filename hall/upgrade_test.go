package hall

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/hall/gamerecord"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The upgrade fixtures are data folders written by the release before
// data folders carried their format, each beside the manifest that
// release wrote of it (their README.md says how they were made): one
// stopped cleanly, one killed (SIGKILL) in the middle of a game.
const (
	upgradeFixture       = "testdata/upgrade-format1"
	upgradeFixtureKilled = "testdata/upgrade-format1-killed"
)

// upgradeManifest is what the older release held of its data folder (at
// its stop, or resumed after the kill) and what it read back from the
// folder (manifest.json).
type upgradeManifest struct {
	Commit        string                  `json:"commit"`
	Prefix        string                  `json:"prefix"`
	PublicDelayMS int64                   `json:"public_delay_ms"`
	Games         []upgradeGame           `json:"games"`
	Streams       map[string][]upgradeMsg `json:"streams"`
	Bucket        map[string]upgradeMsg   `json:"bucket"`
	Alerts        []upgradeAlert          `json:"alerts"`
	Outbox        []upgradeOutbox         `json:"outbox"`
}

// upgradeGame is one game's record as the older release held it (at its
// stop, or resumed after the kill), and its public copy then.
type upgradeGame struct {
	Board        string           `json:"board"`
	Game         string           `json:"game"`
	Variant      string           `json:"variant"`
	White        string           `json:"white"`
	Black        string           `json:"black"`
	Moves        []gamerecord.Ply `json:"moves"`
	Result       string           `json:"result"`
	Termination  string           `json:"termination"`
	Provisional  bool             `json:"provisional"`
	Revision     int              `json:"revision"`
	Status       string           `json:"status"`
	Clock        *game.ClockPair  `json:"clock"`
	PGN          string           `json:"pgn"`
	PublicPlies  int              `json:"public_plies"`
	PublicResult string           `json:"public_result"`
	PublicPGN    string           `json:"public_pgn"`
	parsed       game.ID          // Game parsed
}

// upgradeMsg is a message of a stream (or the bucket's value of a key):
// its sequence, subject, Nats-Msg-Id and payload's size and SHA-256.
type upgradeMsg struct {
	Seq     uint64 `json:"seq"`
	Subject string `json:"subject"`
	ID      string `json:"id"`
	Size    int    `json:"size"`
	SHA256  string `json:"sha256"`
}

// upgradeOutbox is a message waiting in the outbox at the stop.
type upgradeOutbox struct {
	Seq     uint64 `json:"seq"`
	DueMS   int64  `json:"due_ms"`
	Subject string `json:"subject"`
	ID      string `json:"id"`
	Public  bool   `json:"public"`
	Size    int    `json:"size"`
	SHA256  string `json:"sha256"`
}

// upgradeAlert is an alert on the alerts stream.
type upgradeAlert struct {
	ID       string `json:"id"`
	Game     string `json:"game"`
	Kind     string `json:"kind"`
	Severity string `json:"severity"`
	Ply      int    `json:"ply"`
}

func readUpgradeManifest(t *testing.T, fixture string) upgradeManifest {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixture, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m upgradeManifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if len(m.Games) == 0 || len(m.Outbox) == 0 || len(m.Alerts) == 0 || len(m.Streams["DGT_PUBLIC"]) == 0 {
		t.Fatalf("%s/manifest.json holds %d games, %d outbox messages, %d alerts, %d public messages: a fixture without each proves nothing",
			fixture, len(m.Games), len(m.Outbox), len(m.Alerts), len(m.Streams["DGT_PUBLIC"]))
	}
	for i := range m.Games {
		g, err := game.ParseID(m.Games[i].Game)
		if err != nil {
			t.Fatalf("manifest game %q: %v", m.Games[i].Game, err)
		}
		m.Games[i].parsed = g
	}
	return m
}

// upgraded is the fixture's data folder copied and opened by this build:
// the format it had, the server on its store and the hall on the rest.
type upgraded struct {
	data string
	was  int
	srv  *broadcast.Server
	d    *daemon
	m    upgradeManifest
}

// upgradeBoards are the hall's boards as the older release had them, one
// a game of the manifest: the DGT boards' ports absent now (their games
// resume from the data folder alone) unless ports names one, the xiangqi
// games on manual boards.
func upgradeBoards(t *testing.T, m upgradeManifest, ports map[string]port.Opener) []Board {
	t.Helper()
	absent := func(context.Context) (io.ReadWriteCloser, error) { return nil, errors.New("test: port absent") }
	var out []Board
	for _, g := range m.Games {
		open := absent
		if o, ok := ports[g.Board]; ok {
			open = o
		}
		b := boardFor(t, g.Board, g.parsed, open)
		b.Session.Info.White, b.Session.Info.Black = g.White, g.Black
		if g.Variant == "xiangqi" {
			rs, err := ruleset.Lookup(ruleset.XiangqiVN2004)
			if err != nil {
				t.Fatal(err)
			}
			b = Board{ID: g.Board, Protocol: ProtocolManual, Session: session.SessionOptions{
				Info:    gamerecord.Info{Game: g.parsed, White: g.White, Black: g.Black, Variant: "xiangqi", Ruleset: rs.Name, TimeControl: "5400+30"},
				RuleSet: rs, Tracker: session.DefaultTrackerOptions()}}
		}
		out = append(out, b)
	}
	return out
}

// startUpgraded copies fixture's data folder, lets change alter the
// copy (nil: none), and starts this build on it as the daemon does: the
// folder's format first, then the embedded server on <data>/nats, the
// publisher and the hall. It returns once the publisher has sent
// everything the outbox held.
func startUpgraded(t *testing.T, fixture string, change func(data string), ports map[string]port.Opener) *upgraded {
	t.Helper()
	u := &upgraded{data: filepath.Join(t.TempDir(), "data"), m: readUpgradeManifest(t, fixture)}
	if err := os.CopyFS(u.data, os.DirFS(filepath.Join(fixture, "data"))); err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(u.data)
	}
	var err error
	if u.was, err = storage.PrepareDataDir(storage.OS, u.data); err != nil {
		t.Fatalf("the older release's data folder: %v", err)
	}
	u.srv = testServer(t, filepath.Join(u.data, "nats"))
	t.Cleanup(u.srv.Shutdown)
	u.d = startDaemon(t, u.data, u.srv, time.Duration(u.m.PublicDelayMS)*time.Millisecond, upgradeBoards(t, u.m, ports)...)
	// Each board hands its game over once it runs (what the hall
	// publishes of it then goes to the outbox before).
	waitFor(t, 30*time.Second, "every board's game", func() bool {
		return !slices.ContainsFunc(u.m.Games, func(g upgradeGame) bool { _, ok := u.d.h.BoardRecord(g.Board); return !ok })
	})
	waitFor(t, 30*time.Second, "the publisher up with the outbox sent", func() bool { return u.d.p.Health() == nil && u.d.p.Pending() == 0 })
	return u
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// streamContents reads every message of a stream by sequence.
func streamContents(t *testing.T, js jetstream.JetStream, name string) []*jetstream.RawStreamMsg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := js.Stream(ctx, name)
	if err != nil {
		t.Fatalf("stream %s: %v", name, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []*jetstream.RawStreamMsg
	for seq := info.State.FirstSeq; info.State.Msgs > 0 && seq <= info.State.LastSeq; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue // a deleted message (the bucket keeps one value a key)
		}
		if err != nil {
			t.Fatalf("stream %s seq %d: %v", name, seq, err)
		}
		out = append(out, m)
	}
	return out
}

// problems compares what this build holds with the manifest: each game's
// record ply by ply, every message of every stream, every message the
// outbox held (sent now, once), every alert, the public copy (each game's
// moves and PGN, and each round's PGN, which the Lichess push sends), and
// the folder's format. Each difference is a line.
func (u *upgraded) problems(t *testing.T) []string {
	t.Helper()
	var out []string
	bad := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }

	if u.was != 1 {
		bad("PrepareDataDir: the folder had format %d, want 1 (written before formats were marked)", u.was)
	}
	if b, err := os.ReadFile(filepath.Join(u.data, storage.FormatFile)); err != nil || string(b) != "dgtbridge data format 1\n" {
		bad("FORMAT after the start: %q, %v", b, err)
	}

	rounds := map[game.ID]int{} // event and round: games
	for _, g := range u.m.Games {
		out = append(out, u.gameProblems(g)...)
		rounds[game.ID{Event: g.parsed.Event, Round: g.parsed.Round}]++
	}
	// What the Lichess push and the round's PGN feed send: every game.
	for r, n := range rounds {
		if _, got := u.d.p.Public().RoundPGN(r.Event, r.Round); got != n {
			bad("the public PGN of round %s %d holds %d games, want %d", r.Event, r.Round, got, n)
		}
	}

	nc, err := u.srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	// Every message of each stream kept, at its sequence, and never
	// twice; every one the outbox held sent once, to its stream.
	byID := map[string]map[string][]*jetstream.RawStreamMsg{} // stream, Nats-Msg-Id
	alerts := map[string][]game.Alert{}                       // by the alert's id
	for _, name := range []string{"DGT_GAMES", "DGT_PUBLIC", "DGT_ALERTS"} {
		got := streamContents(t, js, name)
		bySeq := map[uint64]*jetstream.RawStreamMsg{}
		byID[name] = map[string][]*jetstream.RawStreamMsg{}
		for _, m := range got {
			bySeq[m.Sequence] = m
			if id := m.Header.Get(nats.MsgIdHdr); id != "" {
				byID[name][id] = append(byID[name][id], m)
			}
			var al game.Alert
			if name == "DGT_ALERTS" && json.Unmarshal(m.Data, &al) == nil {
				alerts[al.ID] = append(alerts[al.ID], al)
			}
		}
		for id, ms := range byID[name] {
			if len(ms) > 1 {
				bad("%s holds message %s %d times", name, id, len(ms))
			}
		}
		for _, w := range u.m.Streams[name] {
			m, ok := bySeq[w.Seq]
			switch {
			case !ok:
				bad("%s lost message %d (%s, %s)", name, w.Seq, w.Subject, w.ID)
			case m.Subject != w.Subject || m.Header.Get(nats.MsgIdHdr) != w.ID || sha(m.Data) != w.SHA256:
				bad("%s message %d is %s %s (%d bytes), was %s %s (%d bytes)", name, w.Seq, m.Subject, m.Header.Get(nats.MsgIdHdr), len(m.Data), w.Subject, w.ID, w.Size)
			}
		}
	}
	kv := map[string]*jetstream.RawStreamMsg{}
	for _, m := range streamContents(t, js, "KV_"+u.m.Prefix+"_games") {
		kv[m.Subject] = m
	}
	for subj, w := range u.m.Bucket {
		if m, ok := kv[subj]; !ok || sha(m.Data) != w.SHA256 && !u.pendingValue(subj, sha(m.Data)) {
			bad("bucket key %s: not the value it held nor one the outbox held", subj)
		}
	}
	// A stream keeps the first message of an id (NATS drops the repeats
	// by Nats-Msg-Id): the one it held at the stop, else the first the
	// outbox held. The older release journalled a game's last state
	// again at its stop, with the same id and the clock as it stood then.
	first := map[string]string{} // stream and id: the payload's hash
	for name, ms := range u.m.Streams {
		for _, w := range ms {
			if _, ok := first[name+" "+w.ID]; !ok {
				first[name+" "+w.ID] = w.SHA256
			}
		}
	}
	for _, w := range u.m.Outbox {
		var stream string
		switch {
		case strings.HasPrefix(w.Subject, "$KV."):
			if m, ok := kv[w.Subject]; !ok || sha(m.Data) != w.SHA256 && !u.laterValue(w) {
				bad("outbox message %d (%s, %s): the bucket does not hold it", w.Seq, w.Subject, w.ID)
			}
			continue
		case strings.HasPrefix(w.Subject, u.m.Prefix+".public."):
			stream = "DGT_PUBLIC"
		case strings.HasPrefix(w.Subject, u.m.Prefix+".game."):
			stream = "DGT_GAMES"
		case strings.HasPrefix(w.Subject, u.m.Prefix+".arbiter."):
			stream = "DGT_ALERTS"
		default:
			bad("outbox message %d (%s): no stream for it", w.Seq, w.Subject)
			continue
		}
		want, ok := first[stream+" "+w.ID]
		if !ok {
			want = w.SHA256
			first[stream+" "+w.ID] = want
		}
		got := byID[stream][w.ID]
		if len(got) != 1 || got[0].Subject != w.Subject || sha(got[0].Data) != want {
			bad("outbox message %d (%s, %s): %d sent to %s", w.Seq, w.Subject, w.ID, len(got), stream)
		}
	}

	// The alerts, as the older release read them from its stream.
	for _, w := range u.m.Alerts {
		got := alerts[w.ID]
		if len(got) != 1 {
			bad("alert %s: %d on the stream", w.ID, len(got))
			continue
		}
		if al := got[0]; al.Game.String() != w.Game || al.Kind != w.Kind || al.Severity != w.Severity || al.Ply != w.Ply {
			bad("alert %s is %s %s/%s ply %d, was %s %s/%s ply %d", w.ID, al.Game, al.Kind, al.Severity, al.Ply, w.Game, w.Kind, w.Severity, w.Ply)
		}
	}
	return out
}

// pendingValue reports whether the outbox held a value of bucket subject
// subj with payload hash h.
func (u *upgraded) pendingValue(subj, h string) bool {
	return slices.ContainsFunc(u.m.Outbox, func(o upgradeOutbox) bool { return o.Subject == subj && o.SHA256 == h })
}

// laterValue reports whether the outbox held a later value of w's bucket
// key than w (the bucket keeps the last).
func (u *upgraded) laterValue(w upgradeOutbox) bool {
	return slices.ContainsFunc(u.m.Outbox, func(o upgradeOutbox) bool { return o.Subject == w.Subject && o.Seq > w.Seq })
}

// gameProblems compares game g's record and public copy with the
// manifest's.
func (u *upgraded) gameProblems(g upgradeGame) []string {
	var out []string
	bad := func(format string, a ...any) { out = append(out, g.Game+": "+fmt.Sprintf(format, a...)) }
	r, ok := u.d.h.BoardRecord(g.Board)
	if !ok {
		return []string{g.Game + ": board " + g.Board + " has no record"}
	}
	if r.Info.Game != g.parsed || r.Info.White != g.White || r.Info.Black != g.Black || r.Info.Variant != g.Variant {
		bad("the record is of %s (%s–%s, variant %q)", r.Info.Game, r.Info.White, r.Info.Black, r.Info.Variant)
	}
	if len(r.Moves) != len(g.Moves) {
		bad("%d plies, was %d", len(r.Moves), len(g.Moves))
	}
	for i := range min(len(r.Moves), len(g.Moves)) {
		a, w := r.Moves[i], g.Moves[i]
		if a.UCI != w.UCI || a.SAN != w.SAN || a.FEN != w.FEN || a.Notation != w.Notation || a.EMTMS != w.EMTMS ||
			!a.At.Equal(w.At) || !sameClock(a.Clock, w.Clock) {
			bad("ply %d is %+v, was %+v", i+1, a, w)
		}
	}
	if r.Result != g.Result || r.Termination != g.Termination || r.Provisional != g.Provisional || r.Revision != g.Revision || r.Status() != g.Status {
		bad("result %s (%s, provisional %v) revision %d status %s; was %s (%s, provisional %v) revision %d status %s",
			r.Result, r.Termination, r.Provisional, r.Revision, r.Status(), g.Result, g.Termination, g.Provisional, g.Revision, g.Status)
	}
	if !sameClock(r.Clock, g.Clock) {
		bad("clock %+v, was %+v", r.Clock, g.Clock)
	}
	if got := movetext(r.PGN()); got != movetext(g.PGN) {
		bad("PGN moves\n%s\nwere\n%s", got, movetext(g.PGN))
	}
	// The public copy: every copy the outbox held is due by now, so the
	// public game is the whole record.
	st, ok := u.d.p.Public().Get(g.parsed)
	if !ok {
		bad("no public copy")
		return out
	}
	if len(st.Moves) != len(g.Moves) || st.Result != g.Result || len(st.Moves) < g.PublicPlies {
		bad("public copy of %d plies, result %s; the record has %d, %s (the public copy had %d at the stop)",
			len(st.Moves), st.Result, len(g.Moves), g.Result, g.PublicPlies)
	}
	for i := range min(len(st.Moves), len(g.Moves)) {
		if st.Moves[i] != g.Moves[i].UCI {
			bad("public ply %d is %s, was %s", i+1, st.Moves[i], g.Moves[i].UCI)
		}
	}
	// The public PGN (the HTTP feeds', the Lichess push's) is the game's.
	if p, _ := u.d.p.Public().GamePGN(g.parsed); movetext(p) != movetext(g.PGN) {
		bad("public PGN moves\n%s\nwere\n%s", movetext(p), movetext(g.PGN))
	}
	return out
}

func sameClock(a, b *game.ClockPair) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// movetext is a PGN's movetext (the tags dropped): what the game is,
// whatever tags a release adds.
func movetext(pgn string) string {
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSpace(pgn), "\n") {
		if !strings.HasPrefix(l, "[") {
			lines = append(lines, l)
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// TestUpgradeKeepsEveryGameAndMessage: a hall's data folder written by the
// previous release (before data folders carried their format: a finished
// game, a game in progress, an illegal move, a manual xiangqi game with an
// illegal entry, a board that never answered with an entered move; a
// public delay, public copies and bucket values still in the outbox at
// the stop) is read by this build: the folder is marked with format 1;
// every game's record is the one the older release held, ply by ply
// (moves, SAN, positions, clocks, times, xiangqi notation), with its
// result; every message of the streams is kept at its sequence and never
// doubled; every message the outbox held is sent, once; the alerts are
// there; the public copy holds every game whole. Then the games go on:
// the game in progress on a DGT board is followed from its record when
// the board, standing in the record's position, is plugged in and its
// players move (no moves_missing, record_lost or board_mismatch alert),
// and the manual games take their next entered moves.
func TestUpgradeKeepsEveryGameAndMessage(t *testing.T) {
	integration(t)
	m := readUpgradeManifest(t, upgradeFixture)
	// The game in progress on a DGT board: the board stands in the
	// record's position, unplugged until the comparison is done.
	const dgtBoard = "r1-b3"
	dgtGame := m.Games[slices.IndexFunc(m.Games, func(g upgradeGame) bool { return g.Board == dgtBoard })]
	pos := rules.Position(chess.StartPosition(chess.Standard))
	for _, p := range dgtGame.Moves {
		pos, _ = pos.Play(mustMove(t, pos, p.UCI))
	}
	pl := pos.Placement()
	board := newPTYBoard(t, emu.Setup{Serial: "00003", Placement: &pl})
	board.Unplug()

	u := startUpgraded(t, upgradeFixture, nil, map[string]port.Opener{dgtBoard: board.Open})
	for _, p := range u.problems(t) {
		t.Error(p)
	}

	// Then the games go on: the DGT board plugged in again, its players
	// make the next two moves.
	alerts := subscribe(t, connect(t, u.srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix)),
		testPrefix+".arbiter."+dgtGame.Game+".alert")
	next := []string{"a4b3", "d7d6"}
	var moves []rules.Move
	for p, i := pos, 0; i < len(next); i++ {
		mv := mustMove(t, p, next[i])
		moves = append(moves, mv)
		p, _ = p.Play(mv)
	}
	s, err := emu.GameScript(pos, moves, emu.GameOptions{
		Think:    func(int) time.Duration { return 300 * time.Millisecond },
		Handling: func(int) emu.Handling { return emu.Handling{Speed: 2} },
	})
	if err != nil {
		t.Fatal(err)
	}
	board.Plug()
	waitFor(t, 30*time.Second, "the DGT board connected", func() bool {
		err := u.d.h.Health()
		return err == nil || !strings.Contains(err.Error(), "board "+dgtBoard+" ")
	})
	board.e.Schedule(time.Now(), s)
	want := append(ucis(dgtGame.Moves), next...)
	waitFor(t, 60*time.Second, "the DGT game's next moves", func() bool {
		r, _ := u.d.h.BoardRecord(dgtBoard)
		return len(r.Moves) >= len(want)
	})
	r, _ := u.d.h.BoardRecord(dgtBoard)
	if got := ucis(r.Moves); !slices.Equal(got, want) {
		t.Errorf("%s after the board's next moves:\n got %v\nwant %v", dgtGame.Game, got, want)
	}
	// The board was followed from the record: nothing says moves are
	// missing or the record lost (clock alerts may come: the board's
	// clock is not the recorded one).
	for len(alerts) > 0 {
		var al game.Alert
		if !decode(t, (<-alerts).Data, &al) {
			continue
		}
		t.Logf("alert %s/%s: %s", al.Kind, al.Severity, al.Message)
		if al.Kind == game.KindMovesMissing || al.Kind == game.KindRecordLost || al.Kind == game.KindBoardMismatch {
			t.Errorf("alert %s/%s after the upgrade: %s", al.Kind, al.Severity, al.Message)
		}
	}

	arb := connect(t, u.srv, "arb", "arb-pw", nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	for board, next := range map[string]string{"r1-b4": `{"move":"P8-9","notation":"vi"}`, "r1-b5": `{"move":"d5"}`} {
		i := slices.IndexFunc(u.m.Games, func(g upgradeGame) bool { return g.Board == board })
		if i < 0 {
			t.Fatalf("the manifest has no game on board %s", board)
		}
		g := u.m.Games[i]
		if r := enter(t, arb, g.parsed, next); !r.OK || r.Ply != len(g.Moves)+1 {
			t.Errorf("%s: the next move after the upgrade: %+v", g.Game, r)
			continue
		}
		r, _ := u.d.h.BoardRecord(board)
		if len(r.Moves) != len(g.Moves)+1 || !slices.EqualFunc(r.Moves[:len(g.Moves)], g.Moves, func(a, b gamerecord.Ply) bool { return a.UCI == b.UCI }) {
			t.Errorf("%s: %d plies after the next move, was %d", g.Game, len(r.Moves), len(g.Moves))
		}
	}
}

// TestUpgradeCheckSeesLosses: the upgrade tests' comparison fails when
// the data folder lost something: a game's record file, the outbox (the
// public copies and bucket values it held), or the game journal of the
// killed hall (where its records were).
func TestUpgradeCheckSeesLosses(t *testing.T) {
	integration(t)
	for _, c := range []struct {
		name, fixture, remove, want string
	}{
		{"game record", upgradeFixture, "games/open2026.1.3.json", "open2026.1.3: "},
		{"outbox", upgradeFixture, "outbox", "outbox message "},
		{"journal", upgradeFixtureKilled, "games/journal", "open2026.2.3: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := startUpgraded(t, c.fixture, func(data string) {
				if err := os.RemoveAll(filepath.Join(data, c.remove)); err != nil {
					t.Fatal(err)
				}
			}, nil)
			ps := u.problems(t)
			t.Logf("without %s: %d differences:\n%s", c.remove, len(ps), strings.Join(ps, "\n"))
			if !slices.ContainsFunc(ps, func(p string) bool { return strings.HasPrefix(p, c.want) }) {
				t.Errorf("without %s the comparison says %q, want a line starting %q", c.remove, ps, c.want)
			}
		})
	}
}

// TestUpgradeAfterAKill: the previous release's data folder as a SIGKILL
// left it in the middle of a game (the records only in the game journal,
// messages waiting in the outbox, the server's store unflushed) is read
// by this build as that release read it: each game's record is the one
// that release resumed with, ply by ply; every message of the streams is
// kept and never doubled; every message the outbox held is sent once; the
// public copy holds every game whole; the folder is marked with format 1.
func TestUpgradeAfterAKill(t *testing.T) {
	integration(t)
	u := startUpgraded(t, upgradeFixtureKilled, nil, nil)
	for _, p := range u.problems(t) {
		t.Error(p)
	}
}

// ucis is the moves of plies.
func ucis(plies []gamerecord.Ply) []string {
	out := make([]string, len(plies))
	for i, p := range plies {
		out[i] = p.UCI
	}
	return out
}
