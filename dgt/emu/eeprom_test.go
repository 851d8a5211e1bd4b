package emu_test

import (
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
)

// eeLog asks e for its EEPROM at now (DGT_SEND_EE_MOVES) and parses the
// dump with reading f.
func eeLog(t *testing.T, e *emu.Emulator, now time.Time, f dgt.EEFBit) dgt.EELog {
	t.Helper()
	e.Input(now, []byte{0x49})
	var dump *dgt.EEMoves
	for _, m := range decode(t, dgt.SingleBoard, e.Output()) {
		if d, ok := m.(dgt.EEMoves); ok {
			dump = &d
		}
	}
	if dump == nil {
		t.Fatal("no EE_MOVES reply")
	}
	if len(dump.Data) != 0x1F00 {
		t.Fatalf("dump of %d bytes, want 0x1F00", len(dump.Data))
	}
	l := dump.Log(f)
	if l.Err != nil {
		t.Fatalf("log: %v", l.Err)
	}
	return l
}

// replayLog applies the piece records of l from its last power-up (or
// start tag) on and returns the position they describe.
func replayLog(l dgt.EELog) (b [dgt.NumFields]dgt.PieceCode) {
	for _, e := range l.Entries {
		switch e.Kind {
		case dgt.EEPowerUp, dgt.EEStartTag:
			b = [dgt.NumFields]dgt.PieceCode{}
		case dgt.EEPiece:
			b[e.Field] = e.Piece
		}
	}
	return b
}

func kinds(l dgt.EELog) []dgt.EEKind {
	var k []dgt.EEKind
	for _, e := range l.Entries {
		k = append(k, e.Kind)
	}
	return k
}

// TestEEPROMLogOfAGame: after a game played by realistic hands the dump
// holds the power-up sequence, a begin-position tag, every change (whose
// replay gives the final position) and, per ply, the time on the display
// the mover halted, on the mover's side.
func TestEEPROMLogOfAGame(t *testing.T) {
	start := chess.StartPosition(chess.Standard)
	moves, final := randomGame(t, start, 21, 80)
	p := play(t, emu.Game{Start: start, Moves: moves, Seed: 21, Board: emu.Setup{Clock: emu.ClockSetting{Base: 10 * time.Minute, Increment: 5 * time.Second}}})
	l := eeLog(t, p.Emulator, p.End, dgt.FLeft)
	k := kinds(l)
	if len(k) < 35 || k[0] != dgt.EEPowerUp || k[33] != dgt.EEBeginPos {
		t.Fatalf("log starts %v, want power-up, 32 pieces, begin position", k[:min(len(k), 35)])
	}
	d := dgt.BoardDump{Fields: replayLog(l)}
	if got, want := d.Placement(dgt.Normal), final.Placement(); got != want {
		t.Fatalf("replayed log %s, want %s", got.String(), want.String())
	}
	var clocks []dgt.EEEvent
	for _, e := range l.Entries {
		if e.Kind == dgt.EEClock {
			clocks = append(clocks, e)
		}
	}
	if len(clocks) != len(moves) {
		t.Fatalf("%d clock records for %d plies (one per press that halts a running clock)", len(clocks), len(moves))
	}
	for i, c := range clocks {
		want := dgt.LeftSide // White on the left moves at even i
		if i%2 == 1 {
			want = dgt.RightSide
		}
		if c.Display != want || c.Time() > 10*time.Minute+time.Duration(i/2+2)*5*time.Second || c.Time() < 5*time.Minute {
			t.Fatalf("clock record %d: %v, want the %v display with a plausible time", i, c, want)
		}
	}
	again := eeLog(t, p.Emulator, p.End.Add(time.Second), dgt.FLeft)
	if n := len(again.Entries); again.Entries[n-1].Kind != dgt.EEDownloaded {
		t.Fatalf("second dump ends %v, want EE_DOWNLOADED after the first download", again.Entries[n-1])
	}
}

