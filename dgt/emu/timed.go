package emu

import "time"

// Timed is what the board sent at one moment.
type Timed struct {
	At    time.Time
	Bytes []byte
}
