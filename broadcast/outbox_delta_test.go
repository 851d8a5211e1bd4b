package broadcast

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// stateBatches returns, for each of plies moves of games, the envelopes a
// publisher journals for it: the MoveEvent and the state, each with its
// public copy.
func stateBatches(t testing.TB, games, plies int) [][]envelope {
	t.Helper()
	s, _ := NewSubjects("dgt")
	states := growingStates(t, plies)
	var out [][]envelope
	for p := range plies {
		for g := range games {
			id := game.ID{Event: "open2026", Round: 3, Board: g + 1}
			var st game.GameState
			if err := json.Unmarshal(states[p], &st); err != nil {
				t.Fatal(err)
			}
			st.Game, st.Board = id, g+1
			mv, err := s.moveEnvelope(game.MoveEvent{Game: id, Ply: p + 1, SAN: st.SAN[p], UCI: st.Moves[p], FEN: st.FEN, At: st.UpdatedAt})
			if err != nil {
				t.Fatal(err)
			}
			se, err := s.stateEnvelope(st)
			if err != nil {
				t.Fatal(err)
			}
			var batch []envelope
			for _, e := range []envelope{mv, se} {
				pub, _ := s.publicCopy(e)
				batch = append(batch, e, pub)
			}
			out = append(out, batch)
		}
	}
	return out
}