// TestEEPROMFBit: a board that writes the f bit the other way round is
// read correctly with FRight, and with the sides swapped with FLeft.
func TestEEPROMFBit(t *testing.T) {
	for _, board := range []dgt.EEFBit{dgt.FLeft, dgt.FRight} {
		e := emu.New(emu.Setup{EEFBit: board}, t0)
		e.Do(t0, emu.Action{Kind: emu.Press, Side: emu.Right}) // starts Left's clock
		e.Do(t0.Add(3*time.Second), emu.Action{Kind: emu.Press, Side: emu.Left})
		for _, read := range []dgt.EEFBit{dgt.FLeft, dgt.FRight} {
			var got []dgt.Side
			for _, r := range eeLog(t, e, t0.Add(4*time.Second), read).Entries {
				if r.Kind == dgt.EEClock {
					got = append(got, r.Display)
				}
			}
			want := dgt.LeftSide
			if board != read {
				want = dgt.RightSide
			}
			if !slices.Equal(got, []dgt.Side{want}) {
				t.Fatalf("board writes %v, read as %v: displays %v, want [%v]", board, read, got, want)
			}
		}
	}
}

// TestEEPROMOverwritesOneChangingPiece: a piece lifted and put back
// slowly (both seen by the scan) leaves one record, the last state; a
// change elsewhere in between keeps both.
func TestEEPROMOverwritesOneChangingPiece(t *testing.T) {
	wn := rules.Piece{Color: rules.White, Kind: rules.Knight}
	for _, tc := range []struct {
		name   string
		script emu.Script
		want   []string
	}{
		{"same field", emu.Script{
			{At: time.Second, Kind: emu.Lift, Square: sqName("g1")},
			{At: 2 * time.Second, Kind: emu.Place, Square: sqName("g1"), Piece: wn},
		}, []string{"g1 N"}},
		{"another field between", emu.Script{
			{At: time.Second, Kind: emu.Lift, Square: sqName("g1")},
			{At: 2 * time.Second, Kind: emu.Lift, Square: sqName("b1")},
			{At: 3 * time.Second, Kind: emu.Place, Square: sqName("g1"), Piece: wn},
		}, []string{"g1 .", "b1 .", "g1 N"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := emu.New(emu.Setup{}, t0)
			e.Schedule(t0, tc.script)
			e.Advance(t0.Add(4 * time.Second))
			l := eeLog(t, e, t0.Add(4*time.Second), dgt.FLeft)
			var got []string
			for _, r := range l.Entries[34:] { // after power-up, 32 pieces, begin position
				if r.Kind == dgt.EEPiece {
					got = append(got, r.Field.String()+" "+r.Piece.String())
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("piece records %v, want %v", got, tc.want)
			}
		})
	}
}

// TestEEPROMPositionTags: begin-position, rotated, four-rows and
// empty-board tags are written when the position appears, and again only
// after more than two pieces have left the tagged position (two knights
// out and back, or two pawns, are not enough).
func TestEEPROMPositionTags(t *testing.T) {
	lift := func(at time.Duration, sq string) emu.Action {
		return emu.Action{At: at, Kind: emu.Lift, Square: sqName(sq)}
	}
	put := func(at time.Duration, sq string, c rules.Color, k rules.Kind) emu.Action {
		return emu.Action{At: at, Kind: emu.Place, Square: sqName(sq), Piece: rules.Piece{Color: c, Kind: k}}
	}
	const s = time.Second
	W, B := rules.White, rules.Black
	for _, tc := range []struct {
		name   string
		opts   emu.Setup
		script emu.Script
		want   int // begin-position tags after the power-up one
	}{
		{"two pieces out and back: no new tag", emu.Setup{}, emu.Script{
			lift(s, "e2"), lift(2*s, "d2"), put(3*s, "e2", W, rules.Pawn), put(4*s, "d2", W, rules.Pawn)}, 0},
		{"two knights out and back: no new tag", emu.Setup{}, emu.Script{
			lift(s, "g1"), put(2*s, "f3", W, rules.Knight), lift(3*s, "g8"), put(4*s, "f6", B, rules.Knight),
			lift(5*s, "f3"), put(6*s, "g1", W, rules.Knight), lift(7*s, "f6"), put(8*s, "g8", B, rules.Knight)}, 0},
		{"three pieces out and back: a new tag", emu.Setup{}, emu.Script{
			lift(s, "e2"), lift(2*s, "d2"), lift(3*s, "c2"),
			put(4*s, "e2", W, rules.Pawn), put(5*s, "d2", W, rules.Pawn), put(6*s, "c2", W, rules.Pawn)}, 1},
		{"rotated board", emu.Setup{Orientation: dgt.Rotated}, emu.Script{
			lift(s, "e7"), lift(2*s, "d7"), lift(3*s, "c7"),
			put(4*s, "e7", B, rules.Pawn), put(5*s, "d7", B, rules.Pawn), put(6*s, "c7", B, rules.Pawn)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := emu.New(tc.opts, t0)
			e.Schedule(t0, tc.script)
			end := t0.Add(tc.script.Duration() + s)
			e.Advance(end)
			tag := dgt.EEBeginPos
			if tc.opts.Orientation == dgt.Rotated {
				tag = dgt.EEBeginPosRot
			}
			n := 0
			for _, k := range kinds(eeLog(t, e, end, dgt.FLeft)) {
				if k == tag {
					n++
				}
				if k == dgt.EEBeginPos+dgt.EEBeginPosRot-tag {
					t.Fatalf("wrong orientation tag %v", k)
				}
			}
			if n != 1+tc.want {
				t.Fatalf("%d %v tags, want %d (power-up) + %d", n, tag, 1, tc.want)
			}
		})
	}
	t.Run("chess960 and empty board", func(t *testing.T) {
		pl := chess.Chess960Start(0).Placement()
		e := emu.New(emu.Setup{Placement: &pl}, t0)
		var script emu.Script
		for sq := rules.Square(0); sq < 64; sq++ {
			if !pl.Sq[sq].IsEmpty() {
				script = append(script, emu.Action{At: time.Duration(len(script)+1) * 300 * time.Millisecond, Kind: emu.Lift, Square: sq})
			}
		}
		e.Schedule(t0, script)
		end := t0.Add(script.Duration() + s)
		e.Advance(end)
		k := kinds(eeLog(t, e, end, dgt.FLeft))
		if k[33] != dgt.EEFourRows || k[len(k)-1] != dgt.EEEmptyBoard || slices.Contains(k, dgt.EEBeginPos) {
			t.Fatalf("tags %v: want four rows after power-up, empty board at the end", k)
		}
	})
}

// TestEEPROMWraps: a long game fills the 0x1F00-byte buffer; the dump then
// starts with the remains of an overwritten record, which the parser skips
// (Wrapped) without a bad record, and the rest replays to the final
// position from the tail.
func TestEEPROMWraps(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		start := chess.StartPosition(chess.Standard)
		pos := rules.Position(start)
		var moves []rules.Move
		shuffle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
		for i := 0; i < 1200+int(seed)*7; i++ {
			m := mustMove(t, pos, shuffle[i%4])
			moves = append(moves, m)
			pos, _ = pos.Play(m)
		}
		h := emu.TidyHands()
		h.Think = emu.Span{Min: 200 * time.Millisecond, Max: 400 * time.Millisecond}
		p := play(t, emu.Game{Start: start, Moves: moves, Seed: seed, Hands: h})
		l := eeLog(t, p.Emulator, p.End, dgt.FLeft)
		if !l.Wrapped || l.Bad != 0 || slices.Contains(kinds(l), dgt.EEPowerUp) {
			t.Fatalf("seed %d: wrapped %v, %d bad, power-up kept: %v", seed, l.Wrapped, l.Bad, kinds(l)[:10])
		}
		// The knights shuffle: the other pieces never move, so the last
		// record of each knight square tells the final position.
		last := map[dgt.Field]dgt.PieceCode{}
		for _, e := range l.Entries {
			if e.Kind == dgt.EEPiece {
				last[e.Field] = e.Piece
			}
		}
		fin := p.Emulator.Placement()
		for f, c := range last {
			want, _ := dgt.PieceCodeOf(fin.Sq[f.Square(dgt.Normal)])
			if c != want {
				t.Fatalf("seed %d: field %v last recorded %v, board holds %v", seed, f, c, want)
			}
		}
	}
}

