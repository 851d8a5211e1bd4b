package pgn

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// readOne reads exactly one game from text and fails the test otherwise.
func readOne(t *testing.T, text string, opts ReaderOptions) *Game {
	t.Helper()
	r := NewReader(strings.NewReader(text), opts)
	g, err := r.Next()
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	if g2, err := r.Next(); err != io.EOF {
		t.Fatalf("second Next = %v, %v; want io.EOF", g2, err)
	}
	return g
}

func sans(nodes []MoveNode) []string {
	out := make([]string, len(nodes))
	for i := range nodes {
		out[i] = nodes[i].SAN
	}
	return out
}

var parseOnly = ReaderOptions{ParseOnly: true}

func TestTags(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Tag
	}{
		{"plain", `[Event "Open"] [Site "Hanoi"]` + "\n\n*", []Tag{{"Event", "Open"}, {"Site", "Hanoi"}}},
		{"escaped quote and backslash", `[Event "The \"Big\" \\ Open"]` + "\n*", []Tag{{"Event", `The "Big" \ Open`}}},
		{"backslash before other byte kept", `[Annotator "a\b"]` + "\n*", []Tag{{"Annotator", `a\b`}}},
		{"empty value", `[Site ""]` + "\n*", []Tag{{"Site", ""}}},
		{"utf8 and spacing", "[ White   \"Nguyễn, Văn\" ]\n*", []Tag{{"White", "Nguyễn, Văn"}}},
		{"round r.b and ids", "[Round \"3.12\"]\n[WhiteFideId \"12345678\"]\n[GameId \"abcd\"]\n*",
			[]Tag{{"Round", "3.12"}, {"WhiteFideId", "12345678"}, {"GameId", "abcd"}}},
		{"bom", "\ufeff[Event \"E\"]\n*", []Tag{{"Event", "E"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := readOne(t, tt.text, parseOnly)
			if !reflect.DeepEqual(g.Tags, tt.want) {
				t.Errorf("tags = %q, want %q", g.Tags, tt.want)
			}
		})
	}
}

func TestGameTagHelpers(t *testing.T) {
	g := &Game{}
	g.SetTag("Event", "A")
	g.SetTag("Round", "1.1")
	g.SetTag("Event", "B")
	if got := g.Tag("Event"); got != "B" {
		t.Errorf("Event = %q", got)
	}
	if len(g.Tags) != 2 {
		t.Errorf("tags = %v", g.Tags)
	}
	g.DeleteTag("Event")
	if _, ok := g.Lookup("Event"); ok || len(g.Tags) != 1 {
		t.Errorf("after delete: %v", g.Tags)
	}
}

