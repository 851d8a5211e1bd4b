package pairings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func read(t *testing.T, name string) *Table {
	t.Helper()
	tb, err := ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tb
}

// boards renders a round as "1:White-Black 2:…" for compact comparisons.
func boards(tb *Table, round int) string {
	var s []string
	for _, p := range tb.Round(round) {
		s = append(s, fmt.Sprintf("%d:%s-%s", p.Board, p.White, p.Black))
	}
	return strings.Join(s, " ")
}

// TestTRFSwiss reads a nine-player Swiss written column by column after
// the TRF-16 description (CRLF lines, a header, a ### comment, byes of
// three kinds, round 3 paired but not played) and checks the boards of
// each round against FIDE C.04.2's order, worked out by hand:
//
//	round 1, every score 0: by the pair's better starting rank: 1-5, 6-2, 3-7, 8-4; 9 has the bye.
//	round 2, scores 1,½,0,1,0,½,1,0,1: 4-1 and 7-9 (max 1, sum 2) before 2-3 and 5-6 (max ½, sum ½);
//	         within each, the better rank (1 before 7, 2 before 5); 8 has the bye.
//	round 3, scores 1½,1½,0,1½,0,1½,2,1,1: 7-2 (max 2) first; 1-6 (max 1½, sum 3) before
//	         9-4 (max 1½, sum 2½); 3-8 (max 1) last; 5 has a half-point bye.
func TestTRFSwiss(t *testing.T) {
	tb := read(t, "swiss.trf")
	if tb.Format != TRF {
		t.Errorf("format %v", tb.Format)
	}
	for _, c := range []struct {
		round int
		want  string
	}{
		{1, "1:Nguyen, Van An-Hoang, Thu Ha 2:Vu, Duc Khanh-Tran, Thi Binh 3:Le, Quang Cuong-Dang, Thanh Long 4:Bui, Ngoc Mai-Pham, Minh Duc"},
		{2, "1:Pham, Minh Duc-Nguyen, Van An 2:Dang, Thanh Long-Do, Hai Nam 3:Tran, Thi Binh-Le, Quang Cuong 4:Hoang, Thu Ha-Vu, Duc Khanh"},
		{3, "1:Dang, Thanh Long-Tran, Thi Binh 2:Nguyen, Van An-Vu, Duc Khanh 3:Do, Hai Nam-Pham, Minh Duc 4:Le, Quang Cuong-Bui, Ngoc Mai"},
	} {
		if got := boards(tb, c.round); got != c.want {
			t.Errorf("round %d:\n got %s\nwant %s", c.round, got, c.want)
		}
	}
	if got := tb.Rounds(); fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("rounds %v", got)
	}
	p, ok := tb.Get(1, 4)
	if !ok || p.WhiteFideID != "" || p.BlackFideID != "12400045" || p.Line != 22 {
		t.Errorf("round 1 board 4: %+v (an unrated player without a FIDE number has none)", p)
	}
	if _, ok := tb.Get(1, 5); ok {
		t.Error("round 1 has a fifth board: the bye must have none")
	}
}

// TestTRFTeams: 013 records give each player's team.
func TestTRFTeams(t *testing.T) {
	tb := read(t, "teams.trf")
	p, ok := tb.Get(1, 1)
	if !ok || p.White != "Ly, Minh" || p.Black != "Mai, Lan" || p.WhiteTeam != "Ha Noi" || p.BlackTeam != "Da Nang" {
		t.Errorf("board 1: %+v", p)
	}
	p, ok = tb.Get(1, 2)
	if !ok || p.White != "Chu, Anh" || p.WhiteTeam != "Da Nang" || p.BlackTeam != "Ha Noi" || p.WhiteFideID != "12401004" {
		t.Errorf("board 2: %+v", p)
	}
}