// TestEEPROMPowerCycleAndWatchdog: pieces moved while the board has no
// power are not recorded; at power-on the board writes the power-up
// sequence with the position it finds; a watchdog reset writes
// EE_WATCHDOG_ACTION first. A board without EEPROM does not answer the
// dump; an erased one holds only what came after.
func TestEEPROMPowerCycleAndWatchdog(t *testing.T) {
	e := emu.New(emu.Setup{}, t0)
	e.PowerOff(t0.Add(time.Second))
	e.Schedule(t0, emu.Script{
		{At: 2 * time.Second, Kind: emu.Lift, Square: sqName("e2")},
		{At: 3 * time.Second, Kind: emu.Place, Square: sqName("e4"), Piece: rules.Piece{Color: rules.White, Kind: rules.Pawn}},
	})
	e.Input(t0.Add(4*time.Second), []byte{0x42})
	if out := e.Output(); len(out) != 0 {
		t.Fatalf("a board without power answered % x", out)
	}
	e.PowerOn(t0.Add(5 * time.Second))
	if !e.BusMode() {
		t.Fatal("the board does not start in bus mode")
	}
	l := eeLog(t, e, t0.Add(6*time.Second), dgt.FLeft)
	k := kinds(l)
	if n := slices.Index(k[1:], dgt.EEPowerUp); n < 0 || len(k) != 34+33 || l.Pieces() != 64 {
		t.Fatalf("log %v: want two power-up sequences and nothing between", k)
	}
	if b := replayLog(l); b[36] != dgt.WhitePawn || b[52] != dgt.Empty {
		t.Fatalf("power-up records do not show e4: %v", b)
	}
	e.WatchdogReset(t0.Add(7 * time.Second))
	k = kinds(eeLog(t, e, t0.Add(8*time.Second), dgt.FLeft))
	if i := slices.Index(k, dgt.EEWatchdog); i < 0 || k[i+1] != dgt.EEPowerUp {
		t.Fatalf("watchdog reset: %v", k)
	}
	e.EraseEEPROM(t0.Add(9 * time.Second))
	if k := kinds(eeLog(t, e, t0.Add(10*time.Second), dgt.FLeft)); len(k) != 0 {
		t.Fatalf("erased EEPROM holds %v", k)
	}
	none := emu.New(emu.Setup{NoEEPROM: true}, t0)
	none.Input(t0, []byte{0x49})
	if out := none.Output(); len(out) != 0 {
		t.Fatalf("a board without EEPROM answered the dump with %d bytes", len(out))
	}
}

