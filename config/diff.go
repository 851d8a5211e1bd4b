package config

import (
	"errors"
	"fmt"
	"reflect"
)

// restartKeys are the settings a reload cannot change: they shape the
// running NATS server, publisher, HTTP servers, LiveChess API and data
// directory.
var restartKeys = []struct {
	key string
	get func(*Config) any
}{
	{"data_dir", func(c *Config) any { return c.DataDir }},
	{"record", func(c *Config) any { return c.Record }},
	{"nats.url", func(c *Config) any { return c.NATS.URL }},
	{"nats.prefix", func(c *Config) any { return c.NATS.Prefix }},
	{"nats.creds", func(c *Config) any { return c.NATS.Creds }},
	{"nats.embedded.listen", func(c *Config) any { return c.NATS.Embedded.Listen }},
	{"nats.embedded.websocket", func(c *Config) any { return c.NATS.Embedded.WebSocket }},
	{"nats.embedded.users", func(c *Config) any { return c.NATS.Embedded.Users }},
	{"nats.embedded.tls", func(c *Config) any { return c.NATS.Embedded.TLS }},
	{"nats.embedded.insecure", func(c *Config) any { return c.NATS.Embedded.Insecure }},
	{"nats.nkey", func(c *Config) any { return c.NATS.Nkey }},
	{"http.listen", func(c *Config) any { return c.HTTP.Listen }},
	{"http.admin_listen", func(c *Config) any { return c.HTTP.AdminListen }},
	{"livechess", func(c *Config) any { return c.LiveChess }},
	{"relay.speak", func(c *Config) any { return c.Relay.Speak }},
	{"event.public_delay", func(c *Config) any { return c.Event.PublicDelay }},
	{"spares", func(c *Config) any { return c.Spares }},
}

// ErrRestart: a reload asks for a change only a restart makes.
var ErrRestart = errors.New("needs a restart (systemctl restart dgtbridge), not a reload")

// Continued is a board of the next configuration and the board of the
// running one it continues.
type Continued struct {
	Old   int   // its index in the running configuration's EffectiveBoards
	Index int   // its index in the next configuration's EffectiveBoards
	Board Board // as the next configuration has it
}

// Change is what a reload from one configuration to the next does.
type Change struct {
	// Boards are the boards of the next configuration that continue a
	// running board, in the next configuration's order.
	Boards []Continued
	// Restart holds a *KeyError wrapping ErrRestart for every change only
	// a restart makes, naming its key.
	Restart []error
}

// Diff compares the running configuration old with next: which running
// board each of next's boards continues, and every change a reload
// cannot make: the settings that shape the NATS server, the publisher,
// the HTTP server and the data directory, and the boards themselves (a
// board added or removed, a board's protocol, variant or blind player's
// board). Boards are matched by port and bus address (boards on "auto"
// in order), so a new round may renumber them.
func Diff(old, next *Config) Change {
	var ch Change
	for _, k := range restartKeys {
		if a, b := k.get(old), k.get(next); !reflect.DeepEqual(a, b) {
			ch.Restart = append(ch.Restart, &KeyError{Key: k.key, Err: fmt.Errorf("changed from %v to %v: %w", a, b, ErrRestart)})
		}
	}
	type portKey struct {
		port string
		bus  int
	}
	key := func(bs []Board) []portKey {
		out := make([]portKey, len(bs))
		auto := 0
		for i, b := range bs {
			out[i] = portKey{b.Port, b.BusAddress}
			if b.Port == AutoPort {
				out[i].bus = -1 - auto // the n-th auto board
				auto++
			}
		}
		return out
	}
	oldB, newB := old.EffectiveBoards(), next.EffectiveBoards()
	oldK, newK := key(oldB), key(newB)
	used := make([]bool, len(oldB))
	for i, b := range newB {
		p := fmt.Sprintf("boards[%d]", i)
		j := -1
		for jj, k := range oldK {
			if k == newK[i] && !used[jj] {
				j = jj
				break
			}
		}
		if j < 0 {
			ch.Restart = append(ch.Restart, &KeyError{Key: p + ".port", Err: fmt.Errorf("%s (bus address %d) is not a board of the running daemon: adding a board %w", b.Port, b.BusAddress, ErrRestart)})
			continue
		}
		used[j] = true
		o := oldB[j]
		for _, d := range []struct{ k, a, b string }{{"protocol", o.Protocol, b.Protocol}, {"variant", o.Variant, b.Variant}} {
			if d.a != d.b {
				ch.Restart = append(ch.Restart, &KeyError{Key: p + "." + d.k, Err: fmt.Errorf("changed from %s to %s: %w", d.a, d.b, ErrRestart)})
			}
		}
		if blindChanged(o.Blind, b.Blind) {
			ch.Restart = append(ch.Restart, &KeyError{Key: p + ".blind", Err: fmt.Errorf("changed: the blind player's board %w", ErrRestart)})
		}
		ch.Boards = append(ch.Boards, Continued{Old: j, Index: i, Board: b})
	}
	for j, u := range used {
		if !u {
			ch.Restart = append(ch.Restart, &KeyError{Key: "boards", Err: fmt.Errorf("the board on %s (bus address %d, board %d) is no longer configured: removing a board %w", oldB[j].Port, oldB[j].BusAddress, oldB[j].Board, ErrRestart)})
		}
	}
	return ch
}

// blindChanged reports whether a reload changes a board's blind player's
// board (a, running; b, reloaded) in a way only a restart makes. A board
// that follows a named blind player (blind.player) changes colour from
// round to round: that is no change.
func blindChanged(a, b *Blind) bool {
	if a == nil || b == nil {
		return a != b
	}
	x, y := *a, *b
	if x.Player != "" && x.Player == y.Player {
		x.Side, y.Side = "", ""
	}
	return x != y
}
