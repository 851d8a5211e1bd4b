package xiangqi

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// TestNotationGame: the worked examples of Art. 11.2 in every
// dialect, and the ffish WXF line of docs/xiangqi.md, "Notation".
func TestNotationGame(t *testing.T) {
	tests := []struct {
		name    string
		dialect Dialect
		iccs    string
		written string
	}{
		{"VN §10.5", DialectVN, "h2e2 b9c7 b0c2 h7e7", "P2-5 M2.3 M8.7 P8-5"},
		{"doc Asian §10.5", DialectDocAsian, "h2e2 b9c7 b0c2 h7e7", "P2=5 M2+3 M8+7 P8=5"},
		{"WXF ffish line", DialectWXF, "h2e2 h9g7 h0g2 i9h9", "C2.5 H8+7 H2+3 R9.8"},
		{"VN chariot, advisor, elephant, general", DialectVN, "a0a1 a9a8 a1d1 c9e7 d1d2 d9e8 d2d1 a8a9 e0e1", "X9.1 X1.1 X9-6 T3.5 X6.1 S4.5 X6/1 X1/1 Tg5.1"},
		{"WXF soldiers and retreats", DialectWXF, "g3g4 g6g5 g4g5 h9g7 g5g6 g7h9", "P3+1 P7+1 P3+1 H8+7 P3+1 H7-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := StartPosition().WithOptions(Options{Notation: tc.dialect})
			want := strings.Fields(tc.written)
			for i, u := range strings.Fields(tc.iccs) {
				m, err := p.ParseMove(u)
				if err != nil {
					t.Fatalf("%s: %v", u, err)
				}
				if got := p.SAN(m); got != want[i] {
					t.Errorf("move %d %s: SAN %q, want %q", i+1, u, got, want[i])
				}
				back, err := p.ParseMove(want[i])
				if err != nil || back != m {
					t.Errorf("ParseMove(%q) = %v, %v; want %s", want[i], back, err, u)
				}
				if p.UCI(m) != u {
					t.Errorf("UCI %q, want %q", p.UCI(m), u)
				}
				p, err = p.PlayMove(m)
				if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestNotationTandem: two or three pieces of a kind on one file
// (docs/xiangqi.md, "Notation": tandem pieces, advisors and elephants).
func TestNotationTandem(t *testing.T) {
	tests := []struct {
		name, fen, move string
		opts            Options
		want            string
	}{
		{"front chariot advances", "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1", "a4a5", Options{}, "Xt.1"},
		{"rear chariot retreats", "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1", "a2a1", Options{}, "Xs/1"},
		{"front chariot traverses", "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1", "a4b4", Options{}, "Xt-8"},
		{"WXF front chariot traverses", "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1", "a4b4", Options{Notation: DialectWXF}, "R+.8"},
		{"WXF rear chariot", "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1", "a2a3", Options{Notation: DialectWXF}, "R-+1"},
		{"black front cannon", "3k5/9/c8/9/c8/9/9/9/9/4K4 b - - 0 1", "a5a4", Options{}, "Pt.1"},
		{"black rear cannon", "3k5/9/c8/9/c8/9/9/9/9/4K4 b - - 0 1", "a7a8", Options{}, "Ps/1"},
		{"middle soldier", "3k5/4P4/4P4/4P4/9/9/9/9/9/4K4 w - - 0 1", "e7d7", Options{}, "Bg-6"},
		{"front of three soldiers", "3k5/4P4/4P4/4P4/9/9/9/9/9/4K4 w - - 0 1", "e8e9", Options{}, "Bt.1"},
		{"rear of three soldiers", "3k5/4P4/4P4/4P4/9/9/9/9/9/4K4 w - - 0 1", "e6f6", Options{}, "Bs-4"},
		{"three soldiers in WXF fall back to ICCS", "3k5/4P4/4P4/4P4/9/9/9/9/9/4K4 w - - 0 1", "e7d7", Options{Notation: DialectWXF}, "e7d7"},
		{"two soldier files fall back to ICCS", "3k5/9/2P1P4/2P1P4/9/9/9/9/9/4K4 w - - 0 1", "c7b7", Options{}, "c7b7"},
		{"lone soldier beside a tandem file", "3k5/9/2P1P4/4P4/9/9/9/9/9/4K4 w - - 0 1", "c7b7", Options{}, "B7-8"},
		{"advisors on one file keep the file", "4k4/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1", "d0e1", Options{}, "S6.5"},
		{"advisors on one file, tandem option", "4k4/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1", "d0e1", Options{TandemAdvisorElephant: true}, "Ss.5"},
		{"elephants on one file", "4k4/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1", "c4e2", Options{}, "T7/5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen).WithOptions(tc.opts)
			m, err := p.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.SAN(m); got != tc.want {
				t.Errorf("SAN %q, want %q", got, tc.want)
			}
			if back, err := p.ParseMove(tc.want); err != nil || back != m {
				t.Errorf("ParseMove(%q) = %v, %v", tc.want, back, err)
			}
		})
	}
}

// TestParseLenient: forms the parser accepts besides the formatter's.
func TestParseLenient(t *testing.T) {
	tests := []struct {
		name, fen, text string
		d               Dialect
		want            string
	}{
		{"ICCS upper case with dash", StartFEN, "H2-E2", DialectVN, "h2e2"},
		{"general without file", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "Tg.1", DialectVN, "e0e1"},
		{"advisor tandem marker", "4k4/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1", "Ss.5", DialectVN, "d0e1"},
		{"advisor file number with tandem", "4k4/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1", "S6/5", DialectVN, "d2e1"},
		{"WXF traverse with =", StartFEN, "C2=5", DialectWXF, "h2e2"},
		{"WXF B and N letters", StartFEN, "N8+7", DialectWXF, "b0c2"},
		{"WXF elephant B", StartFEN, "B3+5", DialectWXF, "g0e2"},
		{"surrounding spaces", StartFEN, "  P2-5 ", DialectVN, "h2e2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			m, err := p.ParseMoveDialect(tc.text, tc.d)
			if err != nil {
				t.Fatal(err)
			}
			if p.UCI(m) != tc.want {
				t.Errorf("got %s, want %s", p.UCI(m), tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, fen, text string
		illegal         rules.Reason // 0: a *NotationError
	}{
		{"empty", StartFEN, "", 0},
		{"unknown letter", StartFEN, "Q2-5", 0},
		{"bad direction", StartFEN, "P2x5", 0},
		{"bad number", StartFEN, "P2-0", 0},
		{"too long", StartFEN, "P2-55", 0},
		{"no cannon on that file", StartFEN, "P3-5", 0},
		{"horse cannot traverse", StartFEN, "M2-3", 0},
		{"tandem marker without tandem", StartFEN, "Xt.1", 0},
		{"ambiguous file number", "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1", "X9.1", 0},
		{"blocked chariot", StartFEN, "X9.4", rules.ReasonBlocked},
		{"elephant eye", "5k3/9/9/9/9/9/3P5/4B4/9/3K5 w - - 0 1", "T5.7", rules.ReasonBlocked},
		{"ICCS illegal", StartFEN, "e0e2", rules.ReasonBadGeometry},
		{"ICCS flying general", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0e0", rules.ReasonFlyingGeneral},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			m, err := p.ParseMove(tc.text)
			if err == nil {
				t.Fatalf("ParseMove(%q) = %s, want an error", tc.text, p.UCI(m))
			}
			if tc.illegal == 0 {
				var ne *NotationError
				if !errors.As(err, &ne) || !errors.Is(err, ErrNotation) {
					t.Fatalf("error %v, want a *NotationError", err)
				}
				return
			}
			var ie *rules.IllegalMoveError
			if !errors.As(err, &ie) || ie.Reason != tc.illegal || ie.Text != tc.text {
				t.Fatalf("error %v, want illegal move %q with text", err, tc.illegal)
			}
		})
	}
}

// TestNotationRoundTrip: on random positions every legal move, written in
// every dialect, parses back to itself.
func TestNotationRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	positions := randomPositions(r, 6, 100)
	for _, d := range []Dialect{DialectVN, DialectDocAsian, DialectWXF} {
		for _, opts := range []Options{{Notation: d}, {Notation: d, TandemAdvisorElephant: true}} {
			for i, p := range positions {
				if i%3 != 0 {
					continue
				}
				p = p.WithOptions(opts)
				for _, m := range p.LegalMoves(nil) {
					s := p.SAN(m)
					back, err := p.ParseMove(s)
					if err != nil || back != m {
						t.Fatalf("%s %v: %s written %q parses to %v, %v", p.FEN(), opts, p.UCI(m), s, back, err)
					}
				}
			}
		}
	}
}

func TestParseDialect(t *testing.T) {
	for _, d := range []Dialect{DialectVN, DialectDocAsian, DialectWXF} {
		got, err := ParseDialect(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDialect(%q) = %v, %v", d, got, err)
		}
	}
	if _, err := ParseDialect("chinese"); !errors.Is(err, ErrUnknownDialect) {
		t.Errorf("ParseDialect(chinese) = %v", err)
	}
}

func TestLongForm(t *testing.T) {
	tests := []struct{ name, fen, move, want string }{
		{"central cannon", StartFEN, "h2e2", "Pháo 2 bình 5"},
		{"horse", StartFEN, "b0c2", "Mã 8 tiến 7"},
		{"elephant", StartFEN, "g0e2", "Tượng 3 tiến 5"},
		{"advisor", StartFEN, "f0e1", "Sĩ 4 tiến 5"},
		{"general", StartFEN, "e0e1", "Tướng 5 tiến 1"},
		{"soldier", StartFEN, "c3c4", "Binh 7 tiến 1"},
		{"front chariot", "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1", "a4a5", "Xe trước tiến 1"},
		{"rear chariot retreats", "3k5/9/9/9/9/R8/9/R8/9/4K4 w - - 0 1", "a2a1", "Xe sau thoái 1"},
		{"middle soldier", "3k5/4P4/4P4/4P4/9/9/9/9/9/4K4 w - - 0 1", "e7d7", "Binh giữa bình 6"},
		{"ICCS fallback", "3k5/9/2P1P4/2P1P4/9/9/9/9/9/4K4 w - - 0 1", "c7b7", "c7b7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			if got := p.LongForm(iccs(t, tc.move)); got != tc.want {
				t.Errorf("LongForm(%s) = %q, want %q", tc.move, got, tc.want)
			}
		})
	}
}
