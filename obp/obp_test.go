package obp

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// sealed returns body with its real checksum and no line end.
func sealed(body string) string {
	return fmt.Sprintf("%s*%02X", body, Checksum([]byte(body)))
}

func sq(t testing.TB, g rules.Geometry, name string) rules.Square {
	t.Helper()
	s, err := g.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestParse: every line type of OBP/1 on both boards, with and without
// timestamps, decodes to its message and encodes back to the same line.
func TestParse(t *testing.T) {
	xq, ch := rules.Xiangqi9x10, rules.Chess8x8
	red := func(k rules.Kind) rules.Piece { return rules.Piece{Color: rules.White, Kind: k} }
	black := func(k rules.Kind) rules.Piece { return rules.Piece{Color: rules.Black, Kind: k} }
	chessStart := Board{Placement: rules.NewPlacement(ch)}
	for f, k := range []rules.Kind{rules.Rook, rules.Knight, rules.Bishop, rules.Queen, rules.King, rules.Bishop, rules.Knight, rules.Rook} {
		chessStart.Placement.Sq[ch.Square(f, 0)] = red(k)
		chessStart.Placement.Sq[ch.Square(f, 1)] = red(rules.Pawn)
		chessStart.Placement.Sq[ch.Square(f, 6)] = black(rules.Pawn)
		chessStart.Placement.Sq[ch.Square(f, 7)] = black(k)
	}
	occ := Board{Placement: rules.NewPlacement(xq), Unidentified: []rules.Square{sq(t, xq, "e0"), sq(t, xq, "d9")}}
	tests := []struct {
		name, body string
		geo        rules.Geometry
		want       Message
	}{
		{"ident xiangqi", "I OBP/1 9x10 XQ0042 id", xq, Ident{Version: 1, Geo: xq, Serial: "XQ0042"}},
		{"ident chess occupancy", "I OBP/1 8x8 DIY-7 occupancy @12", ch, Ident{Version: 1, Geo: ch, Serial: "DIY-7", Occupancy: true, Stamp: At(12)}},
		{"ident before geometry", "I OBP/2 8x8 S1 id", rules.Geometry{}, Ident{Version: 2, Geo: ch, Serial: "S1"}},
		{"board xiangqi", "B rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR", xq, Board{Placement: mustStart()}},
		{"board chess", "B rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR @5", ch, Board{Placement: chessStart.Placement, Stamp: At(5)}},
		{"board occupancy", "B 3?5/9/9/9/9/9/9/9/9/4?4", xq, occ},
		{"clock", "C 899000 900000 2 @82011", xq, Clock{First: 899 * time.Second, Second: 900 * time.Second, Running: rules.Black, Stamp: At(82011)}},
		{"clock stopped", "C 5 0 0", xq, Clock{First: 5 * time.Millisecond, Running: rules.NoColor}},
		{"clock first runs", "C 60000 1000 1", ch, Clock{First: time.Minute, Second: time.Second, Running: rules.White}},
		{"no clock", "C none", xq, Clock{None: true}},
		{"lift rank 0", "L h0 @1", xq, Lift{Square: sq(t, xq, "h0"), Stamp: At(1)}},
		{"lift rank 9", "L a9", xq, Lift{Square: sq(t, xq, "a9")}},
		{"lift chess", "L e2 @18446744073709551615", ch, Lift{Square: sq(t, ch, "e2"), Stamp: At(18446744073709551615)}},
		{"put horse", "P c2 H @7", xq, Put{Square: sq(t, xq, "c2"), Piece: red(rules.Knight), Stamp: At(7)}},
		{"put black elephant", "P c7 e", xq, Put{Square: sq(t, xq, "c7"), Piece: black(rules.Elephant)}},
		{"put chess knight", "P f3 N", ch, Put{Square: sq(t, ch, "f3"), Piece: red(rules.Knight)}},
		{"put unidentified", "P e4 ?", ch, Put{Square: sq(t, ch, "e4"), Unidentified: true}},
		{"fault", "E 12 sensor row 3 dead @99", xq, Fault{Code: "12", Text: "sensor row 3 dead", Stamp: At(99)}},
		{"fault no text", "E batt", ch, Fault{Code: "batt"}},
		{"unknown type", "T 21.5", xq, Unknown{Type: "T", Fields: "21.5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line := sealed(tc.body)
			m, err := Parse([]byte(line), tc.geo)
			if err != nil {
				t.Fatalf("Parse(%q): %v", line, err)
			}
			if !reflect.DeepEqual(m, tc.want) {
				t.Fatalf("Parse(%q) = %#v, want %#v", line, m, tc.want)
			}
			g := tc.geo
			if id, ok := m.(Ident); ok {
				g = id.Geo
			}
			if got := string(m.AppendLine(nil, g)); got != line+"\n" {
				t.Errorf("AppendLine = %q, want %q", got, line+"\n")
			}
			if _, err := Parse([]byte(line+"\r"), tc.geo); err != nil {
				t.Errorf("with \\r: %v", err)
			}
		})
	}
}

// TestParseAliases: xiangqi boards may write the daemon's FEN letters N
// and B; lower-case hex checksums and extra fields are accepted.
func TestParseAliases(t *testing.T) {
	xq := rules.Xiangqi9x10
	m, err := Parse([]byte(sealed("P b0 N")), xq)
	if err != nil || m.(Put).Piece != (rules.Piece{Color: rules.White, Kind: rules.Knight}) {
		t.Errorf("P b0 N = %v, %v", m, err)
	}
	m, err = Parse([]byte(sealed("B rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR")), xq)
	if err != nil || m.(Board).Placement != mustStart() {
		t.Errorf("FEN letters: %v, %v", m, err)
	}
	line := strings.ToLower(sealed("L e3 @4"))
	line = "L e3 @4" + line[len(line)-3:]
	if _, err := Parse([]byte(line), xq); err != nil {
		t.Errorf("lower-case checksum %q: %v", line, err)
	}
	m, err = Parse([]byte(sealed("L e3 R 17 @4")), xq)
	if err != nil || m.(Lift).Stamp != At(4) {
		t.Errorf("extra fields: %v, %v", m, err)
	}
}

// TestParseErrors: each bad line gets its sentinel.
func TestParseErrors(t *testing.T) {
	xq := rules.Xiangqi9x10
	long := sealed("E 1 " + strings.Repeat("x", MaxLine))
	tests := []struct {
		name, line string
		geo        rules.Geometry
		want       error
	}{
		{"bad checksum", "L h2 @81234*1F", xq, ErrChecksum},
		{"no checksum", "L h2", xq, ErrChecksum},
		{"short checksum", "L h2*6", xq, ErrChecksum},
		{"not hex", sealed("L h2")[:5] + "*G1", xq, ErrChecksum},
		{"too long", long, xq, ErrTooLong},
		{"control byte", "L h2\x00*00", xq, ErrNotPrintable},
		{"high byte", sealed("L h\xe92"), xq, ErrNotPrintable},
		{"empty", sealed(""), xq, ErrSyntax},
		{"square off board", sealed("L j2"), xq, ErrSyntax},
		{"rank 10", sealed("L a10"), xq, ErrSyntax},
		{"chess rank 0", sealed("L a0"), rules.Chess8x8, ErrSyntax},
		{"xiangqi piece on chess board", sealed("P e2 C"), rules.Chess8x8, ErrSyntax},
		{"queen on xiangqi board", sealed("P e2 Q"), xq, ErrSyntax},
		{"two letters", sealed("P e2 RR"), xq, ErrSyntax},
		{"put without piece", sealed("P e2"), xq, ErrSyntax},
		{"bad stamp", sealed("L e2 @12a"), xq, ErrSyntax},
		{"board short", sealed("B 9/9/9"), xq, ErrSyntax},
		{"board wide rank", sealed("B 9/9/9/9/9/9/9/9/9/55"), xq, ErrSyntax},
		{"board narrow rank", sealed("B 9/9/9/9/9/9/9/9/9/44"), xq, ErrSyntax},
		{"board piece after full rank", sealed("B 9/9/9/9/9/9/9/9/9/9K"), xq, ErrSyntax},
		{"clock fields", sealed("C 1 2"), xq, ErrSyntax},
		{"clock running", sealed("C 1 2 3"), xq, ErrSyntax},
		{"clock negative", sealed("C -1 2 0"), xq, ErrSyntax},
		{"ident size", sealed("I OBP/1 10x10 X id"), xq, ErrSyntax},
		{"ident protocol", sealed("I DGT/1 9x10 X id"), xq, ErrSyntax},
		{"ident pieces", sealed("I OBP/1 9x10 X rfid"), xq, ErrSyntax},
		{"fault no code", sealed("E"), xq, ErrSyntax},
		{"lift before ident", sealed("L e2"), rules.Geometry{}, ErrNoGeometry},
		{"board before ident", sealed("B 8/8/8/8/8/8/8/8"), rules.Geometry{}, ErrNoGeometry},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse([]byte(tc.line), tc.geo)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Parse(%q) = %v, %v; want %v", tc.line, m, err, tc.want)
			}
			var le *LineError
			if !errors.As(err, &le) || len(le.Line) == 0 || len(le.Line) > MaxLine {
				t.Errorf("error %v is no *LineError quoting the line", err)
			}
		})
	}
}