// TestBusFromStartExcludesUnfetchedChanges: SEND_FROM_START returns the
// records from the start tag up to what SEND_CHANGES delivered; the rest
// comes with the next SEND_CHANGES, so the two together are the whole log.
func TestBusFromStartExcludesUnfetchedChanges(t *testing.T) {
	l := newLine(2)
	b := l.Boards()[0]
	a := b.Address()
	now := t0
	send := func(op byte) dgt.Message {
		t.Helper()
		l.Input(now, busCmd(op, a))
		msgs := decode(t, dgt.Bus, step(l, &now, 200*time.Millisecond))
		if len(msgs) != 1 {
			t.Fatalf("command 0x%02x: %v", op, msgs)
		}
		return msgs[0]
	}
	send(0x85) // SET_START_GAME
	wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
	b.Schedule(now, emu.Script{{At: 0, Kind: emu.Lift, Square: sqName("e2")}, {At: 400 * time.Millisecond, Kind: emu.Place, Square: sqName("e4"), Piece: wp}})
	step(l, &now, time.Second)
	first := dgt.ParseEELog([]byte(send(0x83).(dgt.BusUpdate).Data), dgt.FLeft)
	b.Schedule(now, emu.Script{{At: 0, Kind: emu.Lift, Square: sqName("d2")}, {At: 400 * time.Millisecond, Kind: emu.Place, Square: sqName("d4"), Piece: wp}})
	step(l, &now, time.Second)
	fs := send(0x86).(dgt.BusFromStart).Log(dgt.FLeft)
	rest := send(0x83).(dgt.BusUpdate).Log(dgt.FLeft)
	if fs.Entries[0].Kind != dgt.EEStartTag || fs.Pieces() != 32+2 || first.Entries[len(first.Entries)-1] != fs.Entries[len(fs.Entries)-1] {
		t.Fatalf("FROM_START %v: want the start tag, 32 pieces and the fetched e2-e4 (%v)", fs.Entries, first.Entries)
	}
	if rest.Pieces() != 2 || rest.Entries[0].Field != 51 {
		t.Fatalf("SEND_CHANGES after FROM_START: %v, want d2 and d4", rest.Entries)
	}
}
