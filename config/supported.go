package config

import "fmt"

// Unsupported returns nil when this build of the daemon can run every
// board of c, otherwise one *KeyError (matching [ErrUnsupported]) per
// board it cannot: xiangqi games, and boards read with the
// Open Board Protocol or by hand, which are valid configuration (and pass
// "run --check") but are wired into the daemon in a later step. "run"
// refuses to start with them, and a reload refuses them too.
func (c *Config) Unsupported() error {
	var errs []error
	for i, b := range c.EffectiveBoards() {
		p := fmt.Sprintf("boards[%d]", i)
		switch b.Variant {
		case VariantXiangqi:
			errs = append(errs, &KeyError{Key: p + ".variant", Err: unsupported{"xiangqi games are valid configuration, but this build of the daemon does not run them yet (its rules, perft and replay are ready; xiangqi boards are not wired in)"}})
		}
		switch b.Protocol {
		case ProtocolOBP:
			errs = append(errs, &KeyError{Key: p + ".protocol", Err: unsupported{"obp boards are valid configuration, but this build of the daemon does not read them yet (dgtbridge emulate --protocol obp serves one for testing)"}})
		case ProtocolManual:
			errs = append(errs, &KeyError{Key: p + ".protocol", Err: unsupported{"manual boards are valid configuration, but this build of the daemon does not take moves on <prefix>.input.<game>.move yet"}})
		}
	}
	return newError(c.File, errs)
}
