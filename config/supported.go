package config

import "fmt"

// Unsupported returns nil when this build of the daemon can run every
// board of c, otherwise one *KeyError (matching [ErrUnsupported]) per
// board it cannot: Open Board Protocol boards with what only DGT boards
// have (port auto, which probes for DGT boards; a bus address; a blind
// player's relay), which are valid configuration (and pass "run --check").
// "run" refuses to start with them, and a reload refuses them too.
func (c *Config) Unsupported() error {
	var errs []error
	for i, b := range c.EffectiveBoards() {
		p := fmt.Sprintf("boards[%d]", i)
		if b.Protocol == ProtocolOBP {
			switch {
			case b.Port == AutoPort:
				errs = append(errs, &KeyError{Key: p + ".port", Err: unsupported{"port auto finds DGT boards only: give the OBP board's device path (e.g. /dev/ttyACM0)"}})
			case b.BusAddress > 0:
				errs = append(errs, &KeyError{Key: p + ".bus_address", Err: unsupported{"an OBP board has its own port, no DGT bus address"}})
			}
			if b.Blind != nil {
				errs = append(errs, &KeyError{Key: p + ".blind", Err: unsupported{"a blind player's relay needs DGT boards"}})
			}
		}
	}
	return newError(c.File, errs)
}
