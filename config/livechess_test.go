package config

import (
	"strings"
	"testing"
)

// TestLiveChessKeys: the API is off by default; on is LiveChess's port on
// loopback; a non-loopback listener needs allow_remote; first_board names a
// configured board; origins are host names. Each bad value names its key.
func TestLiveChessKeys(t *testing.T) {
	c, err := load(t, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.LiveChess.Addr() != "" {
		t.Errorf("default livechess.listen serves %q, want off", c.LiveChess.Addr())
	}
	board := "boards:\n  - {port: /dev/ttyACM0, round: 2, board: 3, white: A, black: B}\n"
	ok := []struct{ yaml, addr string }{
		{"livechess: {listen: \"on\"}\n", DefaultLiveChessListen},
		{"livechess: {listen: \"off\"}\n", ""},
		{"livechess: {listen: \"localhost:1982\"}\n", "localhost:1982"},
		{"livechess: {listen: \"0.0.0.0:1982\", allow_remote: true}\n", "0.0.0.0:1982"},
		{"livechess: {listen: \"on\", first_board: r2-b3, origins: [club.example.org, \"*.example.net\"]}\n" + board, DefaultLiveChessListen},
	}
	for _, tc := range ok {
		c, err := load(t, tc.yaml, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.yaml, err)
			continue
		}
		if c.LiveChess.Addr() != tc.addr {
			t.Errorf("%s: listens on %q, want %q", tc.yaml, c.LiveChess.Addr(), tc.addr)
		}
	}
	bad := []struct{ yaml, key, says string }{
		{"livechess: {listen: \"0.0.0.0:1982\"}\n", "livechess.listen", "allow_remote"},
		{"livechess: {listen: \"1982\"}\n", "livechess.listen", ""},
		{"livechess: {first_board: board3}\n", "livechess.first_board", "r<round>-b<board>"},
		{"livechess: {first_board: r1-b9}\n" + board, "livechess.first_board", "none of the boards"},
		{"livechess: {origins: [\"https://lichess.org\"]}\n", "livechess.origins[0]", "no scheme"},
		{"livechess: {lisen: \"on\"}\n", "livechess.lisen", ""},
	}
	for _, tc := range bad {
		_, err := load(t, tc.yaml, nil)
		if err == nil || !strings.Contains(err.Error(), tc.key) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want an error naming %s (%s)", tc.yaml, err, tc.key, tc.says)
		}
	}
}
