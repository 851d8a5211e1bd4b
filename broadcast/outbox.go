package broadcast

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
)

// The outbox is a log of segment files <n>.seg in its directory, each a
// sequence of frames (storage.AppendFrame):
//
//	u32 length (big endian) | u32 CRC-32C of the body | body
//
// A body is 'M' and a record (outbox_frames.go: its header, and its data
// or a delta from an earlier record of the segment; 'E', a JSON [OutboxEntry],
// in older outboxes), 'A' followed by the big-endian u64 sequence numbers
// of acknowledged records, or (a segment's first frame) 'H' followed by
// the first sequence number it was started for. Appends go to the
// newest segment; when it reaches OutboxOptions.SegmentBytes a new one is
// started. Opening replays every segment: records without an ack are pending.
// The oldest segment is deleted once every record in it is acknowledged and
// it is not the newest; segments are only ever deleted oldest first, so an
// ack frame never outlives the record it acknowledges.
//
// Faults (outbox_segments.go): a torn last frame of the newest segment (a
// crash during a write) is cut off. A damaged stretch anywhere else (a bad
// byte, a truncated segment) costs only the frames it touches: the
// segment's good pending records are written again into a new segment and
// the damaged file is set aside as <n>.seg.damaged (evidence, never read
// again); [Outbox.Damage] says what was found and how many unsent records
// were lost with it. A failed fsync makes every record since the last good
// one suspect (the kernel may have dropped the pages): the next sync writes
// them again into a new segment before they count as durable. A failed
// write leaves nothing behind and is returned to the caller, who keeps the
// messages and tries again.

const (
	segExt         = ".seg"
	frameHeader    = storage.FrameHeader
	defaultSegment = 4 << 20
	frameKinds     = "EAHM"
)

// OutboxEntry is one journalled envelope: its sequence number (in append order)
// and the time it becomes due (unix milliseconds).
type OutboxEntry struct {
	Seq uint64 `json:"n"`
	Due int64  `json:"due"`
	envelope
}

// DueTime returns the record's due time.
func (r OutboxEntry) DueTime() time.Time { return time.UnixMilli(r.Due) }

// class 0: sent as soon as possible; class 1: delayed (public copies).
type qentry struct {
	seq   uint64
	due   int64
	seg   uint64
	off   int64
	n     int64 // whole frame size
	kind  kind
	class uint8
}

type segment struct {
	id      uint64
	path    string
	f       storage.File
	size    int64
	pending int // records in this segment not yet acknowledged
}

// Outbox is the durable, ordered queue between [Publisher.publish] and the
// NATS connection. It is safe for concurrent use.
type Outbox struct {
	mu       sync.Mutex
	fs       storage.FS
	dir      string
	segs     []*segment // oldest first; the last one takes appends
	nextSeq  uint64
	queues   [2][]qentry
	heads    [2]int // index of the first pending entry in queues[i]
	lastDue  [2]int64
	syncEach bool
	segBytes int64
	closed   bool
	synced   uint64 // every record up to this sequence is fsynced
	// resync: an fsync failed; records after synced are written again
	// (rewriteLocked) before they count as durable.
	resync bool
	notify chan struct{}
	buf    []byte
	damage []JournalDamage
	health storage.Health
	// written: the last state written of each subject (the base of the
	// next one's delta); read: the last states read back.
	written   map[string]stateWritten
	read      map[string][2]stateRead
	lastDelta lastDelta
}

// OutboxOptions tunes an [Outbox]. The zero value is valid.
type OutboxOptions struct {
	// SyncEachAppend fsyncs in every append (survives power loss at once, and
	// costs the caller a disk flush, about 1 ms here, per message). Off, an
	// append survives a process crash at once (it is in the page cache) and a
	// power loss once it is synced: by the publisher's next pass (right
	// after it sends a batch, and before it sleeps or backs off) or by
	// [Publisher.Sync]. Sending never waits for an fsync, because a record
	// in NATS needs none.
	SyncEachAppend bool
	// SegmentBytes is the size at which a new segment file is started
	// (default 4 MiB). The disk holds about public_delay worth of traffic
	// plus one segment.
	SegmentBytes int64
	// FS is the file system the outbox writes through (nil: the OS's);
	// tests pass a storage/storagetest one to inject faults.
	FS storage.FS
}