func TestMovetext(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		opts  ReaderOptions
		check func(t *testing.T, g *Game)
	}{
		{"brace and rest-of-line comments", "1. e4 {good move} e5 ; line comment\n2. Nf3 *", parseOnly, func(t *testing.T, g *Game) {
			wantLine(t, g.Moves, "e4", "e5", "Nf3")
			if g.Moves[0].Comment != "good move" || g.Moves[1].Comment != "line comment" || g.Moves[2].Comment != "" {
				t.Errorf("comments %q %q %q", g.Moves[0].Comment, g.Moves[1].Comment, g.Moves[2].Comment)
			}
		}},
		{"two comments joined", "1. Nf3 { [%eval 0.41] } { A04 Zukertort }  *", parseOnly, func(t *testing.T, g *Game) {
			if got := g.Moves[0].Comment; got != "[%eval 0.41] A04 Zukertort" {
				t.Errorf("comment %q", got)
			}
		}},
		{"comment before first move", "{Intro} 1. e4 *", parseOnly, func(t *testing.T, g *Game) {
			if g.Comment != "Intro" {
				t.Errorf("game comment %q", g.Comment)
			}
		}},
		{"NAGs and suffixes", "1. e4! e5?? 2. Nf3 $14 $1 Nc6!? 3. Bb5?! a6!! *", parseOnly, func(t *testing.T, g *Game) {
			want := [][]int{{1}, {4}, {14, 1}, {5}, {6}, {3}}
			for i, w := range want {
				if !reflect.DeepEqual(g.Moves[i].NAGs, w) {
					t.Errorf("move %d NAGs %v, want %v", i, g.Moves[i].NAGs, w)
				}
			}
		}},
		{"nested variations kept", "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) (1. c4) e5 *", parseOnly, func(t *testing.T, g *Game) {
			wantLine(t, g.Moves, "e4", "e5")
			vs := g.Moves[0].Variations
			if len(vs) != 2 {
				t.Fatalf("%d variations", len(vs))
			}
			wantLine(t, vs[0], "d4", "d5", "c4")
			wantLine(t, vs[1], "c4")
			if len(vs[0][1].Variations) != 1 {
				t.Fatalf("nested: %v", vs[0][1].Variations)
			}
			wantLine(t, vs[0][1].Variations[0], "Nf6", "c4")
		}},
		{"nested variations skipped", "1. e4 (1. d4 d5 (1... Nf6 {a ) in a comment} 2. c4) 2. c4) e5 *", ReaderOptions{ParseOnly: true, Variations: SkipVariations}, func(t *testing.T, g *Game) {
			wantLine(t, g.Moves, "e4", "e5")
			if len(g.Moves[0].Variations) != 0 {
				t.Errorf("variations kept: %v", g.Moves[0].Variations)
			}
		}},
		{"comment at variation start", "1. e4 ({Or} 1. d4) *", parseOnly, func(t *testing.T, g *Game) {
			if got := g.Moves[0].Variations[0][0].PreComment; got != "Or" {
				t.Errorf("pre-comment %q", got)
			}
		}},
		{"clock formats", "1. e4 {[%clk 1:30:00]} e5 { [%clk 0:00:03.4] [%emt 0:00:03] } 2. Nf3 {[%clk\n01:56:25]} *", parseOnly, func(t *testing.T, g *Game) {
			want := []time.Duration{90 * time.Minute, 3400 * time.Millisecond, time.Hour + 56*time.Minute + 25*time.Second}
			for i, w := range want {
				if !g.Moves[i].HasClock || g.Moves[i].Clock != w {
					t.Errorf("move %d clock %v (%v), want %v", i, g.Moves[i].Clock, g.Moves[i].HasClock, w)
				}
				if g.Moves[i].Comment != "" {
					t.Errorf("move %d comment %q, want commands removed", i, g.Moves[i].Comment)
				}
			}
			if !g.Moves[1].HasEMT || g.Moves[1].EMT != 3*time.Second || g.Moves[0].HasEMT {
				t.Errorf("emt %v %v", g.Moves[1].EMT, g.Moves[1].HasEMT)
			}
		}},
		{"other commands stay, bad clock stays", "1. e4 { [%eval 0.17] [%clk 0:03:00] } e5 {[%clk soon] hmm} *", parseOnly, func(t *testing.T, g *Game) {
			if g.Moves[0].Comment != "[%eval 0.17]" || g.Moves[0].Clock != 3*time.Minute {
				t.Errorf("move 0: %q %v", g.Moves[0].Comment, g.Moves[0].Clock)
			}
			if g.Moves[1].Comment != "[%clk soon] hmm" || g.Moves[1].HasClock {
				t.Errorf("move 1: %q %v", g.Moves[1].Comment, g.Moves[1].HasClock)
			}
		}},
		{"escape line", "% a tool's note\n[Event \"E\"]\n% another\n1. e4 e5 *", parseOnly, func(t *testing.T, g *Game) {
			wantLine(t, g.Moves, "e4", "e5")
			if g.Tag("Event") != "E" {
				t.Errorf("tags %v", g.Tags)
			}
		}},
		{"percent not in column 1 is an error-free comment char", "1. e4 {50% sure} *", parseOnly, func(t *testing.T, g *Game) {
			if g.Moves[0].Comment != "50% sure" {
				t.Errorf("comment %q", g.Moves[0].Comment)
			}
		}},
		{"no spaces after numbers", "1.e4 e5 2.Nf3 Nc6 3...a6 1-0", parseOnly, func(t *testing.T, g *Game) {
			wantLine(t, g.Moves, "e4", "e5", "Nf3", "Nc6", "a6")
		}},
		{"reserved section skipped", "1. e4 <reserved stuff> e5 *", parseOnly, func(t *testing.T, g *Game) {
			wantLine(t, g.Moves, "e4", "e5")
		}},
		{"drops and promotions as symbols", "1. e4 N@f6 2. exd8=Q+ *", parseOnly, func(t *testing.T, g *Game) {
			wantLine(t, g.Moves, "e4", "N@f6", "exd8=Q+")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, readOne(t, tt.text, tt.opts))
		})
	}
}

