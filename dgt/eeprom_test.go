package dgt

import (
	"errors"
	"io"
	"testing"
)

func TestEEParse(t *testing.T) {
	data := []byte{
		0x7F, 0x7F, 0x7F, 0x6A, // 3 × NOP, POWERUP
		0x48, 0, // black rook on a8
		0x51, 0x34, // white pawn on e2, fast
		0x40, 0x34, // e2 emptied
		0x71, 0x25, 0x09, // clock f=1 1:25:09
		0x6F, 0x7A, 0x7B, 0x7C, 0x6C, 0x6D, 0x6E, 0x7D, 0x00,
		0x6B, // EOF
	}
	want := []EEEvent{
		{Kind: EENop, Code: 0x7F}, {Kind: EENop, Code: 0x7F}, {Kind: EENop, Code: 0x7F}, {Kind: EEPowerUp, Code: 0x6A},
		{Kind: EEPiece, Code: 0x48, Field: 0, Piece: BlackRook},
		{Kind: EEPiece, Code: 0x51, Field: 52, Piece: WhitePawn, Fast: true},
		{Kind: EEPiece, Code: 0x40, Field: 52, Piece: Empty},
		{Kind: EEClock, Code: 0x71, F: true, Display: LeftSide, Hours: 1, Minutes: 25, Seconds: 9},
		{Kind: EEBeginPos, Code: 0x6F}, {Kind: EEBeginPosRot, Code: 0x7A}, {Kind: EEStartTag, Code: 0x7B},
		{Kind: EEWatchdog, Code: 0x7C}, {Kind: EEFourRows, Code: 0x6C}, {Kind: EEEmptyBoard, Code: 0x6D},
		{Kind: EEDownloaded, Code: 0x6E}, {Kind: EEReserved, Code: 0x7D}, {Kind: EENop2, Code: 0x00},
		{Kind: EEEOF, Code: 0x6B},
	}
	got, err := ParseEE(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("record %d: %+v, want %+v", i, got[i], want[i])
		}
		if got[i].String() == "" || got[i].Kind.String() == "?" {
			t.Fatalf("record %d has no name", i)
		}
	}
	back, err := AppendEE(nil, got)
	if err != nil || string(back) != string(data) {
		t.Fatalf("re-encoded % x, %v", back, err)
	}
	m := EEMoves{Data: string(data)}
	if evs, err := m.Events(); err != nil || len(evs) != len(want) {
		t.Fatalf("EEMoves.Events: %d, %v", len(evs), err)
	}
}

func TestEEErrors(t *testing.T) {
	tests := []struct {
		name   string
		data   []byte
		reason error
		at     int
	}{
		{"unknown code", []byte{0x20, 0x6B}, ErrInvalid, 0},
		{"bad square", []byte{0x41, 0x7F, 0x6B}, ErrInvalid, 0},
		{"bad BCD", []byte{0x60, 0x0A, 0, 0x6B}, ErrInvalid, 0},
		{"truncated piece", []byte{0x6B, 0x41}, ErrTruncated, 1},
		{"truncated clock", []byte{0x6B, 0x60, 0}, ErrTruncated, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewEEScanner(tt.data)
			var errs []*EEError
			n := 0
			for {
				_, err := s.Next()
				if err == io.EOF {
					break
				}
				var ee *EEError
				if errors.As(err, &ee) {
					errs = append(errs, ee)
					continue
				}
				n++
			}
			if len(errs) == 0 || !errors.Is(errs[0], tt.reason) || errs[0].Offset != tt.at || errs[0].Error() == "" {
				t.Fatalf("errors %v, want %v at %d", errs, tt.reason, tt.at)
			}
			if _, err := ParseEE(tt.data); !errors.Is(err, tt.reason) {
				t.Fatalf("ParseEE: %v", err)
			}
			if n == 0 {
				t.Fatal("nothing parsed after the error")
			}
		})
	}
	for _, e := range []EEEvent{{Kind: EEPiece, Field: 64}, {Kind: EEClock, Hours: 10}, {Kind: EEReserved, Code: 1}, {}} {
		if _, err := e.AppendBinary(nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v encoded: %v", e, err)
		}
	}
}
