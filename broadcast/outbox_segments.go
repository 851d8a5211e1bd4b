package broadcast

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
)

// JournalDamage is damage found in the outbox: a segment with bytes that
// are not good frames (set aside as Aside, when that worked), or a record
// that no longer read back. Lost counts the unsent records that went with
// it (records already acknowledged by NATS cost nothing).
type JournalDamage struct {
	Path  string // the damaged segment
	Aside string // where it was moved ("" if it could not be)
	Bytes int64  // damaged bytes
	Lost  int    // unsent records lost
	Err   error  // what was wrong
}

// String describes the damage for a log line or an alert.
func (d JournalDamage) String() string {
	s := "outbox " + d.Path
	if d.Bytes > 0 {
		s += fmt.Sprintf(": %d damaged bytes", d.Bytes)
	}
	if d.Err != nil {
		s += ": " + d.Err.Error()
	}
	if d.Aside != "" {
		s += "; set aside as " + d.Aside
	}
	return s + fmt.Sprintf("; %d unsent messages lost", d.Lost)
}

// Damage returns the damage found so far (at open, or records that no
// longer read back).
func (o *Outbox) Damage() []JournalDamage {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.damage)
}

func (o *Outbox) segPath(id uint64) string {
	return filepath.Join(o.dir, fmt.Sprintf("%016d%s", id, segExt))
}

// scanned is one segment as replay read it.
type scanned struct {
	s       *segment
	res     storage.ScanResult
	base    uint64   // the H frame: the first sequence number the segment was started for (0: none)
	seqs    []uint64 // the E records' sequence numbers, in file order
	damaged bool     // holds bad bytes, or a cut tail that is not the newest's
}

