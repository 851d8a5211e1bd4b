package emu_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// play plays a game and fails the test on error.
func play(t *testing.T, g emu.Game) emu.Played {
	t.Helper()
	p, err := emu.Play(g)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlayIsReproducible: the same game and seed give the same bytes at
// the same times; another seed another scan and other hands.
func TestPlayIsReproducible(t *testing.T) {
	start := chess.StartPosition(chess.Standard)
	moves, _ := randomGame(t, start, 3, 60)
	a := play(t, emu.Game{Start: start, Moves: moves, Seed: 11})
	b := play(t, emu.Game{Start: start, Moves: moves, Seed: 11})
	c := play(t, emu.Game{Start: start, Moves: moves, Seed: 12})
	if !slices.EqualFunc(a.Sent, b.Sent, func(x, y emu.Timed) bool { return x.At.Equal(y.At) && slices.Equal(x.Bytes, y.Bytes) }) {
		t.Fatal("two plays of the same game and seed differ")
	}
	if a.Board.Scan() == c.Board.Scan() || a.Plies[10].Touch.Equal(c.Plies[10].Touch) {
		t.Fatal("another seed gave the same scan or the same hands")
	}
}

// TestPlayReachesTheFinalPosition: standard and Chess960 games with every
// habit of DefaultHands end, as the host heard them, on the game's final
// position; the plies' times are in order; and over the games every habit
// was used.
func TestPlayReachesTheFinalPosition(t *testing.T) {
	var used emu.Habit
	for seed := uint64(1); seed <= 40; seed++ {
		var start, final rules.Position
		var moves []rules.Move
		if seed%2 == 0 {
			start = chess.StartPosition(chess.Standard)
			moves, final = randomGame(t, start, seed, 120)
		} else {
			start, moves, final = chess960Game(t, int(seed*23)%960, seed, 120)
		}
		p := play(t, emu.Game{Start: start, Moves: moves, Seed: seed})
		if got, want := heardPlacement(t, p), final.Placement(); got != want {
			t.Fatalf("seed %d: the host heard %s, the game ends on %s", seed, got.String(), want.String())
		}
		if got := p.Emulator.Placement(); got != final.Placement() {
			t.Fatalf("seed %d: the board holds %s", seed, got.String())
		}
		prev := p.PowerUp
		for _, pl := range p.Plies {
			used |= pl.Habits
			if pl.Touch.Before(prev) || pl.Release.Before(pl.Touch) || pl.Press.Before(pl.Release) || pl.Settled.Before(pl.Release) {
				t.Fatalf("seed %d ply %d: times out of order: %+v (previous press %v)", seed, pl.Ply, pl, prev)
			}
			prev = pl.Press
		}
	}
	for h := emu.HabitFastReply; h <= emu.HabitPromoLate; h <<= 1 {
		if used&h == 0 {
			t.Errorf("habit %v never used in 40 games", h)
		}
	}
}

// TestNudgesAreInvisible: with a nudge on every think, the host hears
// nothing between the board having settled on one move and the first
// touch of the next: the lifted and returned pieces were never seen.
func TestNudgesAreInvisible(t *testing.T) {
	h := emu.DefaultHands()
	h.Nudge, h.FastReply = 1, 0
	nudges := 0
	for seed := uint64(1); seed <= 10; seed++ {
		start := chess.StartPosition(chess.Standard)
		moves, _ := randomGame(t, start, seed, 80)
		p := play(t, emu.Game{Start: start, Moves: moves, Seed: seed, Hands: h})
		var nudged []rules.Square
		for i, pl := range p.Plies {
			if pl.Habits&emu.HabitNudge == 0 {
				continue
			}
			nudges++
			from := p.PowerUp
			if i > 0 {
				from = p.Plies[i-1].Settled.Add(50 * time.Millisecond) // the last report's wire time
			}
			for _, hd := range p.Heard {
				if u, ok := hd.Msg.(dgt.FieldUpdate); ok && hd.At.After(from) && !hd.At.After(pl.Touch) {
					t.Fatalf("seed %d ply %d: %v heard at %v, while the player thought (board settled %v, touch %v)", seed, pl.Ply, u, hd.At.Sub(p.PowerUp), from.Sub(p.PowerUp), pl.Touch.Sub(p.PowerUp))
				}
			}
			for _, a := range p.Script {
				if a.Kind == emu.Lift && p.PowerUp.Add(a.At).After(from) && p.PowerUp.Add(a.At).Before(pl.Touch) {
					nudged = append(nudged, a.Square)
				}
			}
		}
		if len(nudged) == 0 {
			t.Fatalf("seed %d: no piece lifted while thinking", seed)
		}
	}
	if nudges < 300 {
		t.Fatalf("only %d nudges in 10 games", nudges)
	}
}

// pressFirstRate plays games and returns how often the press on a quiet
// move reached the host before the board's report of the destination,
// and the rate expected from the hands' Press span and each board's scan
// period: the scan meets the destination U·P after the release (U uniform
// in [0,1)), so the press (d after it) comes first with probability
// E[max(0, P−d)]/P.
func pressFirstRate(t *testing.T, h emu.Hands, games int) (got, want float64, n int) {
	t.Helper()
	first, expect := 0, 0.0
	for seed := uint64(1); seed <= uint64(games); seed++ {
		start := chess.StartPosition(chess.Standard)
		moves, _ := randomGame(t, start, seed, 100)
		p := play(t, emu.Game{Start: start, Moves: moves, Seed: seed, Hands: h})
		period := float64(p.Board.ScanPeriod)
		var e float64 // E[max(0, P−d)]/P for d uniform in the Press span
		const steps = 1000
		for i := 0; i < steps; i++ {
			d := float64(h.Press.Min) + (float64(h.Press.Max-h.Press.Min))*(float64(i)+0.5)/steps
			e += math.Max(0, period-d) / period / steps
		}
		pos := rules.Position(start)
		for i, pl := range p.Plies {
			m := moves[i]
			piece := pos.At(m.From)
			next, _ := pos.Play(m)
			pos = next
			if m.IsCapture() || m.IsCastle() || m.Promo != rules.NoKind || pl.Habits&emu.HabitSlide != 0 {
				continue
			}
			to, _ := dgt.FieldOf(m.To, p.Board.Orientation)
			code, _ := dgt.PieceCodeOf(piece)
			var reported, pressed time.Time
			for _, hd := range p.Heard {
				if hd.At.Before(pl.Touch) {
					continue
				}
				switch msg := hd.Msg.(type) {
				case dgt.FieldUpdate:
					if reported.IsZero() && msg.Field == to && msg.Piece == code {
						reported = hd.At
					}
				case dgt.ClockTimes:
					if pressed.IsZero() && !hd.At.Before(pl.Press) {
						pressed = hd.At
					}
				}
			}
			if reported.IsZero() || pressed.IsZero() {
				t.Fatalf("seed %d ply %d: report %v press %v not heard", seed, pl.Ply, reported, pressed)
			}
			n++
			expect += e
			if pressed.Before(reported) {
				first++
			}
		}
	}
	return float64(first) / float64(n), expect / float64(n), n
}

// TestPressesPrecedeTheReportAtTheConfiguredRate: the lever beats the
// board's report of the destination as often as the hands' Press span and
// the scan period say — about one press in five with the default hands
// (80–300 ms), more than half with a fast hand (80–120 ms).
func TestPressesPrecedeTheReportAtTheConfiguredRate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		press emu.Span
	}{
		{"default", emu.Span{}},
		{"fast", emu.Span{Min: 80 * time.Millisecond, Max: 120 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := emu.DefaultHands()
			if tc.press != (emu.Span{}) {
				h.Press = tc.press
			}
			got, want, n := pressFirstRate(t, h, 20)
			t.Logf("%d quiet moves: press first %.3f, expected %.3f", n, got, want)
			if n < 500 || math.Abs(got-want) > 0.05 {
				t.Fatalf("%d quiet moves: press before the report %.3f of the time, expected %.3f", n, got, want)
			}
		})
	}
}