// OpenOutbox opens (creating if needed) the outbox in dir and replays it.
// Damaged segments do not stop it (see [Outbox.Damage]); an error means
// the directory itself cannot be used.
func OpenOutbox(dir string, opts OutboxOptions) (*Outbox, error) {
	o := &Outbox{
		fs:       storage.Or(opts.FS),
		dir:      dir,
		syncEach: opts.SyncEachAppend,
		segBytes: opts.SegmentBytes,
		notify:   make(chan struct{}, 1),
		nextSeq:  1,
		written:  map[string]stateWritten{},
		read:     map[string][2]stateRead{},
	}
	if err := o.fs.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("broadcast: outbox dir: %w", err)
	}
	if o.segBytes <= 0 {
		o.segBytes = defaultSegment
	}
	if err := o.replay(); err != nil {
		o.closeFiles()
		return nil, err
	}
	return o, nil
}

func classOf(e envelope) uint8 {
	if e.Public {
		return 1
	}
	return 0
}

// ErrTooLarge: a message does not fit in one outbox frame.
var ErrTooLarge = errors.New("broadcast: message too large for the outbox")

// rotateLocked starts a new segment when the newest is full. The full one
// is fsynced first, so SyncDirty only ever needs to sync the newest; if
// that fsync fails, the records since the last good sync are written
// again at the next SyncDirty.
func (o *Outbox) rotateLocked() error {
	s := o.segs[len(o.segs)-1]
	if s.size < o.segBytes {
		return nil
	}
	if err := s.f.Sync(); err != nil {
		o.syncFailedLocked(fmt.Errorf("broadcast: outbox sync %s: %w", s.path, err))
	} else if !o.resync {
		o.synced = o.nextSeq - 1
	}
	return o.startSegment(s.id + 1)
}

// Append journals envelopes in order, each due at the matching time (due
// times of the same class never go backwards: a later record is never due
// before an earlier one). Due times are kept in milliseconds: a delayed
// (public) record's is rounded up, so it is never handed out early; a live
// record's is rounded down, so one due "now" is due at once. It returns when
// the records are in the file (and fsynced with SyncEachAppend). Either all
// envelopes are journalled or, with an error, none: the caller keeps them
// and tries again.
func (o *Outbox) Append(envs []envelope, due []time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	s := o.segs[len(o.segs)-1]
	b := o.buf[:0]
	entries := make([]qentry, 0, len(envs))
	recs := make([]OutboxEntry, 0, len(envs))
	states := make([]stateWritten, 0, len(envs))
	last := o.lastDue
	for i, e := range envs {
		c := classOf(e)
		d := due[i].UnixMilli()
		if c == 1 {
			d = ceilMilli(due[i]) // a delayed copy is never early
		}
		d = max(d, last[c])
		rec := OutboxEntry{Seq: o.nextSeq + uint64(i), Due: d, envelope: e}
		off := s.size + int64(len(b))
		var st stateWritten
		var err error
		if b, st, err = o.encodeLocked(b, rec, s, recs, entries); err != nil {
			return err
		}
		last[c] = d
		entries = append(entries, qentry{seq: rec.Seq, due: d, seg: s.id, off: off, n: s.size + int64(len(b)) - off, kind: e.Kind, class: c})
		recs = append(recs, rec)
		states = append(states, st)
	}
	o.buf = b
	if err := o.writeLocked(s, b); err != nil {
		return err
	}
	o.nextSeq += uint64(len(envs))
	o.lastDue = last
	for i, q := range entries {
		s.pending++
		o.queues[q.class] = append(o.queues[q.class], q)
		if q.kind == kindState {
			st := states[i]
			st.seq, st.seg, st.off, st.n = q.seq, s.id, q.off, q.n
			o.written[recs[i].Subject] = st
		}
	}
	if o.syncEach {
		if err := s.f.Sync(); err != nil {
			o.syncFailedLocked(fmt.Errorf("broadcast: outbox sync %s: %w", s.path, err))
		} else if !o.resync {
			o.synced = o.nextSeq - 1
		}
	}
	if err := o.rotateLocked(); err != nil {
		o.health.Fail(time.Now(), err)
	}
	select {
	case o.notify <- struct{}{}:
	default:
	}
	return nil
}

// writeLocked appends b to segment s in one write. A failed write is cut
// off again (best effort: the next write overwrites it anyway, and a
// replay cuts what remains), so nothing half-written counts.
func (o *Outbox) writeLocked(s *segment, b []byte) error {
	if _, err := s.f.WriteAt(b, s.size); err != nil {
		s.f.Truncate(s.size)
		err = fmt.Errorf("broadcast: outbox write %s: %w", s.path, err)
		o.health.Fail(time.Now(), err)
		return err
	}
	s.size += int64(len(b))
	o.health.OK()
	return nil
}