// TestCSV reads a file as a spreadsheet saves it: byte order mark, CRLF,
// quoted names with commas, an empty line, empty optional fields.
func TestCSV(t *testing.T) {
	tb := read(t, "pairings.csv")
	if tb.Format != CSV || tb.Len() != 8 {
		t.Fatalf("format %v, %d games", tb.Format, tb.Len())
	}
	p, ok := tb.Get(2, 2)
	if !ok || p.White != "Dang, Thanh Long" || p.Black != "Do, Hai Nam" || p.WhiteFideID != "12400070" || p.BlackFideID != "12400096" || p.Line != 8 {
		t.Errorf("round 2 board 2: %+v", p)
	}
	if p, _ := tb.Get(1, 4); p.WhiteFideID != "" || p.WhiteTeam != "" {
		t.Errorf("empty fields: %+v", p)
	}
	tb = read(t, "semicolon.csv")
	p, ok = tb.Get(1, 2)
	if !ok || p.White != "Mai; Lan" || p.Black != "Chu, Anh" || p.WhiteTeam != "Ha Noi" || p.BlackTeam != "Da Nang" {
		t.Errorf("semicolon file, board 2: %+v", p)
	}
}

// TestErrors: every problem of a file is reported, each with its line.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       []string
	}{
		{"empty", "", []string{"the file is empty"}},
		{"missing column", "round,board,white\n1,1,A\n", []string{`line 1: the header has no column "black"`}},
		{"unknown column", "round,board,white,black,elo\n", []string{`line 1: column "elo" is not a pairing column`}},
		{"column twice", "round,board,white,black,White\n", []string{`line 1: column "white" is given twice`}},
		{"bad numbers and ids", "round,board,white,black,white_fide_id\n1,x,A,B,\n0,2,A,B,\n1,3,A,B,12a\n",
			[]string{`line 2: board "x" is not a number`, `line 3: round "0" is not a number of 1 or more`, `line 4: white_fide_id "12a" is not a FIDE id`}},
		{"duplicate", "round,board,white,black\n1,1,A,B\n1,1,C,D\n", []string{"line 3: round 1 board 1 is already given at line 2"}},
		{"bad quote", "round,board,white,black\n1,1,\"A,B\n", []string{"line 2:"}},
		{"trf opponent mismatch", trfLines(
			player(1, "A", "   2 w"), player(2, "B", "   3 b"), player(3, "C", "   2 w")),
			[]string{"round 1: player 1 plays 2, but the line of 2 (line 2) gives opponent 3"}},
		{"trf colours", trfLines(player(1, "A", "   2 w"), player(2, "B", "   1 w")),
			[]string{"round 1: players 1 and 2 are paired but their colours (w, w) do not say who has White"}},
		{"trf unknown opponent", trfLines(player(1, "A", "   7 w")), []string{"line 1: round 1: opponent 7 has no player line"}},
		{"trf bad rank", "001    x m    A\n", []string{"line 1: starting rank \"x\""}},
		{"trf rank twice", trfLines(player(1, "A", ""), player(1, "B", "")), []string{"line 2: starting rank 1 is already given at line 1"}},
		{"trf no players", "012 Some Open\n", []string{"no player lines"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.data))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrFormat) {
				t.Errorf("%v does not match ErrFormat", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestErrorsBounded: a file full of mistakes reports twenty and a count.
func TestErrorsBounded(t *testing.T) {
	data := "round,board,white,black\n" + strings.Repeat("x,1,A,B\n", 100)
	_, err := Parse([]byte(data))
	if err == nil || strings.Count(err.Error(), "is not a number") != maxErrors || !strings.Contains(err.Error(), "and 80 more errors") {
		t.Errorf("error: %v", err)
	}
}

// TestTooLarge: ReadFile refuses a file above MaxFileSize without reading
// it all.
func TestTooLarge(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.csv")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadFile(p); !errors.Is(err, ErrTooLarge) {
		t.Errorf("err %v, want ErrTooLarge", err)
	}
}

// player returns a 001 line with round 1's entry (opponent and colour, as
// columns 92–97) after the fixed columns.
func player(rank int, name, round1 string) string {
	return fmt.Sprintf("001 %4d m    %-33s %4d VIE %11s %s %4s %4d  %s", rank, name, 2000, "", "1990/01/01", "0.0", rank, round1)
}

func trfLines(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
