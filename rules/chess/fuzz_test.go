package chess

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// FuzzParseFEN: parsing never panics; an accepted FEN formats to a FEN that
// parses to the same position, and every generated move survives
// SAN/UCI formatting and parsing.
func FuzzParseFEN(f *testing.F) {
	for _, tc := range perftCases {
		f.Add(uint8(tc.v), tc.fen)
	}
	f.Add(uint8(TeamDrop), "P3k3/8/8/8/8/8/8/4K3[N] b - - 0 1")
	f.Add(uint8(Standard), "4k3/8/8/8/8/8/8/4RK2 w - - 0 1")
	f.Fuzz(func(t *testing.T, v uint8, fen string) {
		variant := Variant(v % 4)
		p, err := NewPosition(variant, fen)
		if err != nil {
			return
		}
		out := p.FEN()
		q, err := NewPosition(variant, out)
		if err != nil {
			t.Fatalf("FEN() of %q = %q does not parse: %v", fen, out, err)
		}
		if q.FEN() != out || q.RepetitionKey() != p.RepetitionKey() {
			t.Fatalf("round trip %q -> %q -> %q", fen, out, q.FEN())
		}
		_ = p.Status()
		_ = p.CanMate(0)
		for _, m := range p.LegalMoves(nil) {
			for _, s := range []string{p.SAN(m), p.UCI(m)} {
				back, err := p.ParseMove(s)
				if err != nil || !back.SameAs(m) {
					t.Fatalf("%s: %q parses to %+v, %v; want %+v", out, s, back, err, m)
				}
			}
			if _, err := p.Play(m); err != nil {
				t.Fatalf("%s: legal move %s: %v", out, p.UCI(m), err)
			}
		}
	})
}

// FuzzParseMove: any text either parses to a legal move, whose SAN and UCI
// parse back to it, or gives an error; nothing panics.
func FuzzParseMove(f *testing.F) {
	positions := []*Position{
		StartPosition(Standard),
		mustPos(f, Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"),
		mustPos(f, Standard, epFEN),
		mustPos(f, Standard, promoFEN),
		mustPos(f, Chess960, "4k3/8/8/8/8/8/8/2RK4 w C - 0 1"),
		mustPos(f, Crazyhouse, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"),
		mustPos(f, TeamDrop, "P3k3/8/8/8/8/8/8/4K3[N] b - - 0 1"),
	}
	for _, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "e1g1", "e1h1", "a8=Q", "exd6e.p.", "N@f3", "@e4", "x@a8", "-a8", "-", "Qa1b2", "", "@", "x@", "e9e4", "Zz", "e7e8=K"} {
		f.Add(uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, i uint8, s string) {
		p := positions[int(i)%len(positions)]
		m, err := p.ParseMove(s)
		if err != nil {
			return
		}
		if err := p.Check(m); err != nil {
			t.Fatalf("%s: %q parsed to illegal %+v: %v", p.FEN(), s, m, err)
		}
		for _, txt := range []string{p.SAN(m), p.UCI(m)} {
			back, err := p.ParseMove(txt)
			if err != nil || !back.SameAs(m) {
				t.Fatalf("%s: %q -> %+v -> %q -> %+v, %v", p.FEN(), s, m, txt, back, err)
			}
		}
	})
}

// FuzzMoveValues: Check, Play, PlayIllegal, SAN and UCI accept any
// rules.Move value without panicking; Check and Play agree, and
// PlayIllegal of a legal move equals Play.
func FuzzMoveValues(f *testing.F) {
	positions := []*Position{
		StartPosition(Standard),
		mustPos(f, Standard, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"),
		mustPos(f, Standard, epFEN),
		mustPos(f, Chess960, "4k3/8/8/8/8/8/8/2RK4 w C - 0 1"),
		mustPos(f, Crazyhouse, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1"),
		mustPos(f, TeamDrop, "P3k3/8/8/8/8/8/8/4K3[N] b - - 0 1"),
	}
	f.Add(uint8(0), int16(12), int16(28), uint8(0), uint8(0), uint8(0))
	f.Add(uint8(3), int16(3), int16(2), uint8(0), uint8(0), uint8(4))
	f.Add(uint8(4), int16(-1), int16(20), uint8(0), uint8(2), uint8(16))
	f.Add(uint8(5), int16(56), int16(-1), uint8(0), uint8(0), uint8(32))
	f.Fuzz(func(t *testing.T, i uint8, from, to int16, promo, drop, flags uint8) {
		p := positions[int(i)%len(positions)]
		m := rules.Move{From: rules.Square(from), To: rules.Square(to), Promo: rules.Kind(promo), Drop: rules.Kind(drop), Flags: rules.MoveFlag(flags)}
		err := p.Check(m)
		q, perr := p.Play(m)
		if (err == nil) != (perr == nil) || (perr == nil) != (q != nil) {
			t.Fatalf("Check %v, Play %v, %v disagree", err, q, perr)
		}
		_ = p.SAN(m)
		_ = p.UCI(m)
		r, ierr := p.PlayIllegal(m)
		if err == nil && (ierr != nil || r.FEN() != q.FEN()) {
			t.Fatalf("PlayIllegal of a legal move: %v, %v", r, ierr)
		}
		if ierr == nil {
			rp := r.(*Position)
			_ = rp.LegalMoves(nil)
			_ = rp.Status()
			_ = rp.FEN()
			if rp.bb[0][king] == 0 || rp.bb[1][king] == 0 {
				t.Fatalf("PlayIllegal lost a king: %s", rp.FEN())
			}
		}
	})
}
