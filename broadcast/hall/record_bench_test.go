package hall

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// BenchmarkRecordState measures the GameState a board publishes after each
// move: the whole PGN is rendered again (every move parsed and played), so
// the cost grows with the game's length. The record is capture 1's game.
// Measured: 57 plies ≈ 86 µs on 2 cores (≈1.5 µs a ply, so ≈0.3 ms at
// ply 200). State is published on moves, corrections and results only,
// never on clock readings, so the PGN is not cached.
func BenchmarkRecordState(b *testing.B) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	rec := NewRecord(Info{Game: game.ID{Event: "bench", Round: 1, Board: 1}}, "", t0)
	pos := rules.Position(chess.StartPosition(chess.Standard))
	for i, u := range dgttest.Moves(b, dgttest.Game1) {
		m, err := pos.ParseMove(u)
		if err != nil {
			b.Fatal(err)
		}
		san := pos.SAN(m)
		if pos, err = pos.Play(m); err != nil {
			b.Fatal(err)
		}
		rec.Moves = append(rec.Moves, Ply{UCI: u, SAN: san, FEN: pos.FEN(), EMTMS: 1000,
			Clock: &game.ClockPair{WhiteMS: 600000, BlackMS: 600000}, At: t0.Add(time.Duration(i+1) * time.Second)})
	}
	b.ResetTimer()
	for b.Loop() {
		if st := rec.State(); st.PGN == "" {
			b.Fatal("no PGN")
		}
	}
	b.ReportMetric(float64(len(rec.Moves)), "plies")
}