// appendAll journals the batches (the public copies due after delay) and
// returns every envelope appended, in order.
func appendAll(t *testing.T, ob *Outbox, batches [][]envelope, now time.Time, delay time.Duration) []envelope {
	t.Helper()
	var all []envelope
	for _, b := range batches {
		due := make([]time.Time, len(b))
		for i, e := range b {
			due[i] = now
			if e.Public {
				due[i] = now.Add(delay)
			}
		}
		if err := ob.Append(b, due); err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// checkSent takes every record due by then and checks that each is the
// envelope appended (data byte for byte), in order per class.
func checkSent(t *testing.T, ob *Outbox, want []envelope, then time.Time) {
	t.Helper()
	byID := map[string]envelope{}
	for _, e := range want {
		byID[e.MsgID+fmt.Sprint(e.Public)] = e
	}
	n := 0
	for {
		recs, _, err := ob.NextBatch(then, 50)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 0 {
			break
		}
		for _, r := range recs {
			w, ok := byID[r.MsgID+fmt.Sprint(r.Public)]
			if !ok || r.Subject != w.Subject || !bytes.Equal(r.Data, w.Data) {
				t.Fatalf("record %d %s: data %.80q…, want %.80q…", r.Seq, r.MsgID, r.Data, w.Data)
			}
			if err := ob.Ack(r.Seq); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	if n != len(want) {
		t.Errorf("%d records sent, want %d", n, len(want))
	}
	if d := ob.Damage(); len(d) != 0 {
		t.Errorf("damage: %+v", d)
	}
}

// TestOutboxStateDeltas: a game's states go into the outbox as deltas and
// public copies as "the same as" the live message, and every record reads
// back byte for byte: at once, after a reopen (the deltas read cold from
// their segment), with the public copies read a delay later (DueStates,
// then NextBatch). The outbox writes a fraction of the bytes the whole
// states take, and the bytes per move do not grow with the game.
func TestOutboxStateDeltas(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	const plies, games = 121, 3
	batches := stateBatches(t, games, plies)
	var whole int64
	for _, b := range batches {
		for _, e := range b {
			whole += int64(len(e.Data))
		}
	}
	for _, c := range []struct {
		name   string
		reopen bool
	}{{"read at once", false}, {"read after a reopen", true}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			fs := storagetest.New(nil)
			ob := openOutbox(t, dir, OutboxOptions{FS: fs})
			var perMove []int64
			var all []envelope
			for _, b := range batches {
				before := fs.Written("")
				all = append(all, appendAll(t, ob, [][]envelope{b}, now, time.Minute)...)
				perMove = append(perMove, fs.Written("")-before)
			}
			written := fs.Written("")
			if written > whole/3 {
				t.Errorf("%d bytes written for %d bytes of messages: the states are not deltas", written, whole)
			}
			if at10, at120 := perMove[10*games], perMove[119*games]; at120 > at10+at10/4 {
				t.Errorf("a move costs %d bytes at ply 120, %d at ply 10", at120, at10)
			}
			t.Logf("%d bytes written for %d bytes of messages; a move at ply 10 %d bytes, at ply 120 %d",
				written, whole, perMove[10*games], perMove[119*games])
			if c.reopen {
				ob.Close()
				ob = openOutbox(t, dir, OutboxOptions{})
			}
			var live, public []envelope
			for _, e := range all {
				if e.Public {
					public = append(public, e)
				} else {
					live = append(live, e)
				}
			}
			checkSent(t, ob, live, now)
			var states int
			if _, err := ob.DueStates(now.Add(time.Minute), 0, func(r OutboxEntry) {
				states++
				if w := public[2*(states-1)+1]; !bytes.Equal(r.Data, w.Data) {
					t.Fatalf("public state %d read back wrong", states)
				}
			}); err != nil {
				t.Fatal(err)
			}
			if states != plies*games {
				t.Errorf("DueStates gave %d states, want %d", states, plies*games)
			}
			checkSent(t, ob, public, now.Add(time.Minute))
		})
	}
}

// TestOutboxDeltasSurviveFaults: after a failed fsync the records since
// the last good one are written again whole (a delta does not outlive its
// base), and a damaged segment's pending records move whole to the newest;
// every record still reads back byte for byte, also after a reopen. A bad
// byte in a whole state costs the deltas made from it (counted as lost),
// never the outbox.
func TestOutboxDeltasSurviveFaults(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	batches := stateBatches(t, 2, 40)
	t.Run("failed fsync", func(t *testing.T) {
		dir := t.TempDir()
		fs := storagetest.New(nil)
		ob := openOutbox(t, dir, OutboxOptions{FS: fs})
		all := appendAll(t, ob, batches[:20], now, 0)
		if err := ob.SyncDirty(); err != nil {
			t.Fatal(err)
		}
		all = append(all, appendAll(t, ob, batches[20:50], now, 0)...)
		fs.Fail(storagetest.Sync, "", syscall.EIO)
		if err := ob.SyncDirty(); err == nil {
			t.Fatal("a failed fsync succeeded")
		}
		fs.Heal()
		if err := ob.SyncDirty(); err != nil {
			t.Fatal(err)
		}
		all = append(all, appendAll(t, ob, batches[50:], now, 0)...)
		ob.Close()
		checkSent(t, openOutbox(t, dir, OutboxOptions{}), all, now)
	})
	t.Run("bad byte in a whole state", func(t *testing.T) {
		dir := t.TempDir()
		ob := openOutbox(t, dir, OutboxOptions{})
		appendAll(t, ob, batches[:20], now, 0) // ten plies of two games
		ob.Close()
		path := filepath.Join(dir, "0000000000000001.seg")
		b, _ := os.ReadFile(path)
		hit := false
		storage.Scan(bytes.NewReader(b), int64(len(b)), frameKinds, func(off int64, body []byte) error {
			if h, _, err := parseRecordBody(body); !hit && err == nil && h.Kind == kindState && h.Base == nil && h.Game.Board == 1 {
				b[off+frameHeader+40] ^= 0x10
				hit = true
			}
			return nil
		})
		os.WriteFile(path, b, 0o640)
		ob = openOutbox(t, dir, OutboxOptions{})
		var states, lost int
		for {
			recs, _, err := ob.NextBatch(now, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) == 0 {
				break
			}
			if recs[0].Kind == kindState {
				states++
			}
			ob.Ack(recs[0].Seq)
		}
		for _, d := range ob.Damage() {
			lost += d.Lost
		}
		// Game 2's ten states (live and public) are intact; game 1's
		// are lost with the whole state they were made from.
		if states < 20 || states+lost != 40 || lost == 0 {
			t.Errorf("%d states read back, %d lost, want game 2's 20 and game 1's lost", states, lost)
		}
	})
}
