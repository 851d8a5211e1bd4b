package board

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules"
)

// BenchmarkRelayGame relays a 10-ply game between the two boards (both
// trackers, the record, the mismatch check on every input and tick): the
// cost of one relayed game, input by input as the hall feeds it.
func BenchmarkRelayGame(b *testing.B) {
	game := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6"}
	b.ReportAllocs()
	for b.Loop() {
		s := newRelayScript(b, rules.Black)
		for _, m := range game {
			s.relay(m)
		}
		if s.r.Completed() != len(game) {
			b.Fatalf("relayed %d plies", s.r.Completed())
		}
	}
}
