package gamerecord

import (
	"testing"
)

// BenchmarkRecordState measures the GameState a board publishes after each
// move (capture 1's game, 57 plies): without the PGN, which was rendered
// again for every state before (≈86 µs here, the whole game parsed and
// played, growing with its length), and the PGN built from that state, as
// a request for it does (once per change of the game).
func BenchmarkRecordState(b *testing.B) {
	rec := testRecord(b)
	b.Run("state", func(b *testing.B) {
		for b.Loop() {
			if st := rec.State(); st.PGN != "" {
				b.Fatal("PGN in a state of a game in progress")
			}
		}
	})
	st := rec.State()
	b.Run("pgn", func(b *testing.B) {
		for b.Loop() {
			if StatePGN(st) == "" {
				b.Fatal("no PGN")
			}
		}
	})
	b.ReportMetric(float64(len(rec.Moves)), "plies")
}
