package obpfeed

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/obp/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi/games"
)

// follow plays game g on an emulated board (pieces identified or
// occupancy only), translates every line, and returns the placement the
// square changes and full reads lead to.
func follow(t *testing.T, g *pgn.Game, occupancy bool, seed uint64) (rules.Placement, int) {
	t.Helper()
	moves := make([]rules.Move, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.Move
	}
	s, err := emu.GameScript(g.Start, moves, emu.GameOptions{Seed: seed, Speed: 10, Incidents: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 2, 8, 8, 0, 0, 0, time.UTC)
	pl := g.Start.Placement()
	e, err := emu.New(emu.Options{Geo: g.Start.Geometry(), Placement: &pl, Occupancy: occupancy}, t0)
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule(t0, s)
	d := obp.NewDecoder(g.Start.Geometry())
	tr := New(pl)
	mirror := pl
	changes := 0
	var out []game.Sensed
	for at := time.Duration(0); at <= s.Duration()+time.Second; at += 50 * time.Millisecond {
		e.Advance(t0.Add(at))
		d.Feed(e.Output())
		for {
			m, err := d.Next()
			if errors.Is(err, obp.ErrNeedMore) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err = tr.Append(out[:0], m)
			if err != nil {
				t.Fatalf("%T %v: %v", m, m, err)
			}
			for _, x := range out {
				switch x := x.(type) {
				case game.SquareChange:
					mirror.Sq[x.Square] = x.Piece
					changes++
				case game.FullRead:
					mirror = x.Placement
				}
			}
		}
	}
	return mirror, changes
}

// TestFollowGames: every shipped master game, played by human hands on an
// emulated board (captures in either order, pieces touched and put back,
// slides), translated line by line, ends at the game's final position,
// on a board that identifies pieces and on one that senses only
// occupancy.
func TestFollowGames(t *testing.T) {
	all, errs := pgn.ReadAll(strings.NewReader(games.CCPD), pgn.ReaderOptions{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if testing.Short() {
		all = all[:3]
	}
	for i, g := range all {
		final, err := g.Final()
		if err != nil {
			t.Fatal(err)
		}
		for _, occ := range []bool{false, true} {
			got, changes := follow(t, g, occ, uint64(i))
			if got != final.Placement() {
				want := final.Placement()
				t.Errorf("game %d (occupancy %v): followed to %s, want %s", i+1, occ, got.String(), want.String())
			}
			if changes < 2*len(g.Moves) {
				t.Errorf("game %d: %d square changes for %d moves", i+1, changes, len(g.Moves))
			}
		}
	}
}

// TestClockAndBoard: the clock line is a face with the first player on
// the left, said so; "C none" is an absent clock; a full read of an
// occupancy board names the pieces it knows, and an occupied point never
// seen is ErrUnidentified.
func TestClockAndBoard(t *testing.T) {
	tr := New(emu.StartArray(rules.Xiangqi9x10))
	out, _ := tr.Append(nil, obp.Clock{First: time.Minute, Second: 0, Running: rules.Black})
	want := game.ClockFace{Left: time.Minute, Right: 0, RightFlag: true, Running: game.RightDisplay, LeftIs: rules.White}
	if len(out) != 1 || out[0] != want {
		t.Errorf("clock %v, want %v", out, want)
	}
	if out, _ := tr.Append(nil, obp.Clock{None: true}); len(out) != 1 || out[0] != (game.ClockFace{Absent: true}) {
		t.Errorf("no clock: %v", out)
	}
	if r := want.Reading(rules.White); r.White != time.Minute || r.Running != rules.Black || !r.BlackFlag {
		t.Errorf("reading %+v", r)
	}
	g := rules.Xiangqi9x10
	e0, _ := g.ParseSquare("e0")
	e5, _ := g.ParseSquare("e5")
	b := obp.Board{Placement: rules.NewPlacement(g), Unidentified: []rules.Square{e0}}
	out, err := tr.Append(nil, b)
	if err != nil || out[0].(game.FullRead).Placement.Sq[e0] != (rules.Piece{Color: rules.White, Kind: rules.King}) {
		t.Errorf("occupancy full read: %v, %v", out, err)
	}
	b.Unidentified = []rules.Square{e0, e5}
	if _, err := New(emu.StartArray(g)).Append(nil, b); !errors.Is(err, ErrUnidentified) {
		t.Errorf("a piece never seen: %v", err)
	}
	if _, err := New(emu.StartArray(g)).Append(nil, obp.Put{Square: e5, Unidentified: true}); !errors.Is(err, ErrUnidentified) {
		t.Errorf("a put with an empty hand: %v", err)
	}
}

// TestOccupancyRestWhileCapturing: a board that senses only occupancy; a
// cannon captures, its player taking the captured piece off after
// lifting the cannon and resting the cannon on a point on its way. The
// piece put on the resting point is the mover's (the side that did not
// move last), not the captured one lifted after it; then the same for
// the other side's capture, resting twice (a rest is not the end of a
// move: the captured piece is still in the hand). A resting piece whose
// sensor chatters (lifted and put back, the captured piece in the hand)
// is the mover's piece put back, not a capture of it: a player captures
// none of his own.
func TestOccupancyRestWhileCapturing(t *testing.T) {
	start := xiangqi.StartPosition()
	tr := New(start.Placement())
	tr.SetTurn(rules.White)
	sq := xqSquares(t)
	cannon := func(c rules.Color) rules.Piece { return rules.Piece{Color: c, Kind: rules.Cannon} }
	feedNamed(t, "", tr, []namedStep{
		{obp.Lift{Square: sq("b2")}, rules.NoPiece},
		{obp.Lift{Square: sq("b9")}, rules.NoPiece},
		{obp.Put{Square: sq("b5"), Unidentified: true}, cannon(rules.White)},
		{obp.Lift{Square: sq("b5")}, rules.NoPiece}, // the resting cannon's sensor chatters
		{obp.Put{Square: sq("b5"), Unidentified: true}, cannon(rules.White)},
		{obp.Lift{Square: sq("b5")}, rules.NoPiece},
		{obp.Put{Square: sq("b9"), Unidentified: true}, cannon(rules.White)},
		{obp.Lift{Square: sq("b7")}, rules.NoPiece},
		{obp.Lift{Square: sq("b0")}, rules.NoPiece},
		{obp.Put{Square: sq("b5"), Unidentified: true}, cannon(rules.Black)},
		{obp.Lift{Square: sq("b5")}, rules.NoPiece},
		{obp.Put{Square: sq("b4"), Unidentified: true}, cannon(rules.Black)}, // a second rest
		{obp.Lift{Square: sq("b4")}, rules.NoPiece},
		{obp.Put{Square: sq("b0"), Unidentified: true}, cannon(rules.Black)},
	})
}

// TestOccupancyChatterWhileTheOpponentMoves: a board that senses only
// occupancy; Red has moved (an elephant c0-a2) and Black lifts his cannon
// from h8 while the elephant's sensor chatters (lifted, then back). With
// the game's rules (SetCanTake, CanTake), the piece put back on a2 is the
// elephant: the cannon cannot take on a2 from h8. The cannon then rests
// on g8 and ends on f8. A capture the rules allow (the cannon of b7 over
// the cannon of b2 onto the horse of b0, lifted first) is read as one,
// also when a chariot's sensor chatters meanwhile (the chariot, lifted
// last, cannot take there); without the rules, the chatter is read as a
// capture by the cannon.
func TestOccupancyChatterWhileTheOpponentMoves(t *testing.T) {
	sq := xqSquares(t)
	pl := xiangqi.StartPosition().Placement()
	move := func(from, to string) { pl.Sq[sq(to)], pl.Sq[sq(from)] = pl.Sq[sq(from)], rules.NoPiece }
	move("c0", "a2")
	move("h7", "h8")
	pos, err := xiangqi.FromPlacement(pl, rules.Black, xiangqi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	elephant, cannon := pl.Sq[sq("a2")], pl.Sq[sq("h8")]
	type step = namedStep
	run := func(name string, steps []step) {
		tr := New(pl)
		tr.SetTurn(rules.Black)
		tr.SetCanTake(func(from, to rules.Square) bool { return CanTake(pos, tr.Shown(), from, to) })
		feedNamed(t, name+": ", tr, steps)
	}
	chatter := []step{
		{obp.Lift{Square: sq("a2")}, rules.NoPiece},
		{obp.Lift{Square: sq("h8")}, rules.NoPiece},
		{obp.Put{Square: sq("a2"), Unidentified: true}, elephant},
		{obp.Put{Square: sq("g8"), Unidentified: true}, cannon},
		{obp.Lift{Square: sq("g8")}, rules.NoPiece},
		{obp.Put{Square: sq("f8"), Unidentified: true}, cannon},
	}
	run("chatter", chatter)
	run("capture", []step{
		{obp.Lift{Square: sq("b0")}, rules.NoPiece},
		{obp.Lift{Square: sq("b7")}, rules.NoPiece},
		{obp.Put{Square: sq("b0"), Unidentified: true}, pl.Sq[sq("b7")]},
	})
	run("capture while a chariot chatters", []step{
		{obp.Lift{Square: sq("b0")}, rules.NoPiece},
		{obp.Lift{Square: sq("b7")}, rules.NoPiece},
		{obp.Lift{Square: sq("a9")}, rules.NoPiece}, // the chariot's sensor: it cannot take on b0
		{obp.Put{Square: sq("b0"), Unidentified: true}, pl.Sq[sq("b7")]},
		{obp.Put{Square: sq("a9"), Unidentified: true}, pl.Sq[sq("a9")]},
	})
	tr := New(pl)
	tr.SetTurn(rules.Black)
	for _, s := range chatter[:2] {
		if _, err := tr.Append(nil, s.msg); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := tr.Append(nil, chatter[2].msg); err != nil || out[0].(game.SquareChange).Piece != cannon {
		t.Fatalf("without the rules: %v, %v; want the cannon's capture (the reading the rules correct)", out, err)
	}
}

// TestOccupancyCaptureEndsTheMove: a board that senses only occupancy;
// Red's cannon takes the horse of b9 while the advisor of d0 chatters (up
// when the cannon lands, back after). The capture ended Red's move though
// a piece was still in the hand: Black's chariot then taking the cannon
// on b9 is Black's capture, not Red's cannon put back.
func TestOccupancyCaptureEndsTheMove(t *testing.T) {
	start := xiangqi.StartPosition()
	sq := xqSquares(t)
	pl := start.Placement()
	tr := New(pl)
	tr.SetTurn(rules.White)
	tr.SetCanTake(func(from, to rules.Square) bool { return from != sq("d0") }) // an advisor takes nothing on b9
	feedNamed(t, "", tr, []namedStep{
		{obp.Lift{Square: sq("b2")}, rules.NoPiece},
		{obp.Lift{Square: sq("b9")}, rules.NoPiece},
		{obp.Lift{Square: sq("d0")}, rules.NoPiece}, // the advisor's sensor chatters
		{obp.Put{Square: sq("b9"), Unidentified: true}, pl.Sq[sq("b2")]},
		{obp.Put{Square: sq("d0"), Unidentified: true}, pl.Sq[sq("d0")]},
		{obp.Lift{Square: sq("a9")}, rules.NoPiece},
		{obp.Lift{Square: sq("b9")}, rules.NoPiece},
		{obp.Put{Square: sq("b9"), Unidentified: true}, pl.Sq[sq("a9")]},
	})
}

// TestOccupancyRestingPieceAskedFromItsOrigin: a board that senses only
// occupancy; Red's cannon goes h2-h3-h4-h9 to take the horse (lifted
// first), resting twice, and the sensor of Black's horse on b9 chatters
// between the rests. Whether the cannon may take on b9 is asked from h2,
// where it came from (the rules know no piece on h3): it may not, and the
// horse is put back; the cannon's capture on h9 is read as one.
func TestOccupancyRestingPieceAskedFromItsOrigin(t *testing.T) {
	start := xiangqi.StartPosition()
	sq := xqSquares(t)
	pl := start.Placement()
	tr := New(pl)
	tr.SetTurn(rules.White)
	tr.SetCanTake(func(from, to rules.Square) bool { return from != sq("h2") || to != sq("b9") })
	cannon, horse := pl.Sq[sq("h2")], pl.Sq[sq("b9")]
	feedNamed(t, "", tr, []namedStep{
		{obp.Lift{Square: sq("h2")}, rules.NoPiece},
		{obp.Lift{Square: sq("h9")}, rules.NoPiece},
		{obp.Put{Square: sq("h3"), Unidentified: true}, cannon},
		{obp.Lift{Square: sq("h3")}, rules.NoPiece},
		{obp.Lift{Square: sq("b9")}, rules.NoPiece}, // the horse's sensor chatters
		{obp.Put{Square: sq("b9"), Unidentified: true}, horse},
		{obp.Put{Square: sq("h4"), Unidentified: true}, cannon},
		{obp.Lift{Square: sq("h4")}, rules.NoPiece},
		{obp.Put{Square: sq("h9"), Unidentified: true}, cannon},
	})
}

// TestCanTakeBeforeTheRecordHasTheMove: the game's position has Red to
// move while the board already shows Red's b2xb9: Black's pieces are asked
// about in the position after that move (the chariot of a9 may take on
// b9, the advisor of d9 may not); when no move of Red's shows, nothing
// can tell.
func TestCanTakeBeforeTheRecordHasTheMove(t *testing.T) {
	pos := xiangqi.StartPosition()
	sq := xqSquares(t)
	shown := pos.Placement()
	shown.Sq[sq("b9")], shown.Sq[sq("b2")] = shown.Sq[sq("b2")], rules.NoPiece
	for _, c := range []struct {
		shown    rules.Placement
		from, to string
		want     bool
	}{
		{shown, "a9", "b9", true},
		{shown, "d9", "b9", false},
		{pos.Placement(), "d9", "b9", true},
		{pos.Placement(), "h2", "b9", false}, // Red's cannon: the position says
	} {
		if got := CanTake(pos, c.shown, sq(c.from), sq(c.to)); got != c.want {
			t.Errorf("%s may take on %s: %v, want %v", c.from, c.to, got, c.want)
		}
	}
}

// xqSquares returns a function that names the points of a xiangqi board
// ("b9"), failing the test on a name that is none.
func xqSquares(t *testing.T) func(string) rules.Square {
	return func(n string) rules.Square {
		s, err := rules.Xiangqi9x10.ParseSquare(n)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

// namedStep is a message fed to a translator and, for a put, the piece it
// must name (rules.NoPiece for a lift).
type namedStep struct {
	msg  obp.Message
	want rules.Piece
}

// feedNamed feeds steps to tr in order: each must give one square change,
// naming the step's piece. prefix starts the failure's message.
func feedNamed(t *testing.T, prefix string, tr *Translator, steps []namedStep) {
	t.Helper()
	for _, s := range steps {
		out, err := tr.Append(nil, s.msg)
		if err != nil || len(out) != 1 {
			t.Fatalf("%s%+v: %v, %v", prefix, s.msg, out, err)
		}
		if got := out[0].(game.SquareChange).Piece; got != s.want {
			t.Fatalf("%s%+v: named %v, want %v", prefix, s.msg, got, s.want)
		}
	}
}