func wantLine(t *testing.T, nodes []MoveNode, want ...string) {
	t.Helper()
	if got := sans(nodes); !reflect.DeepEqual(got, want) {
		t.Errorf("line %q, want %q", got, want)
	}
}

func TestResults(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"1. e4 1-0", "1-0"},
		{"1. e4 0-1", "0-1"},
		{"1. e4 1/2-1/2", "1/2-1/2"},
		{"1. e4 *", "*"},
		{"1. e4 1/2-0", "1/2-0"},
		{"1. e4 0-1/2", "0-1/2"},
		{"[Result \"1-0\"]\n\n1. e4", "1-0"},     // no terminator: the tag
		{"[Result \"what\"]\n\n1. e4", "*"},      // neither
		{"[Result \"0-1\"]\n\n1. e4 1-0", "1-0"}, // the movetext wins
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			g := readOne(t, tt.text, parseOnly)
			if g.Result != tt.want {
				t.Errorf("result %q, want %q", g.Result, tt.want)
			}
		})
	}
}

func TestMultiGame(t *testing.T) {
	text := "[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 0-1\n[Event \"C\"]\n1. c4\n[Event \"D\"]\n\n*\n{trailing}\n"
	r := NewReader(strings.NewReader(text), parseOnly)
	var events []string
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		events = append(events, g.Tag("Event")+":"+strings.Join(sans(g.Moves), ",")+":"+g.Result)
	}
	want := []string{"A:e4,e5:1-0", "B:d4:0-1", "C:c4:*", "D::*"}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("games %q, want %q", events, want)
	}
}

// TestBadInput checks that each kind of bad input is reported with its
// line and column and that the next game still reads.
func TestBadInput(t *testing.T) {
	const next = "\n[Event \"Next\"]\n\n1. d4 d5 1-0\n"
	tests := []struct {
		name           string
		text           string
		want           error
		line, col      int
		variationsSkip bool
	}{
		{"unterminated comment", "[Event \"Bad\"]\n\n1. e4 {never closed e5\n2. Nf3 *\n", ErrUnterminatedComment, 3, 7, false},
		{"unterminated string", "[Event \"Bad]\n[Site \"x\"]\n\n1. e4 *\n", ErrBadTag, 1, 8, false},
		{"tag without value", "[Event \"Bad\"]\n[Site]\n\n1. e4 *\n", ErrBadTag, 2, 6, false},
		{"tag without name", "[Event \"Bad\"]\n[\"x\"]\n\n1. e4 *\n", ErrBadTag, 2, 2, false},
		{"tag not closed", "[Event \"Bad\"]\n[Site \"x\" 1. e4 *\n", ErrBadTag, 2, 11, false},
		{"stray character", "[Event \"Bad\"]\n\n1. e4 e5 & 2. Nf3 *\n", ErrUnexpectedChar, 3, 10, false},
		{"unclosed variation", "[Event \"Bad\"]\n\n1. e4 (1. d4 d5\n", ErrBadVariation, 3, 7, false},
		{"unclosed skipped variation", "[Event \"Bad\"]\n\n1. e4 (1. d4 d5\n", ErrBadVariation, 3, 7, true},
		{"close without open", "[Event \"Bad\"]\n\n1. e4 ) e5 *\n", ErrBadVariation, 3, 7, false},
		{"variation before a move", "[Event \"Bad\"]\n\n(1. d4) 1. e4 *\n", ErrBadVariation, 3, 1, false},
		{"result in variation", "[Event \"Bad\"]\n\n1. e4 (1. d4 1-0) *\n", ErrBadVariation, 3, 14, false},
		{"bad NAG", "[Event \"Bad\"]\n\n1. e4 $ e5 *\n", ErrBadNAG, 3, 7, false},
		{"NAG too large", "[Event \"Bad\"]\n\n1. e4 $300 e5 *\n", ErrBadNAG, 3, 7, false},
		{"variations nested too deeply", "[Event \"Bad\"]\n\n1. e4" + strings.Repeat(" (1. d4", MaxVariationDepth+1) + strings.Repeat(")", MaxVariationDepth+1) + " *\n",
			ErrTooDeep, 3, 6 + 7*MaxVariationDepth + 1, false},
		{"string in movetext", "[Event \"Bad\"]\n\n1. e4 \"x\" *\n", ErrUnexpectedToken, 3, 7, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := parseOnly
			if tt.variationsSkip {
				opts.Variations = SkipVariations
			}
			r := NewReader(strings.NewReader(tt.text+next), opts)
			g, err := r.Next()
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err %T is not a *SyntaxError", err)
			}
			if se.Line != tt.line || se.Col != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", se.Line, se.Col, tt.line, tt.col, err)
			}
			if se.Game.Index != 1 || se.Game.Event != "Bad" && tt.name != "unterminated string" {
				t.Errorf("game ref %+v", se.Game)
			}
			if g != nil {
				t.Errorf("game returned with a syntax error: %+v", g)
			}
			g, err = r.Next()
			if err != nil {
				t.Fatalf("next game: %v", err)
			}
			if g.Tag("Event") != "Next" || g.Index != 2 || g.Result != "1-0" {
				t.Errorf("next game %d %v result %q", g.Index, g.Tags, g.Result)
			}
			wantLine(t, g.Moves, "d4", "d5")
			if _, err := r.Next(); err != io.EOF {
				t.Errorf("then %v, want io.EOF", err)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	r := NewReader(strings.NewReader("[Event \"Open\"]\n[Round \"2.5\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 {oops\n"), parseOnly)
	_, err := r.Next()
	want := `pgn: game 1 (Event "Open", Round "2.5", White "A", Black "B"), line 6, column 7: pgn: unterminated comment`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant  %s", err, want)
	}
}

