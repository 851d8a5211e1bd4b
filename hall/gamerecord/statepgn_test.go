package gamerecord

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/dgttest"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// testRecord is capture 1's game (57 plies) as a record with every tag
// set, a clock read from ply 5 on (different times for each side and ply)
// and a time used for every ply.
func testRecord(tb testing.TB) *Record {
	tb.Helper()
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	rec := NewRecord(Info{Game: game.ID{Event: "open2026", Round: 3, Board: 7}, EventName: "City Open", Site: "Hanoi",
		White: "Carlsen, Magnus", Black: "Nepomniachtchi, Ian", WhiteFideID: "1503014", BlackFideID: "4168119",
		WhiteTeam: "Norway", BlackTeam: "FIDE", Ruleset: "fide2018-standard", TimeControl: "5400+30"}, "", t0)
	pos := rules.Position(chess.StartPosition(chess.Standard))
	for i, u := range dgttest.Moves(tb, dgttest.Game1) {
		m, err := pos.ParseMove(u)
		if err != nil {
			tb.Fatal(err)
		}
		san := pos.SAN(m)
		if pos, err = pos.Play(m); err != nil {
			tb.Fatal(err)
		}
		p := Ply{UCI: u, SAN: san, FEN: pos.FEN(), EMTMS: int64(1000 + 37*i), At: t0.Add(time.Duration(i+1) * time.Second)}
		if i >= 4 {
			p.Clock = &game.ClockPair{WhiteMS: 5400000 - int64(1000*i), BlackMS: 5400000 - int64(700*i)}
		}
		rec.Moves = append(rec.Moves, p)
	}
	return rec
}

// TestStatePGN: the state of a game in progress carries no PGN, and the
// PGN built from it (after a trip through JSON, as it comes from the KV)
// is the record's own, byte for byte; once the game has a result the state
// holds that PGN itself.
func TestStatePGN(t *testing.T) {
	rec := testRecord(t)
	st := rec.State()
	if st.PGN != "" {
		t.Fatalf("a game in progress published its PGN (%d bytes)", len(st.PGN))
	}
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back game.GameState
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := StatePGN(back), rec.PGN(); got != want {
		t.Errorf("PGN from the state:\n%s\nwant the record's:\n%s", got, want)
	}
	rec.Result, rec.Termination = "1-0", "normal"
	st = rec.State()
	if st.PGN == "" || st.PGN != rec.PGN() || StatePGN(st) != rec.PGN() {
		t.Errorf("ended game: state PGN %q", st.PGN)
	}
}
