package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/internal/lcclient"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestDemoThroughLiveChessAndCloudJSON runs "dgtbridge demo" (emulated DGT
// boards with clocks, the whole daemon) and reads it as the outside world
// does: Lichess's DGT page through the LiveChess API (runLiveChess on the
// demo's NATS) gets board 1's moves one a frame, as the tracker recorded
// them; and a Lichess-style pull of round 1's Cloud JSON gets every game
// with a clock reading and the time used on every move.
func TestDemoThroughLiveChessAndCloudJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the demo in real time")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// The daemon serves the API itself (demo --livechess), reading its feed
	// through its own account, as with livechess.listen.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var stdout, stderr lockedBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"demo", "--boards", "2", "--speed", "8", "--public-delay", "0", "--blind=false",
			"--team=false", "--xiangqi", "0", "--http-listen", "127.0.0.1:0", "--seed", "5", "--data-dir", t.TempDir(),
			"--livechess", addr}, &stdout, &stderr)
	}()
	defer func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("demo: %v", err)
		}
	}()
	b := readBanner(t, &stdout, &stderr, errc, `NATS\s+(nats://\S+)`, `PGN\s+(http://\S+)/pgn/demo/1\.pgn`, `arbiter/(\S+) \(arbiter\)`)
	natsURL, httpBase, arbiterPW := b[0], b[1], b[2]
	dial := func(context.Context) (*nats.Conn, error) {
		return nats.Connect(natsURL, nats.UserInfo("arbiter", arbiterPW), nats.CustomInboxPrefix(broadcast.ArbiterInboxPrefix))
	}

	// The page: eboards → subscribe (retried, as Lichess does every 5 s,
	// until the daemon has written its boards).
	var p *lcclient.Page
	for p == nil {
		c, err := lcclient.Dial(ctx, "ws://"+addr+"/api/v1.0", "https://lichess.org")
		if err == nil {
			page := &lcclient.Page{C: c}
			if _, err = page.Handshake(ctx, ""); err == nil {
				p = page
				defer c.Close()
				break
			}
			c.Close()
		}
		if ctx.Err() != nil {
			t.Fatalf("no board listed: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	const plies = 6
	for len(p.List()) < plies {
		before := p.List()
		moves, _, err := p.Take(ctx)
		if err != nil {
			t.Fatalf("after %q: %v\nfeed:\n%s", before, err, stdout.String())
		}
		if after := p.List(); len(after) > len(before) && slices.Equal(after[:len(before)], before) && len(moves) != 1 {
			t.Fatalf("a frame brought %d new moves %q (after %q), want one", len(moves), moves, before)
		}
	}
	// What the page has is the tracker's record of that game.
	nc, err := dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	kv, err := js.KeyValue(ctx, "dgt_games")
	if err != nil {
		t.Fatal(err)
	}
	got := p.List()
	var st game.GameState
	for {
		e, err := kv.Get(ctx, "demo.1.1")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(e.Value(), &st); err != nil {
			t.Fatal(err)
		}
		if len(st.SAN) >= len(got) && slices.Equal(st.SAN[:len(got)], got) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("page's moves %q are not the record's %q", got, st.SAN)
		}
		time.Sleep(100 * time.Millisecond)
	}

	// A Lichess-style pull of round 1.
	moveRE := regexp.MustCompile(`^\S+ \d+\+\d+$`)
	for {
		ok, why := pullRound(ctx, httpBase+"/lcc/demo/round-1/", 2, 4, moveRE)
		if ok {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("Cloud JSON of round 1: %s", why)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// pullRound pulls a round's index.json and each game-<k>.json and reports
// whether it has the games, each with named players, at least minMoves
// moves all with clock and emt, and a clock.
func pullRound(ctx context.Context, base string, games, minMoves int, moveRE *regexp.Regexp) (bool, string) {
	get := func(url string, v any) error {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("%s: %s", url, resp.Status)
		}
		return json.NewDecoder(resp.Body).Decode(v)
	}
	var idx broadcast.LCCIndex
	if err := get(base+"index.json", &idx); err != nil {
		return false, err.Error()
	}
	if len(idx.Pairings) != games {
		return false, fmt.Sprintf("%d pairings", len(idx.Pairings))
	}
	for k, pr := range idx.Pairings {
		if pr.White == nil || pr.Black == nil || pr.White.LName == "" || pr.Black.LName == "" {
			return false, fmt.Sprintf("pairing %d without names: %+v", k+1, pr)
		}
		var g broadcast.LCCGame
		if err := get(fmt.Sprintf("%sgame-%d.json", base, k+1), &g); err != nil {
			return false, err.Error()
		}
		if len(g.Moves) < minMoves || g.Clock == nil {
			return false, fmt.Sprintf("game %d: %d moves, clock %v", k+1, len(g.Moves), g.Clock)
		}
		for _, m := range g.Moves {
			if !moveRE.MatchString(m) {
				return false, fmt.Sprintf("game %d move %q without clock and emt", k+1, m)
			}
		}
	}
	return true, ""
}