// TestFastRepliesStartRightAfterThePress: a fast reply's first touch is
// within FastReplyTime of the opponent's press.
func TestFastRepliesStartRightAfterThePress(t *testing.T) {
	h := emu.DefaultHands()
	h.FastReply = 0.5
	start := chess.StartPosition(chess.Standard)
	moves, _ := randomGame(t, start, 5, 100)
	p := play(t, emu.Game{Start: start, Moves: moves, Seed: 5, Hands: h})
	fast := 0
	for i, pl := range p.Plies[1:] {
		if pl.Habits&emu.HabitFastReply == 0 {
			continue
		}
		fast++
		d := pl.Touch.Sub(p.Plies[i].Press)
		if d < h.FastReplyTime.Min || d > h.FastReplyTime.Max {
			t.Fatalf("ply %d: fast reply %v after the press, want %v–%v", pl.Ply, d, h.FastReplyTime.Min, h.FastReplyTime.Max)
		}
	}
	if fast < 30 {
		t.Fatalf("%d fast replies of 99 at rate 0.5", fast)
	}
}

// fieldHistory returns, for field f, the pieces the host heard on it with
// their times, from at on.
func fieldHistory(p emu.Played, f dgt.Field, at time.Time) (times []time.Time, codes []dgt.PieceCode) {
	for _, h := range p.Heard {
		if u, ok := h.Msg.(dgt.FieldUpdate); ok && u.Field == f && !h.At.Before(at) {
			times, codes = append(times, h.At), append(codes, u.Piece)
		}
	}
	return times, codes
}

