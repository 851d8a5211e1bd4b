package pgn

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

func TestWriteParseOnlyGame(t *testing.T) {
	g := &Game{
		Tags: []Tag{
			{"White", "Lê, Quang Liêm"}, {"Black", `Say "hi" \ bye`}, {"Event", "Open"},
			{"Round", "3.12"}, {"WhiteFideId", "12401137"}, {"GameId", "r3b12"}, {"TimeControl", "5400+30"},
		},
		Comment: "Intro",
		Moves: []MoveNode{
			{SAN: "e4", Clock: 90 * time.Minute, HasClock: true, EMT: 3 * time.Second, HasEMT: true, NAGs: []int{1}},
			{SAN: "e5", Clock: 89*time.Minute + 59*time.Second + 400*time.Millisecond, HasClock: true,
				Variations: [][]MoveNode{{{SAN: "c5", PreComment: "Sicilian", Comment: "sharp"}, {SAN: "Nf3"}}}},
			{SAN: "Nf3", Comment: "develops {really}"},
		},
		Result: "1-0",
	}
	var b strings.Builder
	if err := Write(&b, g, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `[Event "Open"]
[Site "?"]
[Date "????.??.??"]
[Round "3.12"]
[White "Lê, Quang Liêm"]
[Black "Say \"hi\" \\ bye"]
[Result "1-0"]
[WhiteFideId "12401137"]
[GameId "r3b12"]
[TimeControl "5400+30"]

{ Intro } 1. e4 $1 { [%clk 1:30:00] [%emt 0:00:03] } 1... e5
{ [%clk 1:29:59.4] } ({ Sicilian } 1... c5 { sharp } 2. Nf3) 2. Nf3
{ develops {really) } 1-0

`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// And it reads back to the same moves.
	back := readOne(t, b.String(), parseOnly)
	if !reflect.DeepEqual(back.Moves, fixBrace(g.Moves)) {
		t.Errorf("read back\n%+v\nwant\n%+v", back.Moves, g.Moves)
	}
	if back.Tag("Black") != `Say "hi" \ bye` || back.Comment != "Intro" {
		t.Errorf("read back tags %v comment %q", back.Tags, back.Comment)
	}
}

// fixBrace returns what reading n back gives: the writer turns } in a
// comment into ), and parse-only moves are rules.NoMove.
func fixBrace(n []MoveNode) []MoveNode {
	out := append([]MoveNode(nil), n...)
	out[2].Comment = "develops {really)"
	for i := range out {
		out[i].Move = rules.NoMove
	}
	v := append([]MoveNode(nil), out[1].Variations[0]...)
	for i := range v {
		v[i].Move = rules.NoMove
	}
	out[1].Variations = [][]MoveNode{v}
	return out
}

func TestWriteWrapsAt80(t *testing.T) {
	var text strings.Builder
	for i := 1; i <= 60; i++ {
		text.WriteString("1. Nf3 {[%clk 1:00:00] a rather long comment that has to be wrapped somewhere} Nf6 (1... d5 $2) ")
	}
	text.WriteString("*")
	g := readOne(t, text.String(), parseOnly)
	for _, width := range []int{0, 40} {
		var b strings.Builder
		if err := Write(&b, g, WriteOptions{Width: width}); err != nil {
			t.Fatal(err)
		}
		limit := width
		if limit == 0 {
			limit = 80
		}
		for i, line := range strings.Split(b.String(), "\n") {
			if n := len([]rune(line)); n > limit {
				t.Errorf("width %d: line %d has %d characters: %q", width, i+1, n, line)
			}
		}
		back := readOne(t, b.String(), parseOnly)
		if !reflect.DeepEqual(back.Moves, g.Moves) {
			t.Errorf("width %d: moves changed by the round trip", width)
		}
	}
}

// TestWriteNoTagAtLineStartInComment makes sure a comment quoting a tag
// pair is not wrapped so that the tag starts a line, which would end the
// game on reading.
func TestWriteNoTagAtLineStartInComment(t *testing.T) {
	long := strings.Repeat("word ", 15) + `[Event "x"] more`
	g := &Game{Moves: []MoveNode{{SAN: "e4", Comment: long}, {SAN: "e5"}}, Result: "*"}
	for width := 10; width <= 80; width++ {
		var b strings.Builder
		if err := Write(&b, g, WriteOptions{Width: width}); err != nil {
			t.Fatal(err)
		}
		back := readOne(t, b.String(), parseOnly)
		if len(back.Moves) != 2 || back.Moves[0].Comment != long {
			t.Fatalf("width %d: read back %+v from\n%s", width, back.Moves, b.String())
		}
	}
}

func TestWriteOptionsLeaveOut(t *testing.T) {
	g := readOne(t, "1. e4 $1 {[%clk 0:01:00] [%emt 0:00:02] nice} (1. d4) e5 *", parseOnly)
	tests := []struct {
		opts WriteOptions
		want string
	}{
		{WriteOptions{NoVariations: true}, "1. e4 $1 { nice [%clk 0:01:00] [%emt 0:00:02] } 1... e5 *"},
		{WriteOptions{NoComments: true}, "1. e4 { [%clk 0:01:00] [%emt 0:00:02] } (1. d4) 1... e5 *"},
		{WriteOptions{NoClocks: true}, "1. e4 $1 { nice } (1. d4) 1... e5 *"},
		{WriteOptions{NoClocks: true, NoComments: true, NoVariations: true}, "1. e4 e5 *"},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := Write(&b, g, tt.opts); err != nil {
			t.Fatal(err)
		}
		movetext := strings.TrimSpace(b.String()[strings.Index(b.String(), "\n\n"):])
		if movetext != tt.want {
			t.Errorf("%+v: %q, want %q", tt.opts, movetext, tt.want)
		}
	}
}

func TestWriteNumbersFromFEN(t *testing.T) {
	g := readOne(t, "[FEN \"8/8/8/8/8/8/k7/K7 b - - 3 41\"]\n[SetUp \"1\"]\n\n41... Ka3 42. Kb1 *", parseOnly)
	s := g.String()
	if !strings.Contains(s, "\n41... Ka3 42. Kb1 *\n") || !strings.Contains(s, `[FEN "8/8/8/8/8/8/k7/K7 b - - 3 41"]`) {
		t.Errorf("got\n%s", s)
	}
}

func TestClockFormat(t *testing.T) {
	tests := []struct {
		text string
		d    time.Duration
		back string // FormatClock(d); "" means text
	}{
		{"1:30:00", 90 * time.Minute, ""},
		{"0:00:03.4", 3400 * time.Millisecond, ""},
		{"01:56:25", time.Hour + 56*time.Minute + 25*time.Second, "1:56:25"},
		{"0:05:03", 5*time.Minute + 3*time.Second, ""},
		{"5:03", 5*time.Minute + 3*time.Second, "0:05:03"},
		{"10:00:00", 10 * time.Hour, ""},
		{"0:00:00.05", 50 * time.Millisecond, "0:00:00"},
		{"0:00:09.99", 9990 * time.Millisecond, "0:00:09.9"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			d, err := ParseClock(tt.text)
			if err != nil || d != tt.d {
				t.Fatalf("ParseClock = %v, %v; want %v", d, err, tt.d)
			}
			want := tt.back
			if want == "" {
				want = tt.text
			}
			if got := FormatClock(d); got != want {
				t.Errorf("FormatClock = %q, want %q", got, want)
			}
		})
	}
	for _, bad := range []string{"", "1", "1:2:3:4", "1:60:00", "0:00:3x", "0:00:03.", "a:00:00", "1:000:00", "-1:00:00", "0:00:03 "} {
		if _, err := ParseClock(bad); !errors.Is(err, ErrBadClock) {
			t.Errorf("ParseClock(%q) err = %v, want ErrBadClock", bad, err)
		}
	}
	if FormatClock(-time.Second) != "0:00:00" {
		t.Errorf("negative: %q", FormatClock(-time.Second))
	}
}

func TestNormalizeVariant(t *testing.T) {
	tests := map[string]string{
		"": "chess", "Standard": "chess", "From Position": "chess",
		"Chess960": "chess960", "chess 960": "chess960", "chess-960": "chess960", "Fischerandom": "chess960",
		"Fischer Random": "chess960", "FRC": "chess960", "960": "chess960",
		"Crazyhouse": "crazyhouse", "zh": "crazyhouse", "team-drop": "team-drop",
	}
	for in, want := range tests {
		got, err := NormalizeVariant(in)
		if err != nil || got != want {
			t.Errorf("NormalizeVariant(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := NormalizeVariant("Atomic"); err == nil {
		t.Error("Atomic accepted")
	}
}
