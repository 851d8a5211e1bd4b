package demo

import (
	"net"
	"path/filepath"
	"strconv"
	"strings"
)

// Event is the event id of the demo's games (<p>.game.demo.<round>.<board>).
const Event = "demo"

// NextRound is 1, or one more than the highest round of a demo game
// recorded in the data directory dir (a kept data directory run again
// goes on with new rounds instead of resuming finished games).
func NextRound(dir string) int {
	files, _ := filepath.Glob(filepath.Join(dir, "games", Event+".*.*.json"))
	last := 0
	for _, f := range files {
		parts := strings.Split(strings.TrimSuffix(filepath.Base(f), ".json"), ".")
		if len(parts) == 3 {
			if r, err := strconv.Atoi(parts[1]); err == nil && r > last {
				last = r
			}
		}
	}
	return last + 1
}

// FreeAddr returns addr when it can be listened on now (port 0: the free
// port picked), else a free port on the same host (the demo must start on
// a machine where its usual port is taken), else addr.
func FreeAddr(addr string) string {
	if l, err := net.Listen("tcp", addr); err == nil {
		defer l.Close()
		return l.Addr().String()
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = "127.0.0.1"
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return addr
	}
	defer l.Close()
	return l.Addr().String()
}
