package config

import (
	"fmt"
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

// TestLichessSplitAndCapacity: a pushed round with more boards than its
// Lichess rounds take (100 each) is refused naming lichess.rounds.<r>;
// lichess.split gives it more; split ids are checked like rounds'.
func TestLichessSplitAndCapacity(t *testing.T) {
	tok := writeFile(t, "token", "lip_x\n")
	var b strings.Builder
	b.WriteString("boards:\n")
	for i := 1; i <= 130; i++ {
		fmt.Fprintf(&b, "  - {port: /dev/ttyUSB0, bus_address: %d, round: 3, board: %d, white: W%d, black: B%d}\n", 4100+i, i, i, i)
	}
	boards := b.String()
	lich := "lichess: {token_file: " + tok + ", rounds: {3: AbCd1234}%s}\n"
	_, err := load(t, fmt.Sprintf(lich, "")+boards, nil)
	if err == nil || !strings.Contains(err.Error(), "lichess.rounds.3") || !strings.Contains(err.Error(), "130 boards") || !strings.Contains(err.Error(), "lichess.split") {
		t.Errorf("130 boards, one Lichess round: %v", err)
	}
	if _, err := load(t, fmt.Sprintf(lich, ", split: {3: [EfGh5678]}")+boards, nil); err != nil {
		t.Errorf("130 boards, two Lichess rounds: %v", err)
	}
	for _, tc := range []struct{ split, key string }{
		{", split: {3: [bad]}", "lichess.split.3[0]"},
		{", split: {3: [AbCd1234]}", "lichess.split.3[0]"},
		{", split: {4: [EfGh5678]}", "lichess.split.4"},
	} {
		if _, err := load(t, fmt.Sprintf(lich, tc.split)+boards, nil); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s: %v, want an error naming %s", tc.split, err, tc.key)
		}
	}
}

// TestLichessNotes: a pushed board's player without a usable name or a
// FIDE id is noted with its key; one with a FIDE id, or of a round not
// pushed, is not.
func TestLichessNotes(t *testing.T) {
	tok := writeFile(t, "token", "lip_x\n")
	c, err := load(t, "lichess: {token_file: "+tok+", rounds: {1: AbCd1234}}\nboards:\n"+
		"  - {port: /dev/ttyACM0, round: 1, board: 1, white: \"?\", black: B, black_fide_id: \"1503014\"}\n"+
		"  - {port: /dev/ttyACM1, round: 1, board: 2, white: Anna, black: Unknown}\n"+
		"  - {port: /dev/ttyACM2, round: 2, board: 1, white: \"?\", black: \"?\"}\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	notes := c.LichessNotes()
	if len(notes) != 2 || !strings.HasPrefix(notes[0], "boards[0].white:") || !strings.HasPrefix(notes[1], "boards[1].black:") ||
		!strings.Contains(notes[0], `"Board 1 White"`) {
		t.Errorf("notes %q", notes)
	}
}

// TestTitlesFromThePairingFile: the pairing file's titles fill the boards;
// a board's own title wins; a title that is none names its key.
func TestTitlesFromThePairingFile(t *testing.T) {
	pf := writeFile(t, "p.csv", "round,board,white,black,white_title,black_title\n1,1,\"Carlsen, Magnus\",\"Ju, Wenjun\",g,WGM\n1,2,A1,B1,,\n")
	c, err := load(t, "event: {pairings: "+pf+"}\nboards:\n  - {port: /dev/ttyACM0, round: 1, board: 1}\n  - {port: /dev/ttyACM1, round: 1, board: 2, black_title: IM}\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := c.Boards[0]; b.WhiteTitle != "GM" || b.BlackTitle != "WGM" {
		t.Errorf("board 1: %q %q", b.WhiteTitle, b.BlackTitle)
	}
	if b := c.Boards[1]; b.WhiteTitle != "" || b.BlackTitle != "IM" {
		t.Errorf("board 2: %q %q", b.WhiteTitle, b.BlackTitle)
	}
	if _, err := load(t, "boards:\n  - {port: /dev/ttyACM0, round: 1, board: 1, white_title: Dr}\n", nil); err == nil || !strings.Contains(err.Error(), "boards[0].white_title") {
		t.Errorf("title Dr: %v", err)
	}
}