func (o *Outbox) replay() error {
	names, err := o.fs.ReadDir(o.dir)
	if err != nil {
		return fmt.Errorf("broadcast: outbox: %w", err)
	}
	var ids []uint64
	for _, d := range names {
		base, ok := strings.CutSuffix(d.Name(), segExt)
		if !ok || d.IsDir() {
			continue
		}
		id, err := strconv.ParseUint(base, 10, 64)
		if err != nil {
			continue
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	acked := map[uint64]bool{}
	latest := map[uint64]qentry{} // seq → where its newest copy is
	var segs []scanned
	for i, id := range ids {
		s := &segment{id: id, path: o.segPath(id)}
		if s.f, err = o.fs.OpenFile(s.path, os.O_RDWR, 0o640); err != nil {
			return fmt.Errorf("broadcast: outbox: %w", err)
		}
		o.segs = append(o.segs, s)
		sc, err := o.replaySegment(s, acked, latest)
		if err != nil {
			return err
		}
		sc.damaged = len(sc.res.Damaged) > 0 || sc.res.Tail > 0 && i < len(ids)-1
		if !sc.damaged && sc.res.Tail > 0 {
			// The newest segment's torn tail: a write cut short by a crash.
			if err := s.f.Truncate(sc.res.End); err != nil {
				return fmt.Errorf("broadcast: outbox: cut torn tail of %s: %w", s.path, err)
			}
		}
		s.size = sc.res.End
		segs = append(segs, sc)
	}
	all := make([]qentry, 0, len(latest))
	for _, e := range latest {
		all = append(all, e)
	}
	slices.SortFunc(all, func(a, b qentry) int { return cmp.Compare(a.seq, b.seq) })
	for _, e := range all {
		if e.seq >= o.nextSeq {
			o.nextSeq = e.seq + 1
		}
		if acked[e.seq] {
			continue
		}
		o.queues[e.class] = append(o.queues[e.class], e)
		o.segByID(e.seg).pending++
		o.lastDue[e.class] = max(o.lastDue[e.class], e.due)
	}
	o.synced = o.nextSeq - 1
	var next uint64 = 1
	if len(ids) > 0 {
		next = ids[len(ids)-1] + 1
	}
	if err := o.startSegment(next); err != nil {
		return err
	}
	o.setAsideLocked(segs, acked, latest)
	return o.dropAckedLocked()
}

// replaySegment reads one segment's good frames: acks into acked, records
// into latest (a record written again after a failed fsync or a damaged
// segment has a newer copy in a later segment, which wins).
func (o *Outbox) replaySegment(s *segment, acked map[uint64]bool, latest map[uint64]qentry) (scanned, error) {
	sc := scanned{s: s}
	st, err := s.f.Stat()
	if err != nil {
		return sc, fmt.Errorf("broadcast: outbox: %w", err)
	}
	sc.res, err = storage.Scan(s.f, st.Size(), frameKinds, func(off int64, body []byte) error {
		switch body[0] {
		case 'H':
			if len(body) == 9 && off == 0 {
				sc.base = binary.BigEndian.Uint64(body[1:])
			}
		case 'A':
			if (len(body)-1)%8 != 0 {
				return nil // a checksummed frame of the wrong shape: ignore it
			}
			for b := body[1:]; len(b) > 0; b = b[8:] {
				acked[binary.BigEndian.Uint64(b)] = true
			}
		case 'E', 'M':
			h, _, err := parseRecordBody(body)
			rec := h.OutboxEntry
			if err != nil || rec.Seq == 0 {
				return nil
			}
			latest[rec.Seq] = qentry{seq: rec.Seq, due: rec.Due, seg: s.id, off: off, n: int64(frameHeader + len(body)), kind: rec.Kind, class: classOf(rec.envelope)}
			sc.seqs = append(sc.seqs, rec.Seq)
		}
		return nil
	})
	return sc, err
}

// setAsideLocked moves every damaged segment out of the way: its pending
// records are written again into the newest segment (fsynced), then the
// file is renamed <n>.seg.damaged and no longer read. The unsent records
// whose frames the damage destroyed are counted as lost. When the rewrite
// fails the segment stays where it is (it is read again next time) and
// the failure is noted in the damage and the health.
func (o *Outbox) setAsideLocked(segs []scanned, acked map[uint64]bool, latest map[uint64]qentry) {
	for i, sc := range segs {
		if !sc.damaged {
			continue
		}
		d := JournalDamage{Path: sc.s.path, Bytes: sc.res.Tail}
		for _, r := range sc.res.Damaged {
			d.Bytes += r.Length
		}
		d.Err = fmt.Errorf("%w: %s", ErrCorruptJournal, sc.res)
		// Records lost: sequence numbers from the segment's first (its H
		// frame; else the previous segment's last record + 1; else its own
		// first good record) up to the next segment's first, that are
		// nowhere and never acked.
		lower := sc.base
		if lower == 0 && i > 0 && segs[i-1].s.id == sc.s.id-1 && len(segs[i-1].seqs) > 0 {
			lower = slices.Max(segs[i-1].seqs) + 1
		}
		if lower == 0 && len(sc.seqs) > 0 {
			lower = sc.seqs[0]
		}
		upper := o.nextSeq
		for _, next := range segs[i+1:] {
			if next.base > 0 {
				upper = next.base
				break
			}
			if len(next.seqs) > 0 {
				upper = next.seqs[0]
				break
			}
		}
		for seq := max(lower, 1); seq < upper; seq++ {
			if _, ok := latest[seq]; !ok && !acked[seq] {
				d.Lost++
			}
		}
		if err := o.moveLocked(sc.s.id); err != nil {
			d.Err = errors.Join(d.Err, err)
			o.health.Fail(time.Now(), err)
		} else {
			d.Aside = sc.s.path + ".damaged"
			o.fs.Rename(sc.s.path, d.Aside)
			o.fs.SyncDir(o.dir)
			o.removeSegLocked(sc.s.id)
		}
		o.damage = append(o.damage, d)
	}
}

// moveLocked writes the pending records of segment id again, at the end
// of the newest segment, fsynced, and points the queues at the copies.
func (o *Outbox) moveLocked(id uint64) error {
	return o.copyPendingLocked(func(e qentry) bool { return e.seg == id }, false)
}

// rewriteLocked answers a failed fsync: the pending records appended
// since the last good sync are written again into a new segment, which is
// fsynced; only then do they count as durable. Records that no longer
// read back are dropped and counted in Damage.
func (o *Outbox) rewriteLocked() error {
	synced := o.synced
	if err := o.copyPendingLocked(func(e qentry) bool { return e.seq > synced }, true); err != nil {
		o.health.Fail(time.Now(), err)
		return err
	}
	o.resync = false
	o.synced = o.nextSeq - 1
	o.health.OK()
	return o.dropAckedLocked()
}

// copyPendingLocked writes the frames of the pending records that match
// again (in a new segment when fresh), fsyncs them, and moves the queue
// entries to the copies. Nothing changes when it fails.
func (o *Outbox) copyPendingLocked(match func(qentry) bool, fresh bool) error {
	type move struct {
		c, i   int
		off, n int64
	}
	var moves []move
	var buf []byte
	lost := map[uint64]error{} // pending records that no longer read back
	for c := range o.queues {
		for i := o.heads[c]; i < len(o.queues[c]); i++ {
			e := o.queues[c][i]
			if !match(e) {
				continue
			}
			s := o.segByID(e.seg)
			if s == nil {
				continue
			}
			// Written whole (a delta's base stays behind).
			rec, err := o.readAt(s, e.off, e.n, 0)
			if err != nil {
				lost[e.seq] = err // its base was damaged
				continue
			}
			off := int64(len(buf))
			if buf, err = appendRecordFrame(buf, rec, nil, rec.Data); err != nil {
				continue
			}
			moves = append(moves, move{c: c, i: i, off: off, n: int64(len(buf)) - off})
		}
	}
	dst := o.segs[len(o.segs)-1]
	if fresh {
		if err := o.startSegment(dst.id + 1); err != nil {
			return err
		}
		dst = o.segs[len(o.segs)-1]
	}
	base := dst.size
	if len(buf) > 0 {
		if _, err := dst.f.WriteAt(buf, base); err != nil {
			dst.f.Truncate(base)
			return fmt.Errorf("broadcast: outbox write %s: %w", dst.path, err)
		}
	}
	if err := dst.f.Sync(); err != nil {
		return fmt.Errorf("broadcast: outbox sync %s: %w", dst.path, err)
	}
	dst.size = base + int64(len(buf))
	for _, m := range moves {
		e := &o.queues[m.c][m.i]
		if s := o.segByID(e.seg); s != nil {
			s.pending--
		}
		e.seg, e.off, e.n = dst.id, base+m.off, m.n
		dst.pending++
	}
	clear(o.written) // the next states are written whole
	o.dropLocked(lost)
	return nil
}

// dropLocked takes pending records that no longer read back out of the
// queues and counts them as lost.
func (o *Outbox) dropLocked(lost map[uint64]error) {
	if len(lost) == 0 {
		return
	}
	var errs []error
	for c := range o.queues {
		keep := o.queues[c][:o.heads[c]]
		for _, e := range o.queues[c][o.heads[c]:] {
			err, gone := lost[e.seq]
			if !gone {
				keep = append(keep, e)
				continue
			}
			if s := o.segByID(e.seg); s != nil {
				s.pending--
			}
			if len(errs) < 3 {
				errs = append(errs, err)
			}
		}
		o.queues[c] = keep
	}
	o.damage = append(o.damage, JournalDamage{Lost: len(lost), Err: errors.Join(errs...)})
}

func (o *Outbox) segByID(id uint64) *segment {
	for _, s := range o.segs {
		if s.id == id {
			return s
		}
	}
	return nil
}

// removeSegLocked closes segment id and forgets it (its file is gone or
// set aside).
func (o *Outbox) removeSegLocked(id uint64) {
	for i, s := range o.segs {
		if s.id == id {
			s.f.Close()
			o.segs = append(o.segs[:i], o.segs[i+1:]...)
			return
		}
	}
}

// startSegment creates segment id and makes it the newest. Its first
// frame, 'H' and the next sequence number, tells a later replay which
// records the segment was started for (to count what damage lost).
func (o *Outbox) startSegment(id uint64) error {
	s := &segment{id: id, path: o.segPath(id)}
	f, err := o.fs.OpenFile(s.path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return fmt.Errorf("broadcast: outbox: new segment: %w", err)
	}
	h := storage.AppendFrame(nil, binary.BigEndian.AppendUint64([]byte{'H'}, o.nextSeq))
	if _, err := f.WriteAt(h, 0); err != nil {
		f.Close()
		o.fs.Remove(s.path)
		return fmt.Errorf("broadcast: outbox: new segment %s: %w", s.path, err)
	}
	s.f, s.size = f, int64(len(h))
	o.segs = append(o.segs, s)
	if err := o.fs.SyncDir(o.dir); err != nil {
		o.health.Fail(time.Now(), fmt.Errorf("broadcast: outbox: sync %s: %w", o.dir, err))
	}
	return nil
}

// dropAckedLocked deletes fully acknowledged segments, oldest first, never
// the newest.
func (o *Outbox) dropAckedLocked() error {
	for len(o.segs) > 1 && o.segs[0].pending == 0 {
		s := o.segs[0]
		if err := o.fs.Remove(s.path); err != nil {
			return fmt.Errorf("broadcast: outbox: drop segment: %w", err)
		}
		s.f.Close()
		o.segs = o.segs[1:]
	}
	return nil
}
