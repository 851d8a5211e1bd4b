package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestDemoBlindRoundTwo: the demo's blind-player board goes on
// relaying after its first game. Once board 1's round-1 game has ended,
// its round-2 game (demo.2.1) is announced move by move on
// dgt.relay.demo.2.1.announce (each announcement the recorded move of its
// ply), the talking clock asked on dgt.api.relay.demo.2.1.time answers
// with the times of that game, also on the relay subject, and the ended
// round-1 game's talking clock says that game has ended.
func TestDemoBlindRoundTwo(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: the demo in real time, two games of board 1")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	errc := make(chan error, 1)
	go func() {
		errc <- run(ctx, []string{"demo", "--boards", "1", "--team=false", "--xiangqi", "0", "--speed", "4",
			"--public-delay", "1s", "--http-listen", "off", "--seed", "3", "--data-dir", t.TempDir()}, &stdout, &stderr)
	}()
	defer func() {
		cancel()
		select {
		case err := <-errc:
			if err != nil {
				t.Errorf("demo returned %v", err)
			}
		case <-time.After(60 * time.Second):
			t.Error("demo did not stop after cancel")
		}
	}()
	b := readBanner(t, &stdout, &stderr, errc, `NATS\s+(nats://\S+)`, `hall/(\S+) \(organiser\)`)
	// The relay device's user: an organiser.
	nc, err := nats.Connect(b[0], nats.UserInfo("hall", b[1]))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	relay := make(chan *nats.Msg, 512)
	moves := make(chan *nats.Msg, 512)
	if _, err := nc.ChanSubscribe("dgt.relay.demo.2.1.announce", relay); err != nil {
		t.Fatal(err)
	}
	if _, err := nc.ChanSubscribe("dgt.game.demo.2.1.move", moves); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}

	// The first plies of round 2: the recorded moves and their announcements.
	const plies = 4
	recorded := map[int]string{}  // ply → UCI of its MoveEvent
	announced := map[int]string{} // ply → UCI of its move announcement
	var texts []string
	deadline := time.After(4 * time.Minute)
	for len(announced) < plies || len(recorded) < plies {
		select {
		case m := <-moves:
			var ev game.MoveEvent
			if err := json.Unmarshal(m.Data, &ev); err != nil {
				t.Fatal(err)
			}
			recorded[ev.Ply] = ev.UCI
		case m := <-relay:
			var a game.Announcement
			if err := json.Unmarshal(m.Data, &a); err != nil {
				t.Fatal(err)
			}
			if a.Game.String() != "demo.2.1" || a.Lang != "en" || a.Text == "" {
				t.Errorf("announcement %+v on %s", a, m.Subject)
			}
			if a.Kind == "move" {
				announced[a.Ply] = a.UCI
				texts = append(texts, a.Text)
			}
		case <-deadline:
			t.Fatalf("round 2 of board 1: moves %v, announcements %v %q\nfeed:\n%s", recorded, announced, texts, stdout.String())
		}
	}
	for ply := 1; ply <= plies; ply++ {
		if announced[ply] == "" || announced[ply] != recorded[ply] {
			t.Errorf("ply %d: announced %q, recorded %q", ply, announced[ply], recorded[ply])
		}
	}

	// The talking clock of the round-2 game.
	rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
	defer rcancel()
	reply, err := nc.RequestWithContext(rctx, "dgt.api.relay.demo.2.1.time", nil)
	if err != nil {
		t.Fatal(err)
	}
	var a game.Announcement
	if err := json.Unmarshal(reply.Data, &a); err != nil || a.Kind != "time" {
		t.Fatalf("time reply %s (%v)", reply.Data, err)
	}
	if a.Game.String() != "demo.2.1" || a.Ply < plies || a.Lang != "en" ||
		!regexp.MustCompile(`^\d+ moves?\. White .+\. Black .+\.$`).MatchString(a.Text) {
		t.Errorf("talking clock of round 2: %+v", a)
	}
	// … also said on the blind player's relay.
	for said := false; !said; {
		select {
		case m := <-relay:
			var x game.Announcement
			if err := json.Unmarshal(m.Data, &x); err != nil {
				t.Fatal(err)
			}
			said = x.Kind == "time" && x.Text == a.Text
		case <-time.After(20 * time.Second):
			t.Fatal("the time announcement is not on dgt.relay.demo.2.1.announce")
		}
	}

	// The round-1 game has ended: no talking clock for it.
	reply, err = nc.RequestWithContext(rctx, "dgt.api.relay.demo.1.1.time", nil)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(reply.Data, &r); err != nil || r.OK || !strings.Contains(r.Error, "ended") {
		t.Errorf("time request for the ended round-1 game: %s", reply.Data)
	}
}
