package announce_test

import (
	"errors"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// announceCase is a move in a position and its announcement per language.
type announceCase struct {
	name    string
	variant chess.Variant
	fen     string
	move    string // SAN or UCI, parsed by the position
	style   announce.Style
	en, de  string
	vi      string
}

const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

var cases = []announceCase{
	{name: "knight", fen: start, move: "Nf3",
		en: "Knight g1 to f3", de: "Springer Gustav eins – Felix drei", vi: "Mã g1 – f3"},
	{name: "knight short", fen: start, move: "g1f3", style: announce.Short,
		en: "Knight f3", de: "Springer Felix drei", vi: "Mã f3"},
	{name: "pawn double step", fen: start, move: "e4",
		en: "Pawn e2 to e4", de: "Bauer Eva zwei – Eva vier", vi: "Tốt e2 – e4"},
	{name: "pawn capture", fen: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", move: "exd5",
		en: "Pawn e4 takes d5", de: "Bauer Eva vier schlaegt David fuenf", vi: "Tốt e4 ăn d5"},
	{name: "pawn capture short", fen: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", move: "exd5", style: announce.Short,
		en: "Pawn e takes d5", de: "Bauer Eva schlaegt David fuenf", vi: "Tốt e ăn d5"},
	{name: "short castling", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", move: "O-O",
		en: "Short castling", de: "Kurze Rochade", vi: "Nhập thành ngắn"},
	{name: "long castling black", fen: "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", move: "e8c8",
		en: "Long castling", de: "Lange Rochade", vi: "Nhập thành dài"},
	{name: "chess960 long castling king b1", variant: chess.Chess960, fen: "4k3/8/8/8/8/8/8/RK5R w HA - 0 1", move: "b1a1",
		en: "Long castling", de: "Lange Rochade", vi: "Nhập thành dài"},
	{name: "en passant", fen: "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", move: "exd6",
		en: "Pawn e5 takes d6 en passant", de: "Bauer Eva fuenf schlaegt David sechs en passant", vi: "Tốt e5 ăn d6 bắt tốt qua đường"},
	{name: "promotion", fen: "8/4P2k/8/8/8/8/8/4K3 w - - 0 1", move: "e8=Q",
		en: "Pawn e7 to e8, promotes to Queen", de: "Bauer Eva sieben – Eva acht, Umwandlung in Dame", vi: "Tốt e7 – e8, phong Hậu"},
	{name: "promotion with capture and check", fen: "2r1k3/3P4/8/8/8/8/8/4K3 w - - 0 1", move: "dxc8=Q+",
		en: "Pawn d7 takes c8, promotes to Queen, check", de: "Bauer David sieben schlaegt Cesar acht, Umwandlung in Dame, Schach", vi: "Tốt d7 ăn c8, phong Hậu, chiếu"},
	{name: "under-promotion with check", fen: "8/5P1k/8/8/8/8/8/4K3 w - - 0 1", move: "f7f8n",
		en: "Pawn f7 to f8, promotes to Knight, check", de: "Bauer Felix sieben – Felix acht, Umwandlung in Springer, Schach", vi: "Tốt f7 – f8, phong Mã, chiếu"},
	{name: "under-promotion short", fen: "8/5P1k/8/8/8/8/8/4K3 w - - 0 1", move: "f8=R", style: announce.Short,
		en: "Pawn f8, promotes to Rook", de: "Bauer Felix acht, Umwandlung in Turm", vi: "Tốt f8, phong Xe"},
	{name: "check", fen: "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", move: "Ra8+",
		en: "Rook a1 to a8, check", de: "Turm Anna eins – Anna acht, Schach", vi: "Xe a1 – a8, chiếu"},
	{name: "mate", fen: "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", move: "Qh4#",
		en: "Queen d8 to h4, checkmate", de: "Dame David acht – Hector vier, Matt", vi: "Hậu d8 – h4, chiếu hết"},
	{name: "disambiguation by file", fen: "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", move: "Nbd2", style: announce.Short,
		en: "Knight b d2", de: "Springer Bella David zwei", vi: "Mã b d2"},
	{name: "disambiguation by file long", fen: "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", move: "Nfd2",
		en: "Knight f1 to d2", de: "Springer Felix eins – David zwei", vi: "Mã f1 – d2"},
	{name: "disambiguation by rank", fen: "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", move: "R1a2", style: announce.Short,
		en: "Rook 1 a2", de: "Turm eins Anna zwei", vi: "Xe 1 a2"},
	{name: "disambiguation by square", fen: "4k3/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1", move: "Qa4d4", style: announce.Short,
		en: "Queen a4 d4", de: "Dame Anna vier David vier", vi: "Hậu a4 d4"},
	{name: "capture short no disambiguation", fen: "4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1", move: "Nxc3", style: announce.Short,
		en: "Knight takes c3", de: "Springer schlaegt Cesar drei", vi: "Mã ăn c3"},
	{name: "king", fen: "4k3/8/8/8/8/8/8/4K3 w - - 0 1", move: "Kd2",
		en: "King e1 to d2", de: "Koenig Eva eins – David zwei", vi: "Vua e1 – d2"},
	{name: "bishop", fen: "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", move: "Bh6",
		en: "Bishop c1 to h6", de: "Laeufer Cesar eins – Hector sechs", vi: "Tượng c1 – h6"},
	{name: "drop", variant: chess.Crazyhouse, fen: "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", move: "N@f3",
		en: "Knight dropped on f3", de: "Springer eingesetzt auf Felix drei", vi: "Đặt Mã f3"},
	{name: "team-drop drop", variant: chess.TeamDrop, fen: "k7/8/8/8/8/8/8/4K3[Q] w - - 0 1", move: "Q@c3",
		en: "Queen dropped on c3", de: "Dame eingesetzt auf Cesar drei", vi: "Đặt Hậu c3"},
	{name: "team-drop removal of the unpromoted pawn", variant: chess.TeamDrop, fen: "k3P3/8/8/8/8/8/8/4K3[] b - - 0 1", move: "x@e8",
		en: "Pawn on e8 removed", de: "Bauer auf Eva acht entfernt", vi: "Bỏ Tốt e8"},
}

func TestMove(t *testing.T) {
	for _, tc := range cases {
		for _, lt := range []struct {
			lang announce.Lang
			want string
		}{{announce.English, tc.en}, {announce.German, tc.de}, {announce.Vietnamese, tc.vi}} {
			if lt.want == "" {
				continue
			}
			t.Run(tc.name+"/"+string(lt.lang), func(t *testing.T) {
				pos, err := chess.NewPosition(tc.variant, tc.fen)
				if err != nil {
					t.Fatal(err)
				}
				m, err := pos.ParseMove(tc.move)
				if err != nil {
					t.Fatal(err)
				}
				got, err := announce.Move(pos, m, lt.lang, announce.Options{Style: tc.style})
				if err != nil {
					t.Fatal(err)
				}
				if got != lt.want {
					t.Errorf("got %q, want %q", got, lt.want)
				}
			})
		}
	}
}

func TestOmitCheck(t *testing.T) {
	pos, err := chess.NewPosition(chess.Standard, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseMove("Ra8")
	if err != nil {
		t.Fatal(err)
	}
	got, err := announce.Move(pos, m, announce.German, announce.Options{OmitCheck: true})
	if err != nil || got != "Turm Anna eins – Anna acht" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestMoveWithoutFlags(t *testing.T) {
	// A move built from squares alone (as a board tracker may give it)
	// still announces the capture.
	pos, err := chess.NewPosition(chess.Standard, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2")
	if err != nil {
		t.Fatal(err)
	}
	g := pos.Geometry()
	from, _ := g.ParseSquare("e4")
	to, _ := g.ParseSquare("d5")
	got, err := announce.Move(pos, rules.Move{From: from, To: to}, announce.English, announce.Options{})
	if err != nil || got != "Pawn e4 takes d5" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestMoveErrors(t *testing.T) {
	pos, err := chess.NewPosition(chess.Standard, start)
	if err != nil {
		t.Fatal(err)
	}
	g := pos.Geometry()
	e2, _ := g.ParseSquare("e2")
	e5, _ := g.ParseSquare("e5")
	_, err = announce.Move(pos, rules.Move{From: e2, To: e5}, announce.English, announce.Options{})
	if !errors.Is(err, rules.ErrIllegalMove) {
		t.Errorf("illegal move: err = %v, want rules.ErrIllegalMove", err)
	}
	e4, _ := g.ParseSquare("e4")
	_, err = announce.Move(pos, rules.Move{From: e2, To: e4}, "fr", announce.Options{})
	if !errors.Is(err, announce.ErrLang) {
		t.Errorf("bad language: err = %v, want ErrLang", err)
	}
}

func TestParse(t *testing.T) {
	for _, s := range []string{"en", "de", "vi"} {
		if l, err := announce.ParseLang(s); err != nil || string(l) != s {
			t.Errorf("ParseLang(%q) = %q, %v", s, l, err)
		}
	}
	if _, err := announce.ParseLang("fr"); !errors.Is(err, announce.ErrLang) {
		t.Errorf("ParseLang(fr): %v", err)
	}
	if s, err := announce.ParseStyle("short"); err != nil || s != announce.Short {
		t.Errorf("ParseStyle(short) = %v, %v", s, err)
	}
	if _, err := announce.ParseStyle("medium"); !errors.Is(err, announce.ErrStyle) {
		t.Error("ParseStyle(medium) succeeded")
	}
}

func BenchmarkMove(b *testing.B) {
	pos, err := chess.NewPosition(chess.Standard, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
	if err != nil {
		b.Fatal(err)
	}
	m, err := pos.ParseMove("Qxf7#")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := announce.Move(pos, m, announce.German, announce.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
