package lichess

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/pgn"
)

// roundOf is a round of n games with clocks on every move.
func roundOf(r, n int) string {
	var all []string
	for b := 1; b <= n; b++ {
		all = append(all, game(r, b, "1. e4 {[%clk 1:29:50] [%emt 0:00:10]} e5 {[%clk 1:29:40] [%emt 0:00:20]}"))
	}
	return strings.Join(all, "\n")
}

// pushedRounds reads a pushed body's games' Round tags.
func pushedRounds(t *testing.T, body string) []string {
	t.Helper()
	games, errs := pgn.ReadAll(strings.NewReader(body), pgn.ReaderOptions{})
	if len(errs) > 0 {
		t.Fatalf("pushed PGN: %v", errs)
	}
	var out []string
	for _, g := range games {
		out = append(out, g.Tag("Round"))
	}
	return out
}

// TestPushSplitsALargeRound: 230 games go to the three Lichess rounds
// mapped, 100, 100 and 30, in board order; the imitation refuses more
// than 100 games in one request, so a push that did not split fails.
func TestPushSplitsALargeRound(t *testing.T) {
	f := newFakeLichess(t, "tok", "AbCd1234", "EfGh5678", "IjKl9012")
	src := &source{rounds: map[int]string{3: roundOf(3, 230)}}
	p := start(t, fast(Options{URL: f.srv.URL, Token: "tok", Rounds: map[int]string{3: "AbCd1234"},
		Split: map[int][]string{3: {"EfGh5678", "IjKl9012"}}, Source: src.get}))
	waitFor(t, "the round pushed", func() bool { st := p.Stats(); return len(st) == 1 && st[0].Pushes == 1 })
	got := f.got()
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	want := []struct {
		id    string
		games int
		first string
		last  string
	}{{"AbCd1234", 100, "3.1", "3.100"}, {"EfGh5678", 100, "3.101", "3.200"}, {"IjKl9012", 30, "3.201", "3.230"}}
	for i, w := range want {
		r := pushedRounds(t, got[i].body)
		if got[i].id != w.id || got[i].games != w.games || r[0] != w.first || r[len(r)-1] != w.last {
			t.Errorf("request %d: %s %d games %s…%s, want %s %d games %s…%s", i+1, got[i].id, got[i].games, r[0], r[len(r)-1],
				w.id, w.games, w.first, w.last)
		}
	}
	if st := p.Stats()[0]; st.Error != "" || st.Unclocked != 0 || st.Placeholders != 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestPushBeyondTheMappedRounds: 130 games and one Lichess round: the
// first 100 are pushed (never 130 in one request) and the round's stats
// say which games were not, naming lichess.split.
func TestPushBeyondTheMappedRounds(t *testing.T) {
	f := newFakeLichess(t, "tok", "AbCd1234")
	src := &source{rounds: map[int]string{2: roundOf(2, 130)}}
	p := start(t, fast(Options{URL: f.srv.URL, Token: "tok", Rounds: map[int]string{2: "AbCd1234"}, Source: src.get}))
	waitFor(t, "the round pushed", func() bool { st := p.Stats(); return len(st) == 1 && st[0].Pushes == 1 })
	got := f.got()
	if len(got) != 1 || got[0].games != 100 {
		t.Fatalf("requests %d, games %d; want one of 100", len(got), got[0].games)
	}
	if e := p.Stats()[0].Error; !strings.Contains(e, "games 101–130 of 130 not pushed") || !strings.Contains(e, "lichess.split") {
		t.Errorf("stats error %q", e)
	}
}

// TestPushNamesRoundsAndClocks: a player with neither a name nor a FIDE
// id is pushed under a placeholder (the imitation, like Lichess, refuses
// a game without); one with a FIDE id keeps it; a Round without the board
// gets it from the GameId; moves without [%clk] are counted.
func TestPushNamesRoundsAndClocks(t *testing.T) {
	f := newFakeLichess(t, "tok", "AbCd1234")
	g1 := "[Event \"Open\"]\n[Round \"1.1\"]\n[White \"?\"]\n[Black \"Nakamura, Hikaru\"]\n[Result \"*\"]\n[GameId \"open.1.1\"]\n\n1. d4 {[%clk 1:29:50] [%emt 0:00:10]} *\n"
	g2 := "[Event \"Open\"]\n[Round \"1\"]\n[White \"?\"]\n[Black \"X\"]\n[Result \"*\"]\n[WhiteFideId \"1503014\"]\n[GameId \"open.1.2\"]\n\n1. e4 e5 2. Nf3 *\n"
	src := &source{rounds: map[int]string{1: g1 + "\n" + g2}}
	p := start(t, fast(Options{URL: f.srv.URL, Token: "tok", Rounds: map[int]string{1: "AbCd1234"}, Source: src.get}))
	waitFor(t, "the round pushed", func() bool { st := p.Stats(); return len(st) == 1 && st[0].Pushes == 1 })
	games, _ := pgn.ReadAll(strings.NewReader(f.got()[0].body), pgn.ReaderOptions{})
	if len(games) != 2 {
		t.Fatalf("pushed %d games", len(games))
	}
	if w := games[0].Tag("White"); w != "Board 1 White" {
		t.Errorf("game 1 White %q, want the placeholder", w)
	}
	if w, b, r := games[1].Tag("White"), games[1].Tag("Black"), games[1].Tag("Round"); w != "?" || b != "Board 2 Black" || r != "1.2" {
		t.Errorf("game 2: White %q (has a FIDE id), Black %q (one letter), Round %q", w, b, r)
	}
	st := p.Stats()[0]
	if len(st.GameErrors) != 0 || st.Placeholders != 2 || st.Unclocked != 3 {
		t.Errorf("stats %+v, want no game errors, 2 placeholders, 3 moves without a clock", st)
	}
}

// TestPushGameErrorsExposed: a game Lichess refuses is in the round's
// stats and reported once to OnGameErrors; a push with the same errors
// reports nothing new; once accepted the stats are clear.
func TestPushGameErrorsExposed(t *testing.T) {
	f := newFakeLichess(t, "tok", "AbCd1234")
	f.refuse = map[string]string{"1.2": "Illegal move 2. Qxf7"}
	var mu sync.Mutex
	var alerts [][]GameError
	src := &source{rounds: map[int]string{1: roundOf(1, 3)}}
	p := start(t, fast(Options{URL: f.srv.URL, Token: "tok", Rounds: map[int]string{1: "AbCd1234"}, Source: src.get,
		OnGameErrors: func(round int, errs []GameError) {
			mu.Lock()
			alerts = append(alerts, errs)
			mu.Unlock()
			if round != 1 {
				t.Errorf("alert for round %d", round)
			}
		}}))
	waitFor(t, "the round pushed", func() bool { st := p.Stats(); return len(st) == 1 && st[0].Pushes == 1 })
	want := GameError{Round: "1.2", White: "W2", Black: "B2", Error: "Illegal move 2. Qxf7"}
	if st := p.Stats()[0]; len(st.GameErrors) != 1 || st.GameErrors[0] != want {
		t.Fatalf("stats %+v, want %+v", st.GameErrors, want)
	}
	src.set(1, roundOf(1, 3)+"\n"+game(1, 4, "1. c4"))
	waitFor(t, "the second push", func() bool { return p.Stats()[0].Pushes == 2 })
	f.mu.Lock()
	f.refuse = nil
	f.mu.Unlock()
	src.set(1, roundOf(1, 4))
	waitFor(t, "the third push", func() bool { return p.Stats()[0].Pushes == 3 })
	if st := p.Stats()[0]; len(st.GameErrors) != 0 {
		t.Errorf("after an accepted push: %+v", st.GameErrors)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(alerts) != 1 || len(alerts[0]) != 1 || alerts[0][0] != want {
		t.Errorf("alerts %v, want one: %v", alerts, want)
	}
}

// TestSplitGames: a multi-game PGN splits into its games and joins back.
func TestSplitGames(t *testing.T) {
	var all []string
	for b := 1; b <= 3; b++ {
		all = append(all, game(1, b, fmt.Sprintf("1. e4 {a comment\n\n[Event in a comment?]} e5 %d. Nf3", 2)))
	}
	p := strings.Join(all, "\n")
	got := splitGames(p)
	if len(got) != 3 || joinGames(got) != p {
		t.Fatalf("split into %d:\n%q", len(got), got)
	}
	if m, u := countMoves("1. e4 {[%clk 1:00:00]} e5 2. O-O $1 {x} 0-0 1/2-1/2"); m != 4 || u != 3 {
		t.Errorf("countMoves: %d moves, %d without a clock; want 4, 3", m, u)
	}
}
