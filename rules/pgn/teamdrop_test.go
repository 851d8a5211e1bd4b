package pgn

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/ruleset"
	"github.com/dgtbridge/dgtbridge/rules/teamdrop"
)

func TestParsePockets(t *testing.T) {
	for in, want := range map[string]string{"NPP/-": "NPP/-", "-/-": "-/-", "ppn/QR": "NPP/QR", " P/q ": "P/Q"} {
		p, ok := ParsePockets(in)
		if !ok || p.String() != want {
			t.Errorf("ParsePockets(%q) = %v, %v; want %s", in, p, ok, want)
		}
	}
	for _, in := range []string{"", "NPP", "N/K", "/-", "-/", "x/-"} {
		if _, ok := ParsePockets(in); ok {
			t.Errorf("ParsePockets(%q) accepted", in)
		}
	}
}

// teamMatch plays a seeded random legal team-drop match (captures, drops
// and removals preferred) until one board ends it or maxPlies, one press
// every 1–4 s alternating at random between the boards.
func teamMatch(t *testing.T, seed uint64, maxPlies int) *teamdrop.Match {
	t.Helper()
	rs, err := ruleset.Lookup(ruleset.BGO2026Team)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)
	m, err := teamdrop.New(rs, "", "", t0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 6))
	at := t0
	for ply := 0; ply < maxPlies && !m.Ended(); ply++ {
		b := teamdrop.Board(r.IntN(2))
		legal := m.Position(b).LegalMoves(nil)
		if len(legal) == 0 {
			continue
		}
		mv := legal[r.IntN(len(legal))]
		for _, c := range legal {
			if (c.IsCapture() || c.IsDrop() || c.Flags&rules.FlagRemove != 0 || m.Position(b).At(c.From).Kind == rules.Pawn) && r.IntN(3) == 0 {
				mv = c
				break
			}
		}
		at = at.Add(time.Duration(1000+r.IntN(3000)) * time.Millisecond)
		if _, err := m.Complete(b, mv, at); err != nil {
			t.Fatal(err)
		}
	}
	if !m.Ended() {
		// Random play seldom mates: a flag ends the match.
		m.Flag(teamdrop.Board(r.IntN(2)), rules.Color(r.IntN(2)), at.Add(time.Second))
	}
	return m
}

// boardGame builds board b's per-board PGN game from the match, as the
// hall will: the moves with their pockets and clocks, the teams, the
// result with its termination.
func boardGame(m *teamdrop.Match, b teamdrop.Board) *Game {
	g := &Game{Start: chess.StartPosition(chess.TeamDrop), Result: m.Result(b).Result}
	g.SetBroadcast(Broadcast{Event: "Cờ đặt 2026", Round: 1, Board: int(b) + 1, White: "W" + b.String(), Black: "B" + b.String()})
	if b == teamdrop.A {
		g.SetTeams("Team X", "Team Y")
	} else {
		g.SetTeams("Team Y", "Team X")
	}
	if term := m.Result(b).Termination; term != "" {
		g.SetTag("Termination", term)
	}
	left := [2]time.Duration{5 * time.Minute, 5 * time.Minute}
	for i, p := range m.Plies(b) {
		left[p.Color] = max(left[p.Color]-time.Duration(i%7)*time.Second, 0)
		g.Moves = append(g.Moves, MoveNode{Move: p.Move, SAN: p.SAN, Clock: left[p.Color], HasClock: true,
			Pockets: Pockets{p.Pockets[0].String(), p.Pockets[1].String()}, HasPockets: true})
	}
	return g
}

