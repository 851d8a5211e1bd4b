package recording

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// hexlogSample is a hexlog of n field updates and clock messages, one
// chunk each.
func hexlogSample(n int) []byte {
	var b []byte
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		up, _ := dgt.FieldUpdate{Field: dgt.Field(i % 64), Piece: dgt.PieceCode(i % 13)}.AppendBinary(nil)
		b = AppendLine(b, t0.Add(time.Duration(i)*time.Millisecond), FromBoard, up)
		ck, _ := dgt.ClockTimes{Left: dgt.ClockSide{Minutes: 5, Seconds: uint8(i % 60)}, Status: 9}.AppendBinary(nil)
		b = AppendLine(b, t0.Add(time.Duration(i)*time.Millisecond), FromBoard, ck)
	}
	return b
}

// BenchmarkReplayHexlog reads and decodes 1000 hexlog lines.
func BenchmarkReplayHexlog(b *testing.B) {
	data := hexlogSample(500)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, _ := NewReader(bytes.NewReader(data), Auto)
		p := NewReplayer(r, dgt.SingleBoard)
		for {
			it, err := p.Next()
			if err == io.EOF {
				break
			}
			if err != nil || it.Err != nil {
				b.Fatal(err, it.Err)
			}
		}
	}
}

// BenchmarkTapLog logs one 5-byte chunk as a hexlog line.
func BenchmarkTapLog(b *testing.B) {
	lw := NewLogWriter(io.Discard)
	up := []byte{0x8E, 0, 5, 0x24, 1}
	t0 := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if err := lw.Log(t0, FromBoard, up); err != nil {
			b.Fatal(err)
		}
	}
}

// countingWriter counts the writes (system calls, for a file) it passes on.
type countingWriter struct {
	w      io.Writer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.w.Write(p)
}

// BenchmarkTapLogFile logs 5-byte chunks (a field update each) to a real
// file, batched as the LogWriter does and, for comparison, flushed after
// every chunk (one write system call per chunk, as before batching). It
// reports the writes per chunk.
func BenchmarkTapLogFile(b *testing.B) {
	for _, mode := range []string{"batched", "per-chunk"} {
		b.Run(mode, func(b *testing.B) {
			f, err := os.Create(filepath.Join(b.TempDir(), "board.hexlog"))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			cw := &countingWriter{w: f}
			lw := NewLogWriter(cw)
			up := []byte{0x8E, 0, 5, 0x24, 1}
			t0 := time.Now()
			b.ReportAllocs()
			for b.Loop() {
				if err := lw.Log(t0, FromBoard, up); err != nil {
					b.Fatal(err)
				}
				if mode == "per-chunk" {
					lw.Flush()
				}
			}
			lw.Flush()
			b.ReportMetric(float64(cw.writes)/float64(b.N), "writes/chunk")
		})
	}
}
