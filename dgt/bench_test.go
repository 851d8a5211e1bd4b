package dgt

import (
	"errors"
	"os"
	"testing"
)

// syntheticStream returns game-like board traffic: a board dump, then
// per ply two field updates and three clock messages, plus an ACK now
// and then.
func syntheticStream(plies int) []byte {
	var b []byte
	b, _ = BoardDump{}.AppendBinary(b)
	clock := ClockTimes{Right: ClockSide{Minutes: 59, Seconds: 59}, Left: ClockSide{Minutes: 59, Seconds: 59}, Status: 0x09}
	for i := 0; i < plies; i++ {
		b, _ = FieldUpdate{Field: Field(i % 64), Piece: Empty}.AppendBinary(b)
		b, _ = FieldUpdate{Field: Field((i + 8) % 64), Piece: PieceCode(1 + i%12)}.AppendBinary(b)
		for k := 0; k < 3; k++ {
			clock.Left.Seconds = uint8((i + k) % 60)
			b, _ = clock.AppendBinary(b)
		}
		if i%20 == 0 {
			b, _ = ClockAck{Ack: [4]byte{0x10, 0x0A, 0, 0}}.AppendBinary(b)
		}
	}
	return b
}

func benchDecode(b *testing.B, stream []byte) {
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	d := NewDecoder(SingleBoard)
	msgs := 0
	for b.Loop() {
		d.Feed(stream)
		for {
			_, err := d.Next()
			if errors.Is(err, ErrNeedMore) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			msgs++
		}
	}
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkDecodeCaptures decodes the three real captures end to end.
func BenchmarkDecodeCaptures(b *testing.B) {
	if _, err := os.Stat(captureDir); err != nil {
		b.Skipf("shared captures not present at %s", captureDir)
	}
	var stream []byte
	for _, name := range captureNames {
		raw, _ := loadCapture(b, name)
		for _, r := range raw {
			stream = append(stream, r...)
		}
	}
	benchDecode(b, stream)
}

// BenchmarkDecodeSynthetic decodes 200 plies of synthetic traffic.
func BenchmarkDecodeSynthetic(b *testing.B) { benchDecode(b, syntheticStream(200)) }

// BenchmarkFieldUpdate is the hot path: one field update from bytes to a
// typed value via NextFrame and DecodeFieldUpdate (0 allocs).
func BenchmarkFieldUpdate(b *testing.B) {
	b.ReportAllocs()
	d := NewDecoder(SingleBoard)
	for b.Loop() {
		d.Feed(e4)
		f, err := d.NextFrame()
		if err != nil {
			b.Fatal(err)
		}
		if u, err := DecodeFieldUpdate(f.Data); err != nil || u.Field != 36 {
			b.Fatal(u, err)
		}
	}
}

// BenchmarkFieldUpdateMessage is the same through Next, which returns the
// update as a Message (pre-boxed, so also 0 allocs).
func BenchmarkFieldUpdateMessage(b *testing.B) {
	b.ReportAllocs()
	d := NewDecoder(SingleBoard)
	for b.Loop() {
		d.Feed(e4)
		if _, err := d.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeFieldUpdate appends one update to a reused buffer.
func BenchmarkEncodeFieldUpdate(b *testing.B) {
	b.ReportAllocs()
	buf := make([]byte, 0, 16)
	for b.Loop() {
		buf, _ = e4Msg.AppendBinary(buf[:0])
	}
}
