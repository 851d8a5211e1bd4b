package broadcast

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// The outbox journal is one append-only file of frames:
//
//	u32 length (big endian) | u32 CRC-32C of the body | body
//
// A body is either 'E' followed by a JSON [Record], or 'A' followed by the
// big-endian u64 sequence numbers of acknowledged records. Opening replays the
// file: records without an ack are pending. A torn last frame (short, or a bad
// checksum at the very end: a crash during a write) is cut off; a bad frame
// with valid data after it is an [ErrCorruptJournal] and the file is left as
// it is for the operator. When more than half the file is acknowledged
// records, it is rewritten with the pending records only (write a temporary
// file, fsync, rename).

const (
	journalName    = "outbox.journal"
	frameHeader    = 8
	maxFrame       = 16 << 20
	defaultCompact = 1 << 20
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Record is one journalled envelope: its sequence number (in append order)
// and the time it becomes due (unix milliseconds).
type Record struct {
	Seq uint64 `json:"n"`
	Due int64  `json:"due"`
	Envelope
}

// DueTime returns the record's due time.
func (r Record) DueTime() time.Time { return time.UnixMilli(r.Due) }

// class 0: sent as soon as possible; class 1: delayed (public copies).
type qentry struct {
	seq   uint64
	due   int64
	off   int64
	n     int64 // whole frame size
	kind  Kind
	class uint8
}

// Outbox is the durable, ordered queue between [Publisher.Publish] and the
// NATS connection. It is safe for concurrent use.
type Outbox struct {
	mu        sync.Mutex
	path      string
	f         *os.File
	size      int64
	liveBytes int64
	nextSeq   uint64
	queues    [2][]qentry
	heads     [2]int // index of the first pending entry in queues[i]
	lastDue   [2]int64
	syncEach  bool
	compactAt int64
	closed    bool
	synced    uint64 // every record up to this sequence is fsynced
	notify    chan struct{}
	buf       []byte
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
	// CompactBytes is the journal size below which it is never rewritten
	// (default 1 MiB).
	CompactBytes int64
}

// OpenOutbox opens (creating if needed) the journal in dir and replays it.
func OpenOutbox(dir string, opts OutboxOptions) (*Outbox, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("broadcast: outbox dir: %w", err)
	}
	o := &Outbox{
		path:      filepath.Join(dir, journalName),
		syncEach:  opts.SyncEachAppend,
		compactAt: opts.CompactBytes,
		notify:    make(chan struct{}, 1),
		nextSeq:   1,
	}
	if o.compactAt <= 0 {
		o.compactAt = defaultCompact
	}
	f, err := os.OpenFile(o.path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("broadcast: outbox: %w", err)
	}
	o.f = f
	if err := o.replay(); err != nil {
		f.Close()
		return nil, err
	}
	return o, nil
}

func (o *Outbox) replay() error {
	st, err := o.f.Stat()
	if err != nil {
		return err
	}
	fileSize := st.Size()
	r := bufio.NewReaderSize(io.NewSectionReader(o.f, 0, fileSize), 64<<10)
	var off int64
	acked := map[uint64]bool{}
	var all []qentry
	hdr := make([]byte, frameHeader)
	for off < fileSize {
		if _, err := io.ReadFull(r, hdr); err != nil {
			break // torn header at the tail
		}
		n := int64(binary.BigEndian.Uint32(hdr))
		sum := binary.BigEndian.Uint32(hdr[4:])
		if n == 0 || n > maxFrame || off+frameHeader+n > fileSize {
			if off+frameHeader+n > fileSize && n <= maxFrame {
				break // torn body at the tail
			}
			return &JournalError{Path: o.path, Offset: off, Err: ErrCorruptJournal}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			break
		}
		if crc32.Checksum(body, crcTable) != sum {
			if off+frameHeader+n == fileSize {
				break // the last frame was torn
			}
			return &JournalError{Path: o.path, Offset: off, Err: ErrCorruptJournal}
		}
		switch body[0] {
		case 'A':
			if len(body) < 9 || (len(body)-1)%8 != 0 {
				return &JournalError{Path: o.path, Offset: off, Err: ErrCorruptJournal}
			}
			for b := body[1:]; len(b) > 0; b = b[8:] {
				acked[binary.BigEndian.Uint64(b)] = true
			}
		case 'E':
			var rec Record
			if err := json.Unmarshal(body[1:], &rec); err != nil {
				return &JournalError{Path: o.path, Offset: off, Err: fmt.Errorf("%w: %v", ErrCorruptJournal, err)}
			}
			all = append(all, qentry{seq: rec.Seq, due: rec.Due, off: off, n: frameHeader + n, kind: rec.Kind, class: classOf(rec.Envelope)})
			if rec.Seq >= o.nextSeq {
				o.nextSeq = rec.Seq + 1
			}
		default:
			return &JournalError{Path: o.path, Offset: off, Err: ErrCorruptJournal}
		}
		off += frameHeader + n
	}
	if off < fileSize {
		if err := o.f.Truncate(off); err != nil {
			return fmt.Errorf("broadcast: outbox: cut torn tail: %w", err)
		}
	}
	o.size = off
	o.synced = o.nextSeq - 1
	for _, e := range all {
		if acked[e.seq] {
			continue
		}
		o.queues[e.class] = append(o.queues[e.class], e)
		o.liveBytes += e.n
		if e.due > o.lastDue[e.class] {
			o.lastDue[e.class] = e.due
		}
	}
	return nil
}

