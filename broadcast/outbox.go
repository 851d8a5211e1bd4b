package broadcast

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"slices"
	"sync"
	"time"
)

// The outbox is a log of segment files <n>.seg in its directory, each a
// sequence of frames:
//
//	u32 length (big endian) | u32 CRC-32C of the body | body
//
// A body is either 'E' followed by a JSON [Record], or 'A' followed by the
// big-endian u64 sequence numbers of acknowledged records. Appends go to the
// newest segment; when it reaches OutboxOptions.SegmentBytes a new one is
// started. Opening replays every segment: records without an ack are pending.
// The oldest segment is deleted once every record in it is acknowledged and
// it is not the newest; segments are only ever deleted oldest first, so an
// ack frame never outlives the record it acknowledges. Nothing is copied or
// rewritten.
//
// A torn last frame of a segment (short, or a bad checksum at its very end:
// a crash during a write) is cut off; a bad frame with valid data after it
// is an [ErrCorruptJournal] and the files are left as they are for the
// operator.

const (
	segExt         = ".seg"
	frameHeader    = 8
	maxFrame       = 16 << 20
	defaultSegment = 4 << 20
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Record is one journalled envelope: its sequence number (in append order)
// and the time it becomes due (unix milliseconds).
type Record struct {
	Seq uint64 `json:"n"`
	Due int64  `json:"due"`
	envelope
}

// DueTime returns the record's due time.
func (r Record) DueTime() time.Time { return time.UnixMilli(r.Due) }

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
	f       *os.File
	size    int64
	pending int // records in this segment not yet acknowledged
}

// Outbox is the durable, ordered queue between [Publisher.publish] and the
// NATS connection. It is safe for concurrent use.
type Outbox struct {
	mu       sync.Mutex
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
	notify   chan struct{}
	buf      []byte
}

// OutboxOptions tunes an [Outbox]. The zero value is valid.
type OutboxOptions struct {
	// SyncEachAppend fsyncs in every append (survives power loss at once, and
	// costs the caller a disk flush, about 1 ms here, per message). Off, an
	// append survives a process crash at once (it is in the page cache) and a
	// power loss once the publisher's next pass has synced it: right after it
	// sends a batch, and before it sleeps or backs off. Sending never waits
	// for an fsync, because a record in NATS needs none.
	SyncEachAppend bool
	// SegmentBytes is the size at which a new segment file is started
	// (default 4 MiB). The disk holds about public_delay worth of traffic
	// plus one segment.
	SegmentBytes int64
}

// OpenOutbox opens (creating if needed) the outbox in dir and replays it.
func OpenOutbox(dir string, opts OutboxOptions) (*Outbox, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("broadcast: outbox dir: %w", err)
	}
	o := &Outbox{
		dir:      dir,
		syncEach: opts.SyncEachAppend,
		segBytes: opts.SegmentBytes,
		notify:   make(chan struct{}, 1),
		nextSeq:  1,
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

func (o *Outbox) frame(kind byte, payload []byte) []byte {
	n := 1 + len(payload)
	b := o.buf[:0]
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	b = binary.BigEndian.AppendUint32(b, 0)
	b = append(b, kind)
	b = append(b, payload...)
	binary.BigEndian.PutUint32(b[4:], crc32.Checksum(b[frameHeader:], crcTable))
	o.buf = b
	return b
}

// writeLocked appends a frame to the newest segment and returns where.
func (o *Outbox) writeLocked(b []byte) (*segment, int64, error) {
	s := o.segs[len(o.segs)-1]
	off := s.size
	if _, err := s.f.WriteAt(b, off); err != nil {
		return nil, 0, fmt.Errorf("broadcast: outbox write: %w", err)
	}
	s.size += int64(len(b))
	return s, off, nil
}

// rotateLocked starts a new segment when the newest is full. The full one
// is fsynced first, so SyncDirty only ever needs to sync the newest.
func (o *Outbox) rotateLocked() error {
	s := o.segs[len(o.segs)-1]
	if s.size < o.segBytes {
		return nil
	}
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("broadcast: outbox sync: %w", err)
	}
	o.synced = o.nextSeq - 1
	return o.startSegment(s.id + 1)
}

