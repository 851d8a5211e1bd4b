package config_test

import (
	"fmt"

	"github.com/dgtbridge/dgtbridge/config"
)

// Load the example configuration of the contract (docs/contract.md §2);
// flags given on the command line go in Overrides and win over the file and the environment.
func ExampleLoad() {
	c, err := config.Load(config.LoadOptions{
		File:      "testdata/example.yaml",
		Overrides: map[string]any{"event.public_delay": "5m"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range c.EffectiveBoards() {
		fmt.Println(c.GameID(b), b.Variant, b.Ruleset, b.TimeControl, b.Blind.Side, b.Blind.Lang)
	}
	fmt.Println(c.Event.PublicDelay)
	// Output:
	// open2026.1.1 chess fide2018-standard 5400+30 black de
	// 5m0s
}

// Errors name the key, with list indexes.
func ExampleKeyError() {
	_, err := config.Load(config.LoadOptions{
		File:      "testdata/example.yaml",
		Overrides: map[string]any{"nats.ur": "nats://x"},
	})
	fmt.Println(err)
	// Output:
	// configuration testdata/example.yaml: nats.ur: not a configuration key (did you mean nats.url?)
}
