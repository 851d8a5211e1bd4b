package broadcast

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
)

func env(i int, public bool) envelope {
	return envelope{Subject: fmt.Sprintf("s.%d", i), MsgID: fmt.Sprintf("id%d", i), Data: []byte(fmt.Sprintf(`{"n":%d}`, i)),
		Target: targetStream, Kind: kindMove, Game: testGame, Public: public}
}

func openOutbox(t *testing.T, dir string, o OutboxOptions) *Outbox {
	t.Helper()
	ob, err := OpenOutbox(dir, o)
	if err != nil {
		t.Fatalf("OpenOutbox: %v", err)
	}
	t.Cleanup(func() { ob.Close() })
	return ob
}

// drain takes every due record in order, acking each.
func drain(t *testing.T, ob *Outbox, now time.Time) []string {
	t.Helper()
	var ids []string
	for {
		recs, _, err := ob.NextBatch(now, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 0 {
			return ids
		}
		ids = append(ids, recs[0].MsgID)
		if err := ob.Ack(recs[0].Seq); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOutboxOrderAndDue(t *testing.T) {
	ob := openOutbox(t, t.TempDir(), OutboxOptions{})
	t0 := time.UnixMilli(1_000_000)
	delay := 10 * time.Second
	for i := range 3 {
		at := t0.Add(time.Duration(i) * time.Second)
		if err := ob.Append([]envelope{env(i, false), env(100+i, true)}, []time.Time{at, at.Add(delay)}); err != nil {
			t.Fatal(err)
		}
	}
	got := drain(t, ob, t0.Add(5*time.Second))
	if want := "[id0 id1 id2]"; fmt.Sprint(got) != want {
		t.Errorf("live: %v, want %s", got, want)
	}
	recs, wake, err := ob.NextBatch(t0.Add(5*time.Second), 10)
	if len(recs) != 0 || err != nil || !wake.Equal(t0.Add(delay)) {
		t.Errorf("before due: %d records, wake=%v err=%v, want wake %v", len(recs), wake, err, t0.Add(delay))
	}
	got = drain(t, ob, t0.Add(delay+time.Second))
	if want := "[id100 id101]"; fmt.Sprint(got) != want {
		t.Errorf("public at +11s: %v, want %s (not id102, due at +12s)", got, want)
	}
	if ob.Pending() != 1 {
		t.Errorf("pending %d, want 1", ob.Pending())
	}
}

func TestOutboxDueNeverGoesBack(t *testing.T) {
	ob := openOutbox(t, t.TempDir(), OutboxOptions{})
	t0 := time.UnixMilli(5_000_000)
	ob.Append([]envelope{env(1, true)}, []time.Time{t0})
	ob.Append([]envelope{env(2, true)}, []time.Time{t0.Add(-time.Minute)}) // clock stepped back
	got := drain(t, ob, t0.Add(-time.Second))
	if len(got) != 0 {
		t.Errorf("a later record became due before an earlier one: %v", got)
	}
	if got := drain(t, ob, t0); fmt.Sprint(got) != "[id1 id2]" {
		t.Errorf("got %v", got)
	}
}

func TestOutboxReopenKeepsPending(t *testing.T) {
	dir := t.TempDir()
	ob, err := OpenOutbox(dir, OutboxOptions{SyncEachAppend: true})
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(1_000)
	for i := range 5 {
		ob.Append([]envelope{env(i, false)}, []time.Time{now})
	}
	recs, _, _ := ob.NextBatch(now, 2)
	if err := ob.Ack(recs[0].Seq, recs[1].Seq); err != nil {
		t.Fatal(err)
	}
	ob.Close()
	ob2 := openOutbox(t, dir, OutboxOptions{})
	if got := drain(t, ob2, now); fmt.Sprint(got) != "[id2 id3 id4]" {
		t.Errorf("after reopen: %v", got)
	}
	ob2.Append([]envelope{env(9, false)}, []time.Time{now})
	recs, _, _ = ob2.NextBatch(now, 1)
	if len(recs) != 1 || recs[0].Seq <= 5 {
		t.Errorf("sequence numbers restarted: %+v", recs)
	}
}

// firstSegment returns the bytes of the first segment of an outbox holding
// records 1 and 2.
func firstSegment(t *testing.T) []byte {
	t.Helper()
	dir := t.TempDir()
	ob, _ := OpenOutbox(dir, OutboxOptions{})
	now := time.UnixMilli(1_000)
	ob.Append([]envelope{env(1, false), env(2, false)}, []time.Time{now, now})
	ob.Close()
	b, err := os.ReadFile(filepath.Join(dir, "0000000000000001.seg"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// frameOffset returns the offset of frame i (0-based) of segment bytes b.
func frameOffset(t *testing.T, b []byte, i int) int {
	t.Helper()
	off := 0
	for ; i > 0; i-- {
		body, ok := storage.CheckFrame(b[off:])
		if !ok {
			t.Fatalf("no frame at %d", off)
		}
		off += frameHeader + len(body)
	}
	return off
}

func dirWithSegment(t *testing.T, b []byte) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "0000000000000001.seg")
	if err := os.WriteFile(path, b, 0o640); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func TestOutboxTornTail(t *testing.T) {
	full := firstSegment(t)
	now := time.UnixMilli(1_000)
	for _, cut := range []int{1, 5, 9, 20} {
		t.Run(fmt.Sprint("cut", cut), func(t *testing.T) {
			dir, _ := dirWithSegment(t, full[:len(full)-cut])
			ob := openOutbox(t, dir, OutboxOptions{})
			if got := drain(t, ob, now); fmt.Sprint(got) != "[id1]" {
				t.Errorf("got %v, want the intact first record", got)
			}
		})
	}
	t.Run("flipped checksum at tail", func(t *testing.T) {
		b := append([]byte{}, full...)
		b[len(b)-1] ^= 0xff
		dir, _ := dirWithSegment(t, b)
		ob := openOutbox(t, dir, OutboxOptions{})
		if got := drain(t, ob, now); fmt.Sprint(got) != "[id1]" {
			t.Errorf("got %v", got)
		}
	})
}

// TestOutboxCorruptMiddle: one bad byte in the body of the first of two
// unsent records. Before, the outbox refused to open (and the daemon to
// start); now it opens, the second record is still sent, the damaged
// segment is set aside as evidence (named in Damage) and the one unsent
// record it destroyed is counted as lost.
func TestOutboxCorruptMiddle(t *testing.T) {
	b := firstSegment(t)
	b[frameOffset(t, b, 1)+frameHeader+3] ^= 0xff // inside the first record's body (frame 0 is the segment's H)
	dir, path := dirWithSegment(t, b)
	ob := openOutbox(t, dir, OutboxOptions{})
	if got := drain(t, ob, time.UnixMilli(1_000)); fmt.Sprint(got) != "[id2]" {
		t.Errorf("got %v, want the intact second record", got)
	}
	dmg := ob.Damage()
	if len(dmg) != 1 || dmg[0].Path != path || dmg[0].Aside != path+".damaged" || dmg[0].Lost != 1 || !errors.Is(dmg[0].Err, ErrCorruptJournal) {
		t.Fatalf("damage %+v, want %s set aside with 1 lost record", dmg, path)
	}
	aside, err := os.ReadFile(path + ".damaged")
	if err != nil || string(aside) != string(b) {
		t.Errorf("the damaged segment was not kept as it was (%v)", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the damaged segment is still read: %v", err)
	}
}

// TestOutboxDamageCountsOnlyUnsent: damage that hits a record NATS has
// already acknowledged loses nothing; a segment that is not the newest cut
// short loses its torn record; every other unsent record is still sent,
// once, in order, and a reopen finds no damage any more.
func TestOutboxDamageCountsOnlyUnsent(t *testing.T) {
	dir := t.TempDir()
	ob, err := OpenOutbox(dir, OutboxOptions{SegmentBytes: 300})
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(1_000)
	for i := range 12 {
		ob.Append([]envelope{env(i, false)}, []time.Time{now})
	}
	recs, _, _ := ob.NextBatch(now, 2) // records 0 and 1 are sent and acked
	var seqs []uint64
	for _, r := range recs {
		seqs = append(seqs, r.Seq)
	}
	if err := ob.Ack(seqs...); err != nil {
		t.Fatal(err)
	}
	ob.Close()
	segs, _ := filepath.Glob(filepath.Join(dir, "*.seg"))
	if len(segs) < 3 {
		t.Fatalf("%d segments, want at least 3", len(segs))
	}
	// A flipped byte in the first segment's first record (acked), and the
	// second segment cut short by a few bytes (its last record, unsent,
	// is torn: lost).
	first, _ := os.ReadFile(segs[0])
	first[frameOffset(t, first, 1)+frameHeader+12] ^= 0x40
	os.WriteFile(segs[0], first, 0o640)
	second, _ := os.ReadFile(segs[1])
	os.WriteFile(segs[1], second[:len(second)-5], 0o640)
	ob2 := openOutbox(t, dir, OutboxOptions{SegmentBytes: 300})
	got := drain(t, ob2, now)
	if len(got) != 9 || got[0] != "id2" || got[len(got)-1] != "id11" {
		t.Errorf("after damage to acked records: %v", got)
	}
	lost := 0
	for _, d := range ob2.Damage() {
		lost += d.Lost
	}
	if len(ob2.Damage()) != 2 || lost != 1 {
		t.Errorf("damage %+v: want both segments set aside, one unsent record lost (the torn one)", ob2.Damage())
	}
	ob2.Close()
	ob3 := openOutbox(t, dir, OutboxOptions{})
	if d := ob3.Damage(); len(d) != 0 {
		t.Errorf("damage found again after it was set aside: %+v", d)
	}
}

// TestOutboxSegments: acknowledged segments are deleted oldest first, never
// while an older one still holds a pending record; a reopen after that
// replays exactly the pending records, in order.
func TestOutboxSegments(t *testing.T) {
	dir := t.TempDir()
	ob := openOutbox(t, dir, OutboxOptions{SegmentBytes: 2048})
	now := time.UnixMilli(1_000)
	for i := range 200 {
		envs, due := []envelope{env(i, false)}, []time.Time{now}
		if i < 10 {
			envs, due = append(envs, env(1000+i, true)), append(due, now.Add(time.Hour))
		}
		ob.Append(envs, due)
	}
	segs := func() int {
		m, _ := filepath.Glob(filepath.Join(dir, "*.seg"))
		return len(m)
	}
	before, sizeBefore := segs(), ob.Size()
	if before < 10 {
		t.Fatalf("only %d segments for %d bytes", before, sizeBefore)
	}
	if got := drain(t, ob, now); len(got) != 200 {
		t.Fatalf("drained %d", len(got))
	}
	if n := segs(); n < before {
		// the first segment holds the pending public copies: nothing may go
		t.Errorf("segments %d → %d while the oldest still has pending records", before, n)
	}
	ob.Append([]envelope{env(5000, false)}, []time.Time{now})
	ob.Close()
	ob2 := openOutbox(t, dir, OutboxOptions{SegmentBytes: 2048})
	got := drain(t, ob2, now.Add(2*time.Hour))
	want := "[id5000 id1000 id1001 id1002 id1003 id1004 id1005 id1006 id1007 id1008 id1009]"
	if fmt.Sprint(got) != want {
		t.Errorf("after reopen: %v, want %s", got, want)
	}
	if n := segs(); n != 1 {
		t.Errorf("%d segments left after everything was acknowledged, want 1", n)
	}
	if ob2.Size() >= sizeBefore/10 {
		t.Errorf("outbox still %d bytes (was %d)", ob2.Size(), sizeBefore)
	}
}

func TestOutboxClosed(t *testing.T) {
	ob, _ := OpenOutbox(t.TempDir(), OutboxOptions{})
	ob.Close()
	if err := ob.Append([]envelope{env(1, false)}, []time.Time{time.Now()}); !errors.Is(err, ErrClosed) {
		t.Errorf("append after close: %v", err)
	}
}

func TestOutboxDueStates(t *testing.T) {
	ob := openOutbox(t, t.TempDir(), OutboxOptions{})
	t0 := time.UnixMilli(1_000_000)
	for i := range 4 {
		e := env(i, true)
		if i%2 == 1 {
			e.Kind = kindState
		}
		ob.Append([]envelope{e}, []time.Time{t0.Add(time.Duration(i) * time.Second)})
	}
	var seen []string
	collect := func(r OutboxEntry) { seen = append(seen, r.MsgID) }
	after, err := ob.DueStates(t0.Add(1500*time.Millisecond), 0, collect)
	if err != nil || fmt.Sprint(seen) != "[id1]" {
		t.Fatalf("first scan: %v %v", seen, err)
	}
	after, _ = ob.DueStates(t0.Add(1500*time.Millisecond), after, collect)
	if fmt.Sprint(seen) != "[id1]" {
		t.Errorf("a state was applied twice: %v", seen)
	}
	ob.DueStates(t0.Add(time.Hour), after, collect)
	if fmt.Sprint(seen) != "[id1 id3]" {
		t.Errorf("later scan: %v", seen)
	}
}

func TestOutboxBatch(t *testing.T) {
	dir := t.TempDir()
	ob := openOutbox(t, dir, OutboxOptions{})
	t0 := time.UnixMilli(1_000_000)
	// live 0,1,2 at t0, t0+1s, t0+2s; public copies due 500 ms after each
	for i := range 3 {
		at := t0.Add(time.Duration(i) * time.Second)
		ob.Append([]envelope{env(i, false), env(100+i, true)}, []time.Time{at, at.Add(500 * time.Millisecond)})
	}
	recs, _, err := ob.NextBatch(t0.Add(time.Hour), 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	var seqs []uint64
	for _, r := range recs {
		ids = append(ids, r.MsgID)
		seqs = append(seqs, r.Seq)
	}
	if fmt.Sprint(ids) != "[id0 id100 id1 id101 id2 id102]" {
		t.Fatalf("batch order %v", ids)
	}
	if err := ob.Ack(seqs[2]); err == nil { // id1: id0 is still ahead of it
		t.Error("acking out of order accepted")
	}
	if err := ob.Ack(seqs[:4]...); err != nil {
		t.Fatal(err)
	}
	ob.Close()
	ob2 := openOutbox(t, dir, OutboxOptions{})
	if got := drain(t, ob2, t0.Add(time.Hour)); fmt.Sprint(got) != "[id2 id102]" {
		t.Errorf("after a batch ack and reopen: %v", got)
	}
}

func TestOutboxDueRoundsUp(t *testing.T) {
	ob := openOutbox(t, t.TempDir(), OutboxOptions{})
	due := time.UnixMilli(1_000_000).Add(300 * time.Microsecond)
	ob.Append([]envelope{env(1, true)}, []time.Time{due})
	if recs, _, _ := ob.NextBatch(due, 1); len(recs) != 0 {
		t.Error("a record due at x.3 ms was handed out at x.3 ms (before its own millisecond ended)")
	}
	if recs, _, _ := ob.NextBatch(due.Add(time.Millisecond), 1); len(recs) != 1 || recs[0].DueTime().Before(due) {
		t.Errorf("not due one millisecond later: %+v", recs)
	}
}

// FuzzOutboxReplay: whatever bytes a segment holds, opening the outbox never
// panics and never fails: it replays what is good and sets the rest aside.
func FuzzOutboxReplay(f *testing.F) {
	dir := f.TempDir()
	ob, _ := OpenOutbox(dir, OutboxOptions{})
	now := time.UnixMilli(1_000)
	ob.Append([]envelope{env(1, false), env(2, true)}, []time.Time{now, now})
	ob.Ack(1)
	ob.Close()
	seed, _ := os.ReadFile(filepath.Join(dir, "0000000000000001.seg"))
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	// States written as deltas, and public copies as the same data.
	dir = f.TempDir()
	ob, _ = OpenOutbox(dir, OutboxOptions{})
	for _, b := range stateBatches(f, 1, 4) {
		ob.Append(b, []time.Time{now, now, now, now})
	}
	ob.Close()
	deltas, _ := os.ReadFile(filepath.Join(dir, "0000000000000001.seg"))
	f.Add(deltas)
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 0, 'A'})
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "0000000000000001.seg"), b, 0o640)
		ob, err := OpenOutbox(dir, OutboxOptions{})
		if err != nil {
			t.Fatalf("a damaged segment stopped the outbox: %v", err)
		}
		defer ob.Close()
		if _, _, err := ob.NextBatch(time.UnixMilli(1<<50), 100); err != nil {
			t.Fatalf("replayed outbox unreadable: %v", err)
		}
	})
}