// ceilMilli is t in unix milliseconds, rounded up: a record is never due
// before the time it was given.
func ceilMilli(t time.Time) int64 {
	ms := t.UnixMilli()
	if t.Sub(time.UnixMilli(ms)) > 0 {
		ms++
	}
	return ms
}

// Notify returns a channel that receives a value after appends.
func (o *Outbox) Notify() <-chan struct{} { return o.notify }

// SyncDirty makes every record appended so far durable: it fsyncs the
// newest segment if anything was appended since the last sync (older
// segments were synced when they were closed), or, after a failed fsync,
// first writes the records since the last good one again. The fsync runs
// outside the lock, so appends are not held up by it.
func (o *Outbox) SyncDirty() error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return ErrClosed
	}
	if o.resync {
		err := o.rewriteLocked()
		o.mu.Unlock()
		return err
	}
	target, synced, s := o.nextSeq-1, o.synced, o.segs[len(o.segs)-1]
	o.mu.Unlock()
	if target <= synced {
		return nil
	}
	err := s.f.Sync()
	o.mu.Lock()
	defer o.mu.Unlock()
	if err != nil && !errors.Is(err, os.ErrClosed) {
		err = fmt.Errorf("broadcast: outbox sync %s: %w", s.path, err)
		o.syncFailedLocked(err)
		return err
	}
	if !o.resync {
		o.synced = max(o.synced, target)
		o.health.OK()
	}
	return nil
}

// syncFailedLocked notes a failed fsync: the records after the last good
// one must be written again before they count as durable.
func (o *Outbox) syncFailedLocked(err error) {
	o.resync = true
	o.health.Fail(time.Now(), err)
}

// Health returns nil when every write and fsync of the last minute
// succeeded, otherwise the latest failure.
func (o *Outbox) Health() error { return o.health.Err(time.Now()) }

func (o *Outbox) readLocked(e qentry) (OutboxEntry, error) {
	s := o.segByID(e.seg)
	if s == nil {
		return OutboxEntry{}, fmt.Errorf("broadcast: outbox: segment %d of record %d is gone", e.seg, e.seq)
	}
	return o.readAt(s, e.off, e.n, 0)
}

// NextBatch returns up to max pending records due at now, in the order they
// must be sent (earliest due first, then lowest sequence), without removing
// them. When none is due, wake is the earliest future due time (zero when
// nothing is pending). A record that no longer reads back intact (the disk
// changed it under us) is dropped from the queue and counted in Damage;
// an I/O error is returned (try again later).
func (o *Outbox) NextBatch(now time.Time, max int) (recs []OutboxEntry, wake time.Time, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil, time.Time{}, ErrClosed
	}
	t := now.UnixMilli()
	idx := o.heads
	for len(recs) < max {
		best := -1
		for c := range o.queues {
			if idx[c] >= len(o.queues[c]) {
				continue
			}
			e := o.queues[c][idx[c]]
			if e.due > t {
				continue
			}
			if best < 0 {
				best = c
				continue
			}
			b := o.queues[best][idx[best]]
			if e.due < b.due || e.due == b.due && e.seq < b.seq {
				best = c
			}
		}
		if best < 0 {
			break
		}
		rec, err := o.readLocked(o.queues[best][idx[best]])
		if errors.Is(err, ErrCorruptJournal) && idx[best] == o.heads[best] {
			o.dropHeadLocked(best, err)
			idx[best] = o.heads[best]
			continue
		}
		if err != nil {
			return recs, time.Time{}, err
		}
		recs = append(recs, rec)
		idx[best]++
	}
	if len(recs) == 0 {
		var earliest int64
		for c := range o.queues {
			if idx[c] < len(o.queues[c]) {
				if d := o.queues[c][idx[c]].due; earliest == 0 || d < earliest {
					earliest = d
				}
			}
		}
		if earliest != 0 {
			wake = time.UnixMilli(earliest)
		}
	}
	return recs, wake, nil
}