// TestSlowHands: a promotion piece fetched from beside the board is heard
// seconds after the pawn left; in Chess960 castling the king held in the
// hand is off the board for seconds while the rook moves.
func TestSlowHands(t *testing.T) {
	t.Run("promotion piece late", func(t *testing.T) {
		pos, err := chess.NewPosition(chess.Standard, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		for _, onSquare := range []float64{0, 1} {
			h := emu.DefaultHands()
			h.PromoFetch, h.PromoteOnSquare = emu.Span{Min: 2 * time.Second, Max: 3 * time.Second}, onSquare
			m := mustMove(t, pos, "b7b8q")
			p := play(t, emu.Game{Start: pos, Moves: []rules.Move{m}, Seed: 1, Hands: h})
			b7, _ := dgt.FieldOf(sq(t, "b7"), dgt.Normal)
			b8, _ := dgt.FieldOf(sq(t, "b8"), dgt.Normal)
			left, _ := fieldHistory(p, b7, p.PowerUp)
			times, codes := fieldHistory(p, b8, p.PowerUp)
			if len(left) != 1 || len(codes) == 0 || codes[len(codes)-1] != dgt.WhiteQueen {
				t.Fatalf("on square %v: b7 %v, b8 %v", onSquare, left, codes)
			}
			if onSquare == 1 && (len(codes) < 2 || codes[0] != dgt.WhitePawn) {
				t.Fatalf("pawn put on b8 first, heard %v", codes)
			}
			if d := times[len(times)-1].Sub(left[0]); d < 2*time.Second {
				t.Fatalf("queen heard %v after the pawn left b7, want ≥ 2 s", d)
			}
		}
	})
	t.Run("king held in chess960 castling", func(t *testing.T) {
		pos, err := chess.NewPosition(chess.Chess960, "1r1k3r/8/8/8/8/8/8/1R1K3R w BHbh - 0 1")
		if err != nil {
			t.Fatal(err)
		}
		for _, castle := range []string{"O-O", "O-O-O"} {
			h := emu.DefaultHands()
			h.KingHold, h.KingHoldTime = 1, emu.Span{Min: 1500 * time.Millisecond, Max: 2 * time.Second}
			m := mustMove(t, pos, castle)
			p := play(t, emu.Game{Start: pos, Moves: []rules.Move{m}, Seed: 2, Hands: h})
			if p.Plies[0].Habits&emu.HabitKingHold == 0 {
				t.Fatalf("%s: king not held (%v)", castle, p.Plies[0].Habits)
			}
			var kingOff, kingOn time.Time
			for _, hd := range p.Heard {
				u, ok := hd.Msg.(dgt.FieldUpdate)
				if !ok {
					continue
				}
				if u.Field == 59 && u.Piece == dgt.Empty && kingOff.IsZero() { // d1
					kingOff = hd.At
				}
				if u.Piece == dgt.WhiteKing {
					kingOn = hd.At
				}
			}
			if kingOff.IsZero() || kingOn.IsZero() || kingOn.Sub(kingOff) < 1200*time.Millisecond {
				t.Fatalf("%s: king off at %v, back at %v", castle, kingOff, kingOn)
			}
			next, _ := pos.Play(m)
			if got := heardPlacement(t, p); got != next.Placement() {
				t.Fatalf("%s: heard %s", castle, got.String())
			}
		}
	})
}

// TestCaptureOrders: a captured piece swept off as the mover lands is
// usually never reported as an empty square; taken off first, it always
// is, before the mover's origin.
func TestCaptureOrders(t *testing.T) {
	pos, err := chess.NewPosition(chess.Standard, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m := mustMove(t, pos, "e4d5")
	d5, _ := dgt.FieldOf(sq(t, "d5"), dgt.Normal)
	e4, _ := dgt.FieldOf(sq(t, "e4"), dgt.Normal)
	neverEmpty := 0
	for seed := uint64(1); seed <= 50; seed++ {
		h := emu.TidyHands()
		h.CaptureSwap = 1
		p := play(t, emu.Game{Start: pos, Moves: []rules.Move{m}, Seed: seed, Hands: h})
		if _, codes := fieldHistory(p, d5, p.PowerUp); !slices.Contains(codes, dgt.Empty) {
			neverEmpty++
		}
		h = emu.TidyHands()
		h.CaptureFirst = 1
		p = play(t, emu.Game{Start: pos, Moves: []rules.Move{m}, Seed: seed, Hands: h})
		dt, dc := fieldHistory(p, d5, p.PowerUp)
		et, _ := fieldHistory(p, e4, p.PowerUp)
		if len(dc) != 2 || dc[0] != dgt.Empty || len(et) != 1 || et[0].Before(dt[0]) {
			t.Fatalf("seed %d capture first: d5 %v at %v, e4 at %v", seed, dc, dt, et)
		}
	}
	if neverEmpty < 35 {
		t.Fatalf("swept captures: d5 never seen empty in only %d of 50", neverEmpty)
	}
}

// TestSlidesAreSeenWhereTheScanMeetsThem: a rook slid from a1 to a8 over
// six squares is reported on some of them, and ends on a8.
func TestSlidesAreSeenWhereTheScanMeetsThem(t *testing.T) {
	pos, err := chess.NewPosition(chess.Standard, "1k6/8/8/8/8/8/8/R3K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m := mustMove(t, pos, "a1a8")
	seen := 0
	for seed := uint64(1); seed <= 20; seed++ {
		h := emu.TidyHands()
		h.Slide = 1
		p := play(t, emu.Game{Start: pos, Moves: []rules.Move{m}, Seed: seed, Hands: h})
		for r := 2; r <= 7; r++ {
			f, _ := dgt.FieldOf(rules.Chess8x8.Square(0, r-1), dgt.Normal)
			if _, codes := fieldHistory(p, f, p.PowerUp); slices.Contains(codes, dgt.WhiteRook) {
				seen++
			}
		}
		next, _ := pos.Play(m)
		if got := heardPlacement(t, p); got != next.Placement() {
			t.Fatalf("seed %d: heard %s", seed, got.String())
		}
	}
	if seen == 0 || seen == 20*6 {
		t.Fatalf("the rook was seen on %d of 120 squares it slid over: the scan should catch some, not all", seen)
	}
}