func classOf(e Envelope) uint8 {
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

func (o *Outbox) writeLocked(b []byte) error {
	if _, err := o.f.WriteAt(b, o.size); err != nil {
		return fmt.Errorf("broadcast: outbox write: %w", err)
	}
	o.size += int64(len(b))
	return nil
}

// Append journals envelopes in order, each due at the matching time (due
// times of the same class never go backwards: a later record is never due
// before an earlier one). It returns when the records are in the file (and
// fsynced with SyncEachAppend).
func (o *Outbox) Append(envs []Envelope, due []time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return ErrClosed
	}
	for i, e := range envs {
		c := classOf(e)
		d := due[i].UnixMilli()
		if d < o.lastDue[c] {
			d = o.lastDue[c]
		}
		rec := Record{Seq: o.nextSeq, Due: d, Envelope: e}
		js, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("broadcast: outbox encode: %w", err)
		}
		b := o.frame('E', js)
		off := o.size
		if err := o.writeLocked(b); err != nil {
			return err
		}
		o.nextSeq++
		o.lastDue[c] = d
		o.queues[c] = append(o.queues[c], qentry{seq: rec.Seq, due: d, off: off, n: int64(len(b)), kind: e.Kind, class: c})
		o.liveBytes += int64(len(b))
	}
	if o.syncEach {
		if err := o.f.Sync(); err != nil {
			return fmt.Errorf("broadcast: outbox sync: %w", err)
		}
		o.synced = o.nextSeq - 1
	}
	select {
	case o.notify <- struct{}{}:
	default:
	}
	return nil
}

// Notify returns a channel that receives a value after appends.
func (o *Outbox) Notify() <-chan struct{} { return o.notify }

// SyncDirty fsyncs the journal if anything was appended since the last
// sync. The fsync runs outside the lock, so appends are not held up by it.
// It must not run concurrently with Ack or Close (the publisher calls both
// from its Run goroutine).
func (o *Outbox) SyncDirty() error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return ErrClosed
	}
	target, f := o.nextSeq-1, o.f
	o.mu.Unlock()
	if target <= o.syncedSeq() {
		return nil
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("broadcast: outbox sync: %w", err)
	}
	o.mu.Lock()
	o.synced = max(o.synced, target)
	o.mu.Unlock()
	return nil
}

func (o *Outbox) syncedSeq() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.synced
}

func (o *Outbox) readLocked(e qentry) (Record, error) {
	b := make([]byte, e.n)
	if _, err := o.f.ReadAt(b, e.off); err != nil {
		return Record{}, &JournalError{Path: o.path, Offset: e.off, Err: err}
	}
	var rec Record
	if err := json.Unmarshal(b[frameHeader+1:], &rec); err != nil {
		return Record{}, &JournalError{Path: o.path, Offset: e.off, Err: fmt.Errorf("%w: %v", ErrCorruptJournal, err)}
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
		if e.kind != KindState {
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
// acknowledged in the order [Outbox.NextBatch] returns them;
// acking anything else is an error (and nothing is acked).
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
	if err := o.writeLocked(o.frame('A', p)); err != nil {
		return err
	}
	for _, c := range classes {
		o.liveBytes -= o.queues[c][o.heads[c]].n
		o.queues[c][o.heads[c]] = qentry{}
		o.heads[c]++
	}
	for c := range o.queues {
		if o.heads[c] > 1024 && o.heads[c]*2 > len(o.queues[c]) {
			o.queues[c] = append([]qentry(nil), o.queues[c][o.heads[c]:]...)
			o.heads[c] = 0
		}
	}
	if o.size > o.compactAt && o.size > 2*o.liveBytes {
		return o.compactLocked()
	}
	return nil
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

// Size returns the journal's size in bytes.
func (o *Outbox) Size() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.size
}

func (o *Outbox) compactLocked() error {
	tmp := o.path + ".tmp"
	nf, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("broadcast: outbox compact: %w", err)
	}
	var newQ [2][]qentry
	w := bufio.NewWriterSize(nf, 64<<10)
	var off int64
	for c := range o.queues {
		for _, e := range o.queues[c][o.heads[c]:] {
			b := make([]byte, e.n)
			if _, err = o.f.ReadAt(b, e.off); err != nil {
				break
			}
			if _, err = w.Write(b); err != nil {
				break
			}
			e.off = off
			off += e.n
			newQ[c] = append(newQ[c], e)
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = nf.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, o.path)
	}
	if err != nil {
		nf.Close()
		os.Remove(tmp)
		return fmt.Errorf("broadcast: outbox compact: %w", err)
	}
	syncDir(filepath.Dir(o.path))
	o.f.Close()
	o.f = nf
	o.size = off
	o.liveBytes = off
	o.queues = newQ
	o.heads = [2]int{}
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Close syncs and closes the journal; pending records stay in it.
func (o *Outbox) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	err := errors.Join(o.f.Sync(), o.f.Close())
	return err
}