// dropHeadLocked removes the head of queue c, a record that does not read
// back, and notes the loss.
func (o *Outbox) dropHeadLocked(c int, err error) {
	e := o.queues[c][o.heads[c]]
	if s := o.segByID(e.seg); s != nil {
		s.pending--
	}
	o.queues[c][o.heads[c]] = qentry{}
	o.heads[c]++
	var je *JournalError
	path := ""
	if errors.As(err, &je) {
		path = je.Path
	}
	o.damage = append(o.damage, JournalDamage{Path: path, Lost: 1, Err: err})
}

// DueStates calls fn, in order, for every pending public GameState record due
// at now with a sequence number above after, and returns the highest sequence
// number visited (or after). A state that does not read back is skipped.
func (o *Outbox) DueStates(now time.Time, after uint64, fn func(OutboxEntry)) (uint64, error) {
	o.mu.Lock()
	var recs []OutboxEntry
	t := now.UnixMilli()
	q := o.queues[1][o.heads[1]:]
	// records are in sequence order: skip those already visited at once
	i, _ := slices.BinarySearchFunc(q, after+1, func(e qentry, seq uint64) int { return cmp.Compare(e.seq, seq) })
	for _, e := range q[i:] {
		if e.due > t {
			break
		}
		if e.kind != kindState {
			after = e.seq
			continue
		}
		rec, err := o.readLocked(e)
		if errors.Is(err, ErrCorruptJournal) {
			after = e.seq
			continue // NextBatch drops it when it comes up
		}
		if err != nil {
			o.mu.Unlock()
			return after, err
		}
		after = e.seq
		recs = append(recs, rec)
	}
	o.mu.Unlock()
	for _, r := range recs {
		fn(r)
	}
	return after, nil
}

// Ack marks records as delivered, in one journal frame. Records are
// acknowledged in the order [Outbox.NextBatch] returns them; acking anything
// else is an error (and nothing is acked). When the ack frame cannot be
// written the records stay pending (they are sent again; the streams drop
// repeats by message id).
func (o *Outbox) Ack(seqs ...uint64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	if len(seqs) == 0 {
		return nil
	}
	classes := make([]int, len(seqs))
	idx := o.heads
	for i, seq := range seqs {
		c := -1
		for q := range o.queues {
			if idx[q] < len(o.queues[q]) && o.queues[q][idx[q]].seq == seq {
				c = q
			}
		}
		if c < 0 {
			return fmt.Errorf("broadcast: outbox ack %d: not next in its queue", seq)
		}
		classes[i] = c
		idx[c]++
	}
	p := make([]byte, 1, 1+8*len(seqs))
	p[0] = 'A'
	for _, seq := range seqs {
		p = binary.BigEndian.AppendUint64(p, seq)
	}
	o.buf = storage.AppendFrame(o.buf[:0], p)
	if err := o.writeLocked(o.segs[len(o.segs)-1], o.buf); err != nil {
		return err
	}
	for _, c := range classes {
		e := o.queues[c][o.heads[c]]
		if s := o.segByID(e.seg); s != nil {
			s.pending--
		}
		o.queues[c][o.heads[c]] = qentry{}
		o.heads[c]++
	}
	o.compactQueuesLocked()
	if err := o.rotateLocked(); err != nil {
		o.health.Fail(time.Now(), err)
	}
	if err := o.dropAckedLocked(); err != nil {
		o.health.Fail(time.Now(), err)
	}
	return nil
}

// compactQueuesLocked drops the consumed heads of long queues.
func (o *Outbox) compactQueuesLocked() {
	for c := range o.queues {
		if o.heads[c] > 1024 && o.heads[c]*2 > len(o.queues[c]) {
			o.queues[c] = append([]qentry(nil), o.queues[c][o.heads[c]:]...)
			o.heads[c] = 0
		}
	}
}

// Pending returns the number of records not yet acknowledged.
func (o *Outbox) Pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for c := range o.queues {
		n += len(o.queues[c]) - o.heads[c]
	}
	return n
}

// Size returns the bytes the outbox occupies on disk (all segments).
func (o *Outbox) Size() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	var n int64
	for _, s := range o.segs {
		n += s.size
	}
	return n
}

func (o *Outbox) closeFiles() error {
	var errs []error
	for _, s := range o.segs {
		if s.f != nil {
			errs = append(errs, s.f.Close())
		}
	}
	return errors.Join(errs...)
}

// Close syncs and closes the outbox; pending records stay in it.
func (o *Outbox) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	var err error
	if o.resync {
		err = o.rewriteLocked()
	} else {
		err = o.segs[len(o.segs)-1].f.Sync()
	}
	o.closed = true
	return errors.Join(err, o.closeFiles())
}