// TestDecoderResync: bad lines, noise, over-long lines and lines split
// across reads never cost the good lines around them.
func TestDecoderResync(t *testing.T) {
	g := rules.Xiangqi9x10
	good := []string{sealed("L h2 @1"), sealed("P e2 C @2"), sealed("C 1 2 2 @3"), sealed("E 7 low battery")}
	stream := "\x00\xff garbage\n" + good[0] + "\r\n" +
		"L h2 @81234*1F\n" + // wrong checksum
		strings.Repeat("z", 3*MaxLine) + "\n" + // too long, split over reads below
		good[1] + "\n\n\n" +
		"P e2 C @2" + "\n" + // no checksum
		good[2] + "\n" + good[3] + "\n" +
		"L e" // unfinished
	d := NewDecoder(g)
	var got []string
	var errs []error
	for i := 0; i < len(stream); i += 7 {
		d.Feed([]byte(stream[i:min(i+7, len(stream))]))
		for {
			m, err := d.Next()
			if errors.Is(err, ErrNeedMore) {
				break
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			got = append(got, strings.TrimSuffix(string(m.AppendLine(nil, g)), "\n"))
		}
	}
	if !reflect.DeepEqual(got, good) {
		t.Errorf("decoded %q, want %q", got, good)
	}
	wantErrs := []error{ErrNotPrintable, ErrChecksum, ErrTooLong, ErrChecksum}
	if len(errs) != len(wantErrs) {
		t.Fatalf("errors %v, want %v", errs, wantErrs)
	}
	for i, e := range errs {
		if !errors.Is(e, wantErrs[i]) {
			t.Errorf("error %d = %v, want %v", i, e, wantErrs[i])
		}
	}
	if d.Buffered() != 3 {
		t.Errorf("Buffered = %d, want 3 (the unfinished \"L e\")", d.Buffered())
	}
}

// TestCommands: host commands encode and decode; a board's decoder skips
// empty lines and reports the rest.
func TestCommands(t *testing.T) {
	var d CommandDecoder
	var b []byte
	for _, c := range []Command{CmdIdent, CmdBoard, CmdClock} {
		b = c.AppendLine(b)
	}
	d.Feed([]byte("\n"))
	d.Feed(b)
	d.Feed([]byte(" B \r\nX\n" + strings.Repeat("I", 300) + "\nC\n"))
	var got []Command
	var errs int
	for {
		c, err := d.Next()
		if errors.Is(err, ErrNeedMore) {
			break
		}
		if err != nil {
			if !errors.Is(err, ErrUnknownCommand) {
				t.Errorf("error %v does not wrap ErrUnknownCommand", err)
			}
			errs++
			continue
		}
		got = append(got, c)
	}
	if want := []Command{CmdIdent, CmdBoard, CmdClock, CmdBoard, CmdClock}; !reflect.DeepEqual(got, want) || errs != 2 {
		t.Errorf("commands %v (%d errors), want %v and 2 errors", got, errs, want)
	}
}

// mustStart is the xiangqi start array.
func mustStart() rules.Placement {
	b, detail := parsePlacement(rules.Xiangqi9x10, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR")
	if detail != "" {
		panic(detail)
	}
	return b.Placement
}
