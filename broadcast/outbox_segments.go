package broadcast

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

func (o *Outbox) segPath(id uint64) string {
	return filepath.Join(o.dir, fmt.Sprintf("%016d%s", id, segExt))
}

func (o *Outbox) replay() error {
	names, err := os.ReadDir(o.dir)
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
	var all []qentry
	for _, id := range ids {
		s := &segment{id: id, path: o.segPath(id)}
		o.segs = append(o.segs, s)
		if s.f, err = os.OpenFile(s.path, os.O_RDWR, 0o640); err != nil {
			return fmt.Errorf("broadcast: outbox: %w", err)
		}
		if err := o.replaySegment(s, acked, &all); err != nil {
			return err
		}
	}
	for _, e := range all {
		if acked[e.seq] {
			continue
		}
		o.queues[e.class] = append(o.queues[e.class], e)
		o.segByID(e.seg).pending++
		if e.due > o.lastDue[e.class] {
			o.lastDue[e.class] = e.due
		}
	}
	o.synced = o.nextSeq - 1
	var next uint64 = 1
	if len(ids) > 0 {
		next = ids[len(ids)-1] + 1
	}
	if err := o.startSegment(next); err != nil {
		return err
	}
	return o.dropAckedLocked()
}

func (o *Outbox) replaySegment(s *segment, acked map[uint64]bool, all *[]qentry) error {
	st, err := s.f.Stat()
	if err != nil {
		return err
	}
	fileSize := st.Size()
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, fileSize), 64<<10)
	var off int64
	hdr := make([]byte, frameHeader)
	bad := func(err error) error {
		if err == nil {
			err = ErrCorruptJournal
		} else {
			err = fmt.Errorf("%w: %v", ErrCorruptJournal, err)
		}
		return &JournalError{Path: s.path, Offset: off, Err: err}
	}
	for off < fileSize {
		if _, err := io.ReadFull(r, hdr); err != nil {
			break // torn header at the tail
		}
		n := int64(binary.BigEndian.Uint32(hdr))
		sum := binary.BigEndian.Uint32(hdr[4:])
		if n == 0 || n > maxFrame {
			return bad(nil)
		}
		if off+frameHeader+n > fileSize {
			break // torn body at the tail
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			break
		}
		if crc32.Checksum(body, crcTable) != sum {
			if off+frameHeader+n == fileSize {
				break // the last frame was torn
			}
			return bad(nil)
		}
		switch body[0] {
		case 'A':
			if len(body) < 9 || (len(body)-1)%8 != 0 {
				return bad(nil)
			}
			for b := body[1:]; len(b) > 0; b = b[8:] {
				acked[binary.BigEndian.Uint64(b)] = true
			}
		case 'E':
			var rec Record
			if err := json.Unmarshal(body[1:], &rec); err != nil {
				return bad(err)
			}
			*all = append(*all, qentry{seq: rec.Seq, due: rec.Due, seg: s.id, off: off, n: frameHeader + n, kind: rec.Kind, class: classOf(rec.envelope)})
			if rec.Seq >= o.nextSeq {
				o.nextSeq = rec.Seq + 1
			}
		default:
			return bad(nil)
		}
		off += frameHeader + n
	}
	if off < fileSize {
		if err := s.f.Truncate(off); err != nil {
			return fmt.Errorf("broadcast: outbox: cut torn tail of %s: %w", s.path, err)
		}
	}
	s.size = off
	return nil
}

func (o *Outbox) segByID(id uint64) *segment {
	for _, s := range o.segs {
		if s.id == id {
			return s
		}
	}
	return nil
}

func (o *Outbox) startSegment(id uint64) error {
	s := &segment{id: id, path: o.segPath(id)}
	f, err := os.OpenFile(s.path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return fmt.Errorf("broadcast: outbox: new segment: %w", err)
	}
	s.f = f
	o.segs = append(o.segs, s)
	syncDir(o.dir)
	return nil
}

// dropAckedLocked deletes fully acknowledged segments, oldest first, never
// the newest.
func (o *Outbox) dropAckedLocked() error {
	for len(o.segs) > 1 && o.segs[0].pending == 0 {
		s := o.segs[0]
		s.f.Close()
		if err := os.Remove(s.path); err != nil {
			return fmt.Errorf("broadcast: outbox: drop segment: %w", err)
		}
		o.segs = o.segs[1:]
	}
	return nil
}
