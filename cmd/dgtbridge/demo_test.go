package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/internal/cli"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// lockedBuffer is a bytes.Buffer safe for the demo's concurrent writers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDemo runs "dgtbridge demo --boards 4" in-process at four times human
// speed (half the demo's cap, so that a loaded CI machine cannot starve the
// board goroutines into bursts the tracker cannot explain): every board's
// first game arrives on the GAMES stream move for move as the embedded game,
// the blind-player game on board 1 is announced move by move, the public
// round PGN over HTTP holds the four games, the scripted touch-move and
// illegal-move incidents reach the ALERTS stream, the live feed prints moves
// and announcements, and cancelling stops it cleanly.
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the whole demo in real time")
	}
	games, err := demo.Games()
	if err != nil {
		t.Fatal(err)
	}
	const boards = 4
	want := map[int][]string{} // board → UCI moves of its round-1 game
	for b := 1; b <= boards; b++ {
		g := games[demo.GameFor(len(games), 1, b)]
		pos := g.Start
		for _, m := range g.Moves {
			want[b] = append(want[b], pos.UCI(m.Move))
			pos, _ = pos.Play(m.Move)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"demo", "--boards", strconv.Itoa(boards), "--speed", "4", "--public-delay", "1s",
			"--http-listen", "127.0.0.1:0", "--seed", "3", "--data-dir", t.TempDir()}, &stdout, &stderr)
	}()

	// The banner names the NATS and HTTP addresses.
	b := readBanner(t, &stdout, &stderr, errc, `NATS\s+(nats://\S+)`, `PGN\s+(http://\S+)/pgn/demo/1\.pgn`, `arbiter/(\S+) \(arbiter\)`)
	natsURL, httpBase, arbiterPW := b[0], b[1], b[2]
	// A newcomer's first screen holds no warning: the demo's users have
	// bcrypt hashes and its websocket listens on loopback only.
	for _, never := range []string{"Plaintext passwords detected", "DO NOT USE IN PRODUCTION", "plain-text password", "level=WARN"} {
		if strings.Contains(stderr.String(), never) {
			t.Errorf("the demo's start logs %q:\n%s", never, stderr.String())
		}
	}
	// The demo's NATS has users (the banner prints them); the arbiter reads everything.
	nc, err := nats.Connect(natsURL, nats.UserInfo("arbiter", arbiterPW))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	// Board 1 is the blind-player game: every move is announced.
	announcements := make(chan *nats.Msg, 256)
	if _, err := nc.ChanSubscribe("dgt.relay.demo.1.1.announce", announcements); err != nil {
		t.Fatal(err)
	}
	nc.Flush()

	// Moves (and corrections) of round 1 from the GAMES stream, in order.
	got := map[int][]string{}
	orderErr := ""
	gc, err := js.OrderedConsumer(ctx, "DGT_GAMES", jetstream.OrderedConsumerConfig{FilterSubjects: []string{"dgt.game.demo.1.*.>"}})
	if err != nil {
		t.Fatal(err)
	}
	done := func() bool {
		for b := 1; b <= boards; b++ {
			if strings.Join(got[b], " ") != strings.Join(want[b], " ") {
				return false
			}
		}
		return true
	}
	deadline := time.Now().Add(3 * time.Minute)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("moves so far %v\nwant %v\nfeed:\n%s", got, want, stdout.String())
		}
		m, err := gc.Next(jetstream.FetchMaxWait(5 * time.Second))
		if err != nil {
			continue
		}
		toks := strings.Split(m.Subject(), ".")
		b, _ := strconv.Atoi(toks[4])
		switch toks[5] {
		case "move":
			var ev game.MoveEvent
			if err := json.Unmarshal(m.Data(), &ev); err != nil {
				t.Fatal(err)
			}
			if ev.Ply != len(got[b])+1 && orderErr == "" {
				orderErr = m.Subject() + " ply " + strconv.Itoa(ev.Ply) + " after " + strconv.Itoa(len(got[b]))
			}
			got[b] = append(got[b][:min(ev.Ply-1, len(got[b]))], ev.UCI)
		case "correction":
			var c game.Correction
			if err := json.Unmarshal(m.Data(), &c); err != nil {
				t.Fatal(err)
			}
			got[b] = append([]string(nil), c.Moves...)
		}
	}
	if orderErr != "" {
		t.Errorf("moves out of order: %s", orderErr)
	}

	// The announcements of the blind-player game, one per move, in order.
	var said []string
	for len(said) < len(want[1]) {
		select {
		case m := <-announcements:
			var a game.Announcement
			if err := json.Unmarshal(m.Data, &a); err != nil {
				t.Fatal(err)
			}
			if a.Kind == "move" {
				if a.Ply != len(said)+1 || a.UCI != want[1][a.Ply-1] || a.Lang != "en" || a.Text == "" {
					t.Errorf("announcement %+v after %d", a, len(said))
				}
				said = append(said, a.Text)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("announcements %q, want %d", said, len(want[1]))
		}
	}

	// The scripted incidents on the ALERTS stream (round 1: board 2
	// touch-move, board 3 illegal move).
	ac, err := js.OrderedConsumer(ctx, "DGT_ALERTS", jetstream.OrderedConsumerConfig{FilterSubjects: []string{"dgt.arbiter.demo.>"}})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]map[string]bool{} // kind → games
	for !kinds[game.KindTouchMove]["demo.1.2"] || !kinds[game.KindIllegalMove]["demo.1.3"] {
		m, err := ac.Next(jetstream.FetchMaxWait(20 * time.Second))
		if err != nil {
			t.Fatalf("alerts: %v (seen %v)", err, kinds)
		}
		var a game.Alert
		if err := json.Unmarshal(m.Data(), &a); err != nil {
			t.Fatal(err)
		}
		if kinds[a.Kind] == nil {
			kinds[a.Kind] = map[string]bool{}
		}
		kinds[a.Kind][a.Game.String()] = true
	}

	// The public round PGN over HTTP (1 s behind) holds the four games.
	var pgnText string
	deadline = time.Now().Add(30 * time.Second)
	for {
		pgnText = httpGet(t, httpBase+"/pgn/demo/1.pgn")
		if roundComplete(pgnText, want) || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !roundComplete(pgnText, want) {
		t.Errorf("round PGN does not hold the games:\n%s", pgnText)
	}

	// The live feed printed moves and the alerts.
	feed := stdout.String()
	for _, s := range []string{"demo.1.1", "1.     e4", "ALERT", "illegal_move", "touch_move", "SAY (en)"} {
		if !strings.Contains(feed, s) {
			t.Errorf("feed lacks %q:\n%s", s, feed)
		}
	}

	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("demo returned %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("demo did not stop after cancel")
	}
	if !strings.Contains(stdout.String(), "dgtbridge demo: stopped") {
		t.Error("no stop message")
	}
}