// errReader fails after its data.
type errReader struct {
	data string
	err  error
}

func (e *errReader) Read(p []byte) (int, error) {
	if e.data == "" {
		return 0, e.err
	}
	n := copy(p, e.data)
	e.data = e.data[n:]
	return n, nil
}

func TestIOErrorIsSticky(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct{ name, data string }{
		{"inside the second game", "[Event \"A\"]\n1. e4 *\n[Event \"B\"]\n1. d4"},
		{"inside a comment", "[Event \"A\"]\n1. e4 *\n[Event \"B\"]\n1. d4 {"},
		{"after the first game", "[Event \"A\"]\n1. e4 *"},
		{"after the first game, newline", "[Event \"A\"]\n1. e4 *\n"},
	}
	for _, tt := range tests {
		for _, opts := range []ReaderOptions{parseOnly, {}} {
			r := NewReader(&errReader{data: tt.data, err: boom}, opts)
			if g, err := r.Next(); err != nil || g.Tag("Event") != "A" {
				t.Fatalf("%s: first game %v %v", tt.name, g, err)
			}
			for i := 0; i < 2; i++ {
				if g, err := r.Next(); !errors.Is(err, boom) || g != nil {
					t.Fatalf("%s: call %d: %v %v, want boom", tt.name, i, g, err)
				}
			}
		}
	}
}

func TestZeroReadsDoNotHang(t *testing.T) {
	r := NewReader(zeroReader{}, parseOnly)
	if _, err := r.Next(); !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("err = %v, want io.ErrNoProgress", err)
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReadAll(t *testing.T) {
	text := "[Event \"A\"]\n1. e4 *\n[Event \"B\"]\n1. e4 e5 2. Ke3 *\n[Event \"C\"]\n1. d4 {open\n[Event \"D\"]\n1. c4 *\n"
	games, errs := ReadAll(strings.NewReader(text), ReaderOptions{})
	var names []string
	for _, g := range games {
		names = append(names, g.Tag("Event"))
	}
	if !reflect.DeepEqual(names, []string{"A", "B", "D"}) {
		t.Errorf("games %v", names)
	}
	var me *MoveError
	var se *SyntaxError
	if len(errs) != 2 || !errors.As(errs[0], &me) || !errors.As(errs[1], &se) || me.Game.Event != "B" || se.Game.Event != "C" {
		t.Errorf("errors %v", errs)
	}
	boom := errors.New("boom")
	games, errs = ReadAll(&errReader{data: "[Event \"A\"]\n1. e4 *\n", err: boom}, ReaderOptions{})
	if len(games) != 1 || len(errs) != 1 || !errors.Is(errs[0], boom) {
		t.Errorf("with I/O error: %d games, errors %v", len(games), errs)
	}
	if SkipVariations.String() != "skip" || KeepVariations.String() != "keep" {
		t.Error("VariationMode.String")
	}
}