// Append journals envelopes in order, each due at the matching time (due
// times of the same class never go backwards: a later record is never due
// before an earlier one). Due times are kept in milliseconds: a delayed
// (public) record's is rounded up, so it is never handed out early; a live
// record's is rounded down, so one due "now" is due at once. It returns when the records are in the file (and
// fsynced with SyncEachAppend).
func (o *Outbox) Append(envs []envelope, due []time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	for i, e := range envs {
		c := classOf(e)
		d := due[i].UnixMilli()
		if c == 1 {
			d = ceilMilli(due[i]) // a delayed copy is never early
		}
		if d < o.lastDue[c] {
			d = o.lastDue[c]
		}
		rec := Record{Seq: o.nextSeq, Due: d, envelope: e}
		js, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("broadcast: outbox encode: %w", err)
		}
		b := o.frame('E', js)
		s, off, err := o.writeLocked(b)
		if err != nil {
			return err
		}
		o.nextSeq++
		o.lastDue[c] = d
		s.pending++
		o.queues[c] = append(o.queues[c], qentry{seq: rec.Seq, due: d, seg: s.id, off: off, n: int64(len(b)), kind: e.Kind, class: c})
	}
	if o.syncEach {
		if err := o.segs[len(o.segs)-1].f.Sync(); err != nil {
			return fmt.Errorf("broadcast: outbox sync: %w", err)
		}
		o.synced = o.nextSeq - 1
	}
	if err := o.rotateLocked(); err != nil {
		return err
	}
	select {
	case o.notify <- struct{}{}:
	default:
	}
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

// SyncDirty fsyncs the newest segment if anything was appended since the
// last sync (older segments were synced when they were closed). The fsync
// runs outside the lock, so appends are not held up by it.
func (o *Outbox) SyncDirty() error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return ErrClosed
	}
	target, synced, f := o.nextSeq-1, o.synced, o.segs[len(o.segs)-1].f
	o.mu.Unlock()
	if target <= synced {
		return nil
	}
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("broadcast: outbox sync: %w", err)
	}
	o.mu.Lock()
	o.synced = max(o.synced, target)
	o.mu.Unlock()
	return nil
}

func (o *Outbox) readLocked(e qentry) (Record, error) {
	s := o.segByID(e.seg)
	if s == nil {
		return Record{}, fmt.Errorf("broadcast: outbox: segment %d of record %d is gone", e.seg, e.seq)
	}
	b := make([]byte, e.n)
	if _, err := s.f.ReadAt(b, e.off); err != nil {
		return Record{}, &JournalError{Path: s.path, Offset: e.off, Err: err}
	}
	var rec Record
	if err := json.Unmarshal(b[frameHeader+1:], &rec); err != nil {
		return Record{}, &JournalError{Path: s.path, Offset: e.off, Err: fmt.Errorf("%w: %v", ErrCorruptJournal, err)}
	}
	return rec, nil
}

// NextBatch returns up to max pending records due at now, in the order they
// must be sent (earliest due first, then lowest sequence), without removing
// them. When none is due, wake is the earliest future due time (zero when
// nothing is pending).
func (o *Outbox) NextBatch(now time.Time, max int) (recs []Record, wake time.Time, err error) {
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

// DueStates calls fn, in order, for every pending public GameState record due
// at now with a sequence number above after, and returns the highest sequence
// number visited (or after).
func (o *Outbox) DueStates(now time.Time, after uint64, fn func(Record)) (uint64, error) {
	o.mu.Lock()
	var recs []Record
	t := now.UnixMilli()
	q := o.queues[1][o.heads[1]:]
	// records are in sequence order: skip those already visited at once
	i, _ := slices.BinarySearchFunc(q, after+1, func(e qentry, seq uint64) int { return cmp.Compare(e.seq, seq) })
	for _, e := range q[i:] {
		if e.due > t {
			break
		}
		after = e.seq
		if e.kind != kindState {
			continue
		}
		rec, err := o.readLocked(e)
		if err != nil {
			o.mu.Unlock()
			return after, err
		}
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
// else is an error (and nothing is acked).
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
	p := make([]byte, 0, 8*len(seqs))
	for _, seq := range seqs {
		p = binary.BigEndian.AppendUint64(p, seq)
	}
	if _, _, err := o.writeLocked(o.frame('A', p)); err != nil {
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
	for c := range o.queues {
		if o.heads[c] > 1024 && o.heads[c]*2 > len(o.queues[c]) {
			o.queues[c] = append([]qentry(nil), o.queues[c][o.heads[c]:]...)
			o.heads[c] = 0
		}
	}
	if err := o.rotateLocked(); err != nil {
		return err
	}
	return o.dropAckedLocked()
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

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
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
	o.closed = true
	err := o.segs[len(o.segs)-1].f.Sync()
	return errors.Join(err, o.closeFiles())
}