// readBanner waits for the demo's banner on stdout and returns the first
// group of each pattern, in order; it fails the test when the demo ends
// first or no banner comes within 30 s.
func readBanner(t *testing.T, stdout, stderr *lockedBuffer, errc <-chan error, patterns ...string) []string {
	t.Helper()
	got := make([]string, len(patterns))
	deadline := time.Now().Add(30 * time.Second)
	for slices.Contains(got, "") {
		if time.Now().After(deadline) {
			t.Fatalf("no banner; stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
		}
		select {
		case err := <-errc:
			t.Fatalf("demo returned early: %v\n%s", err, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		out := stdout.String()
		for i, p := range patterns {
			if m := regexp.MustCompile(p).FindStringSubmatch(out); m != nil {
				got[i] = m[1]
			}
		}
	}
	return got
}

// roundComplete reports whether the round PGN has every board's game with
// the wanted moves.
func roundComplete(text string, want map[int][]string) bool {
	gs, _ := pgn.ReadAll(strings.NewReader(text), pgn.ReaderOptions{})
	seen := 0
	for _, g := range gs {
		_, b, err := pgn.ParseRound(g.Tag("Round"))
		if err != nil || len(g.Moves) != len(want[b]) {
			continue
		}
		pos, ok := g.Start, true
		for i, m := range g.Moves {
			if pos.UCI(m.Move) != want[b][i] {
				ok = false
				break
			}
			pos, _ = pos.Play(m.Move)
		}
		if ok {
			seen++
		}
	}
	return seen == len(want)
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDemoFlags: out-of-range flags are usage errors (exit status 2) that
// name the flag, and nothing is started.
func TestDemoFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--boards", "0"}, "--boards 0"},
		{[]string{"--boards", "65"}, "--boards 65"},
		{[]string{"--speed", "9"}, "--speed 9"},
		{[]string{"--speed", "0"}, "--speed 0"},
		{[]string{"--public-delay", "-1s"}, "--public-delay"},
		{[]string{"--log-level", "loud"}, "--log-level"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errOut lockedBuffer
			err := run(context.Background(), append([]string{"demo"}, c.args...), &out, &errOut)
			if err == nil || cli.ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err %v (exit %d), want a usage error naming %q", err, cli.ExitCode(err), c.want)
			}
			if out.String() != "" {
				t.Errorf("stdout %q", out.String())
			}
		})
	}
}
