package dgtfeed

import (
	"reflect"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

func TestAppend(t *testing.T) {
	e4 := rules.Chess8x8.Square(4, 3)
	wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
	e4Field := dgt.Field(8*(7-3) + 4) // fields count from a8 in the board's normal orientation
	if e4Field.Square(dgt.Normal) != e4 {
		t.Fatalf("field %d is %v", e4Field, e4Field.Square(dgt.Normal))
	}
	records, err := dgt.AppendEE(nil, []dgt.EEEvent{
		{Kind: dgt.EEPiece, Field: e4Field, Piece: dgt.WhitePawn},
		{Kind: dgt.EEPiece, Field: e4Field, Piece: dgt.Empty},
	})
	if err != nil {
		t.Fatal(err)
	}
	running := dgt.ClockTimes{Left: dgt.ClockSide{Minutes: 5}, Right: dgt.ClockSide{Minutes: 4, Seconds: 59, Flag: true}, Status: 0x01 | 0x02}
	for _, tc := range []struct {
		name string
		m    dgt.Message
		want []game.Sensed
	}{
		{"placement", dgt.FieldUpdate{Field: e4Field, Piece: dgt.WhitePawn}, []game.Sensed{game.SquareChange{Square: e4, Piece: wp}}},
		{"lift", dgt.FieldUpdate{Field: e4Field, Piece: dgt.Empty}, []game.Sensed{game.SquareChange{Square: e4, Piece: rules.NoPiece}}},
		{"magic piece", dgt.FieldUpdate{Field: e4Field, Piece: dgt.MagicWhiteWin}, []game.Sensed{game.ResultSignal{Result: "1-0", Gesture: "magic_piece"}}},
		{"bus changes, in order", dgt.BusUpdate{Address: 7, Data: string(records)}, []game.Sensed{
			game.SquareChange{Square: e4, Piece: wp}, game.SquareChange{Square: e4, Piece: rules.NoPiece}}},
		{"clock running on the right", running, []game.Sensed{game.ClockFace{Left: 5 * time.Minute, Right: 4*time.Minute + 59*time.Second,
			RightFlag: true, Running: game.RightDisplay, LeftIs: rules.NoColor}}},
		{"bus clock", dgt.BusClock{Address: 7, Clock: running}, []game.Sensed{Face(running)}},
		{"no clock", dgt.ClockTimes{Status: 0x20}, []game.Sensed{game.ClockFace{Absent: true, LeftIs: rules.NoColor}}},
		{"all-zero clock message", dgt.ClockTimes{}, nil},
		{"version", dgt.Version{Major: 1, Minor: 4}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Append(nil, tc.m); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
	var d dgt.BoardDump
	d.Fields[e4Field] = dgt.WhitePawn
	d.Fields[0] = dgt.MagicDraw
	got := Append(nil, d)
	if len(got) != 2 || got[0] != (game.ResultSignal{Result: "1/2-1/2", Gesture: "magic_piece"}) {
		t.Fatalf("dump with a magic piece: %v", got)
	}
	if fr, ok := got[1].(game.FullRead); !ok || fr.Placement.At(e4) != wp || !fr.Placement.At(rules.Chess8x8.Square(0, 7)).IsEmpty() {
		t.Errorf("full read %v", got[1])
	}
}

// TestLog: the records a power-up writes (every occupied field) become
// one whole placement; piece records changes, clock records presses of
// the display they name; other tags are left out.
func TestLog(t *testing.T) {
	l := dgt.EELog{Wrapped: true, Entries: []dgt.EEEvent{
		{Kind: dgt.EEPowerUp},
		{Kind: dgt.EEPiece, Field: 0, Piece: dgt.BlackRook},
		{Kind: dgt.EEPiece, Field: 60, Piece: dgt.WhiteKing},
		{Kind: dgt.EEBeginPos},
		{Kind: dgt.EEPiece, Field: 60, Piece: dgt.Empty},
		{Kind: dgt.EEPiece, Field: 61, Piece: dgt.WhiteKing, Fast: true},
		{Kind: dgt.EEClock, Display: dgt.LeftSide, Minutes: 5, Seconds: 3},
		{Kind: dgt.EEClock, Display: dgt.RightSide, Hours: 1},
	}}
	got := Log(l)
	if !got.Wrapped || len(got.Entries) != 5 {
		t.Fatalf("got %+v", got)
	}
	b, ok := got.Entries[0].(game.LogBoard)
	if !ok {
		t.Fatalf("first entry %#v", got.Entries[0])
	}
	a8, e1 := rules.Square(56), rules.Square(4)
	if b.Placement.Sq[a8] != (rules.Piece{Color: rules.Black, Kind: rules.Rook}) || b.Placement.Sq[e1] != (rules.Piece{Color: rules.White, Kind: rules.King}) {
		t.Errorf("power-up placement %v", b.Placement)
	}
	want := []game.LogEntry{
		game.LogChange{Square: e1, Piece: rules.NoPiece},
		game.LogChange{Square: e1 + 1, Piece: rules.Piece{Color: rules.White, Kind: rules.King}, Fast: true},
		game.LogPress{Display: game.LeftDisplay, Time: 5*time.Minute + 3*time.Second},
		game.LogPress{Display: game.RightDisplay, Time: time.Hour},
	}
	for i, w := range want {
		if got.Entries[i+1] != w {
			t.Errorf("entry %d: %#v, want %#v", i+1, got.Entries[i+1], w)
		}
	}
}