// TestTeamDropPGNRoundTrip writes each board of random team-drop matches
// as PGN (Variant "Bughouse", teams, drops, -e8 removals, [%pocket] after
// every move, Termination "partner_board" on the board that did not end
// the match), reads it back and writes it again: same moves, pockets and
// final position, same text.
func TestTeamDropPGNRoundTrip(t *testing.T) {
	drops, removals, partner := 0, 0, 0
	for seed := uint64(1); seed <= 12; seed++ {
		m := teamMatch(t, seed, 400)
		for b := teamdrop.A; b <= teamdrop.B; b++ {
			g := boardGame(m, b)
			var out bytes.Buffer
			if err := Write(&out, g, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			for _, want := range []string{`[Variant "Bughouse"]`, `[WhiteTeam "`, `[BlackTeam "`, "[%pocket "} {
				if len(g.Moves) > 0 && !strings.Contains(text, want) {
					t.Fatalf("seed %d board %s: no %s in\n%s", seed, b, want, text)
				}
			}
			if n := strings.Count(text, "[%pocket "); n != len(g.Moves) {
				t.Errorf("seed %d board %s: %d [%%pocket] for %d moves", seed, b, n, len(g.Moves))
			}
			if strings.Contains(text, "=Q") || strings.Contains(text, "x@") {
				t.Errorf("seed %d board %s: a promotion or old removal form:\n%s", seed, b, text)
			}
			drops += strings.Count(text, "@")
			removals += len(regexp.MustCompile(`(^|\s)-[a-h][18]\b`).FindAllString(text, -1))
			if strings.Contains(text, `[Termination "partner_board"]`) {
				partner++
			}
			games, errs := ReadAll(strings.NewReader(text), ReaderOptions{})
			if len(errs) > 0 || len(games) != 1 {
				t.Fatalf("seed %d board %s: read back: %v\n%s", seed, b, errs, text)
			}
			back := games[0]
			if len(back.Moves) != len(g.Moves) {
				t.Fatalf("seed %d board %s: %d moves back, want %d", seed, b, len(back.Moves), len(g.Moves))
			}
			for i := range g.Moves {
				w, got := g.Moves[i], back.Moves[i]
				if !got.Move.SameAs(w.Move) || got.SAN != m.Plies(b)[i].SAN || got.Pockets != w.Pockets || got.Clock != w.Clock {
					t.Fatalf("seed %d board %s ply %d: %+v, want %+v", seed, b, i+1, got, w)
				}
			}
			// The position after the last move, with the pockets at its
			// press (pieces arriving later are in no [%pocket] of this board).
			want := m.Start(b).FEN()
			if n := len(m.Plies(b)); n > 0 {
				want = m.Plies(b)[n-1].FEN
			}
			final, err := back.Final()
			if err != nil || final.FEN() != want {
				t.Fatalf("seed %d board %s: final %v, %v; match %s", seed, b, final, err, want)
			}
			if again := back.String(); again != text {
				t.Errorf("seed %d board %s: written again differs:\n%s\n----\n%s", seed, b, text, again)
			}
		}
	}
	t.Logf("24 boards: %d drops, %d removals, %d partner_board terminations", drops, removals, partner)
	if drops == 0 || removals == 0 || partner == 0 {
		t.Error("the matches exercised no drops, removals or partner_board results")
	}
}

// matchBPGN builds the BPGN game of a match from its press order.
func matchBPGN(m *teamdrop.Match) *BPGNGame {
	g := &BPGNGame{Result: m.Result(teamdrop.A).Result}
	for _, tag := range []Tag{{"Event", "Cờ đặt 2026"}, {"Site", "Hà Nội"}, {"Date", "2026.02.08"}, {"Round", "1"},
		{"WhiteA", "WA"}, {"BlackA", "BA"}, {"WhiteB", "WB"}, {"BlackB", "BB"}, {"TimeControl", "300"}} {
		g.SetTag(tag.Name, tag.Value)
	}
	var num [2]int
	left := [2][2]time.Duration{{5 * time.Minute, 5 * time.Minute}, {5 * time.Minute, 5 * time.Minute}}
	for i, p := range m.Sequence() {
		if p.Color == rules.White || num[p.Board] == 0 {
			num[p.Board]++
		}
		left[p.Board][p.Color] = max(left[p.Board][p.Color]-time.Duration(i%5)*time.Second-123*time.Millisecond, 0)
		g.Moves = append(g.Moves, BPGNMove{Board: Board2(p.Board), Color: p.Color, Number: num[p.Board], SAN: p.SAN,
			Clock: left[p.Board][p.Color], HasClock: true})
	}
	if r := m.Result(teamdrop.A); r.Result != "*" {
		g.Comment = "Board A: " + r.Termination
	}
	return g
}

// TestBPGNRoundTrip writes random matches as BPGN 1.0, reads them back
// (replaying both boards with the captures passed between them) and
// writes them again.
func TestBPGNRoundTrip(t *testing.T) {
	tokenRE := regexp.MustCompile(`^\d+[AaBb]\. \S+\{\d+\.\d{3}\}$`)
	for seed := uint64(1); seed <= 12; seed++ {
		m := teamMatch(t, seed, 400)
		g := matchBPGN(m)
		var out bytes.Buffer
		if err := WriteBPGN(&out, g, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if !strings.Contains(text, `[WhiteA "WA"]`) || !strings.Contains(text, `[Variant "Bughouse"]`) || !strings.Contains(text, "1A. ") {
			t.Fatalf("seed %d:\n%s", seed, text)
		}
		_, movetext, _ := strings.Cut(text, "\n\n")
		fields := regexp.MustCompile(`\d+[AaBb]\. \S+`).FindAllString(movetext, -1)
		if len(fields) != len(g.Moves) {
			t.Fatalf("seed %d: %d move tokens for %d moves", seed, len(fields), len(g.Moves))
		}
		for _, line := range strings.Split(strings.TrimSpace(movetext), "\n") {
			if len(line) > 80 {
				t.Errorf("seed %d: line longer than 80: %q", seed, line)
			}
		}
		for _, f := range regexp.MustCompile(`\d+[AaBb]\. [^\s]+`).FindAllString(movetext, -1) {
			if !tokenRE.MatchString(f) {
				t.Errorf("seed %d: token %q", seed, f)
			}
		}
		games, err := ReadBPGN(strings.NewReader(text), ReaderOptions{})
		if err != nil || len(games) != 1 {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		back := games[0]
		if len(back.Moves) != len(g.Moves) || back.Result != g.Result || back.Comment != g.Comment {
			t.Fatalf("seed %d: %d moves %s %q, want %d %s %q", seed, len(back.Moves), back.Result, back.Comment, len(g.Moves), g.Result, g.Comment)
		}
		seq := m.Sequence()
		for i := range g.Moves {
			w, got := g.Moves[i], back.Moves[i]
			if got.Board != w.Board || got.Color != w.Color || got.Number != w.Number || got.SAN != w.SAN || !got.Move.SameAs(seq[i].Move) || got.Clock != w.Clock {
				t.Fatalf("seed %d move %d: %+v, want %+v", seed, i+1, got, w)
			}
		}
		var again bytes.Buffer
		WriteBPGN(&again, back, WriteOptions{})
		if again.String() != text {
			t.Errorf("seed %d: written again differs", seed)
		}
	}
}

// TestBPGNRealLayout reads the FICS game quoted in
// the BPGN of a real FICS bughouse game (several tags on a line, clocks going
// negative, commentary): its tokens and clocks read, and its moves, played
// under standard bughouse rules, do not all replay under the 004 rules
// (9B. P@f7+ is a drop giving check, D3), which the reader says.
func TestBPGNRealLayout(t *testing.T) {
	const sample = `[Event "FICS rated bughouse game"]
[Site "FICS - freechess.org"]
[Date "2017.03.04"]
[WhiteA "cheesybread"][WhiteAElo "2701"]
[BlackA "tantheman"][BlackAElo "2487"]
[WhiteB "helmsknight"][WhiteBElo "2443"]
[BlackB "ChiCkenCROSSrOaD"][BlackBElo "2611"]
[TimeControl "120+0"]
[Result "0-1"]

{C:This is game number 3611438 at http://www.bughouse-db.org}
1A. d4{119.051} 1a. Nc6{119.861} 1B. d4{118.328} 2A. Nc3{118.900} 2a. Nf6{119.761}
1b. Nf6{119.313} 2B. Nf3{118.228} 2b. d5{119.213} 3A. Nf3{118.620} 3B. Bf4{117.637}
3a. e6{-0.576}
{ChiCkenCROSSrOaD forfeits on time} 0-1
`
	games, err := ReadBPGN(strings.NewReader(sample), ReaderOptions{ParseOnly: true})
	if err != nil || len(games) != 1 {
		t.Fatal(err)
	}
	g := games[0]
	if g.Tag("WhiteAElo") != "2701" || g.Tag("BlackB") != "ChiCkenCROSSrOaD" || g.Result != "0-1" || g.Comment != "ChiCkenCROSSrOaD forfeits on time" {
		t.Errorf("tags %v, result %s, comment %q", g.Tags, g.Result, g.Comment)
	}
	if len(g.Moves) != 11 || g.Moves[5].Board != BoardB || g.Moves[5].Color != rules.Black || g.Moves[5].Number != 1 ||
		g.Moves[10].Clock != -576*time.Millisecond {
		t.Errorf("moves %+v", g.Moves)
	}
	// Replayed, these moves are fine (no drop yet).
	if _, err := ReadBPGN(strings.NewReader(sample), ReaderOptions{}); err != nil {
		t.Errorf("replay: %v", err)
	}
	bad := strings.Replace(sample, "3a. e6{-0.576}", "3a. e6 4A. e4 4a. Bb4 5A. a3 5a. Bxc3+ 6A. bxc3 4b. P@e3", 1)
	_, err = ReadBPGN(strings.NewReader(bad), ReaderOptions{})
	var me *MoveError
	if !errors.As(err, &me) || me.Text != "P@e3" {
		t.Fatalf("a drop of a pawn Black on B does not have: %v", err)
	}
	// The bishop taken on A (Bxc3+ 6A. bxc3) went to Black on B, so a
	// bishop drop there plays.
	good := strings.Replace(bad, "4b. P@e3", "4b. B@e4", 1)
	if _, err := ReadBPGN(strings.NewReader(good), ReaderOptions{}); err != nil {
		t.Errorf("a drop of the bishop passed from A: %v", err)
	}
}

// TestLiftCommand: [%lift e5] takes a piece off after a move without
// changing the side to move, in PGN and in BPGN.
func TestLiftCommand(t *testing.T) {
	const text = `[Variant "Bughouse"]

1. e4 {[%pocket -/-] [%lift e4]} 1... d5 {[%pocket -/-]} *
`
	games, errs := ReadAll(strings.NewReader(text), ReaderOptions{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	final, err := games[0].Final()
	if err != nil || !final.At(rules.Square(28)).IsEmpty() || final.Turn() != rules.White {
		t.Fatalf("%v %v", final, err)
	}
	if got := games[0].String(); !strings.Contains(got, "[%lift e4]") {
		t.Errorf("written back without the lift:\n%s", got)
	}
	// BPGN: the lifted pawn goes to Black's partner, White on B.
	bp := "[Event \"x\"]\n\n1A. e4 {[%lift e4]} 1a. d5 1B. P@e4 *\n"
	bg, err := ReadBPGN(strings.NewReader(bp), ReaderOptions{})
	if err != nil || len(bg) != 1 || bg[0].Moves[0].Lift != "e4" {
		t.Fatalf("%v", err)
	}
}

// FuzzReadBPGN: any input gives games or an error, never a panic, and a
// game that replays writes and reads back the same.
func FuzzReadBPGN(f *testing.F) {
	for _, s := range []string{
		"[Event \"x\"]\n\n1A. e4{119.9} 1a. e5 1B. d4 1b. d5 2A. Nf3 *\n",
		"[WhiteA \"a\"][BlackA \"b\"]\n\n1A. e4 1a. d5 2A. exd5 1B. e4 1b. P@e5 {done} 1-0\n",
		"[FEN \"4k3/8/8/8/8/8/8/4K3[N] w - - 0 1 | 4k3/8/8/8/8/8/8/4K3[] w - - 0 1\"]\n\n1A. N@c3 *",
		"1A. e4 {[%lift e4]} 1a. d5 1B. P@e4 *", "{unclosed", "[Tag", "1A. 1a.", "e4", "1Z. e4",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ReadBPGN(strings.NewReader(s), ReaderOptions{})
		if err != nil {
			return
		}
		for _, g := range games {
			var out bytes.Buffer
			if err := WriteBPGN(&out, g, WriteOptions{}); err != nil {
				t.Fatalf("%q: read but does not write: %v", s, err)
			}
			back, err := ReadBPGN(&out, ReaderOptions{})
			if err != nil || len(back) != 1 || len(back[0].Moves) != len(g.Moves) {
				t.Fatalf("%q: written as\n%s\nreads back as %v, %v", s, out.String(), back, err)
			}
		}
	})
}
