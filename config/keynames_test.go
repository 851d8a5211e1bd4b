package config

import (
	"slices"
	"testing"
)

// TestKeys: Keys lists nested keys, list items' keys, and nothing that
// Load would refuse.
func TestKeys(t *testing.T) {
	keys := Keys()
	for _, want := range []string{"data_dir", "event.round", "nats.embedded.users[].role", "boards[].blind.player", "boards[].bus_address", "lichess.rounds", "storage.history_wait"} {
		if !slices.Contains(keys, want) {
			t.Errorf("Keys() lacks %s", want)
		}
	}
	for _, no := range []string{"event.rules.illegal_loss_at", "file", "boards.port"} {
		if slices.Contains(keys, no) {
			t.Errorf("Keys() has %s", no)
		}
	}
}
