package demo

import (
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// TestRoomSeats: the room numbers its boards DGT first (board 1 with the
// blind player's board), then the team match's two linked boards, then the
// xiangqi boards, every board on its own pseudo-terminal.
func TestRoomSeats(t *testing.T) {
	r, err := NewRoom(RoomOptions{Boards: 2, Blind: true, Team: true, Xiangqi: 2, FirstRound: 3, Speed: 1, Seed: 1, Event: "demo", Prefix: "dgt"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if len(r.Seats) != 6 || len(r.Tables) != 2 || r.Team == nil || len(r.Xiangqi) != 2 || r.FirstXiangqi != 5 {
		t.Fatalf("%d seats, %d tables, team %v, %d xiangqi from board %d", len(r.Seats), len(r.Tables), r.Team != nil, len(r.Xiangqi), r.FirstXiangqi)
	}
	ports := map[string]bool{}
	for i, s := range r.Seats {
		if s.Board != i+1 || s.Round != 3 || s.Port == "" || ports[s.Port] || s.White == "" || s.Black == "" {
			t.Errorf("seat %d: %+v", i, s)
		}
		ports[s.Port] = true
	}
	if r.Seats[0].BlindPort == "" || r.Seats[1].BlindPort != "" {
		t.Errorf("blind ports %q, %q: want board 1's only", r.Seats[0].BlindPort, r.Seats[1].BlindPort)
	}
	for _, s := range r.Seats[2:4] {
		if s.Variant != "team-drop" || s.Ruleset != ruleset.BGO2026Team || s.Partner != 7-s.Board || s.OBP {
			t.Errorf("team seat %+v", s)
		}
	}
	for _, s := range r.Seats[4:] {
		if s.Variant != "xiangqi" || s.Ruleset != ruleset.XiangqiVN2004 || !s.OBP {
			t.Errorf("xiangqi seat %+v", s)
		}
	}
}
