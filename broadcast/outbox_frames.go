package broadcast

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/dgtbridge/dgtbridge/broadcast/storage"
)

// An outbox record is written as an 'M' frame:
//
//	'M' | uvarint length of the header | header | data
//
// The header is the [OutboxEntry]'s JSON without its data, and, for a delta,
// the base it applies to ("b": the base record's sequence number, and the
// offset and length of its frame, always in the same segment). The data
// is the message's bytes as they are sent (no base64), or a JSON delta
// (jsondelta.go) that makes them from the base's. Two kinds of records are
// written as deltas: a game state (a KV put, or the public copy of one) is
// a delta from the previous state of the same subject in the same segment
// until the deltas since the last whole state add up to its size (so a
// state that changed by one move costs at most about twice the move,
// whatever the game's length, and reading one back cold costs at most
// about twice the state); and a public copy is "the
// same as" the live message journalled just before it. Records of older
// versions, 'E' frames (the JSON OutboxEntry, data in base64), are still read.

// maxChain bounds the deltas after a whole state (and the frames read to
// read one back cold, after a restart).
const maxChain = 256

// recHeader is an 'M' frame's header.
type recHeader struct {
	OutboxEntry
	Base *baseRef `json:"b,omitempty"`
}

// baseRef locates a delta's base in the delta's own segment.
type baseRef struct {
	Seq uint64 `json:"n"`
	Off int64  `json:"o"`
	Len int64  `json:"l"`
}

// sameData is the delta of a record whose data are its base's.
var sameData = []byte{'s'}

// appendRecordFrame appends rec as an 'M' frame: its data (base nil), or
// the delta payload from base.
func appendRecordFrame(b []byte, rec OutboxEntry, base *baseRef, payload []byte) ([]byte, error) {
	rec.Data = nil
	hdr, err := json.Marshal(recHeader{OutboxEntry: rec, Base: base})
	if err != nil {
		return b, fmt.Errorf("broadcast: outbox encode: %w", err)
	}
	body := make([]byte, 0, 1+binary.MaxVarintLen32+len(hdr)+len(payload))
	body = append(body, 'M')
	body = binary.AppendUvarint(body, uint64(len(hdr)))
	body = append(body, hdr...)
	body = append(body, payload...)
	if len(body) > storage.MaxFrame {
		return b, fmt.Errorf("%w: %s is %d bytes", ErrTooLarge, rec.Subject, len(body))
	}
	return storage.AppendFrame(b, body), nil
}

// parseRecordBody reads a record frame's body ('E' or 'M'): its header
// and its data or delta (Base set).
func parseRecordBody(body []byte) (recHeader, []byte, error) {
	var h recHeader
	if len(body) < 2 {
		return h, nil, ErrCorruptJournal
	}
	switch body[0] {
	case 'E':
		if err := json.Unmarshal(body[1:], &h.OutboxEntry); err != nil {
			return h, nil, fmt.Errorf("%w: %v", ErrCorruptJournal, err)
		}
		return h, h.Data, nil
	case 'M':
		n, k := binary.Uvarint(body[1:])
		if k <= 0 || n > uint64(len(body)-1-k) {
			return h, nil, ErrCorruptJournal
		}
		hdr := body[1+k : 1+k+int(n)]
		if err := json.Unmarshal(hdr, &h); err != nil {
			return h, nil, fmt.Errorf("%w: %v", ErrCorruptJournal, err)
		}
		return h, body[1+k+int(n):], nil
	}
	return h, nil, ErrCorruptJournal
}

// stateWritten is the last state record written of a subject: the base of
// the next one's delta.
type stateWritten struct {
	seq, seg uint64
	off, n   int64
	chain    int // deltas since the last whole state
	deltas   int // their bytes
	whole    int // the last whole state's bytes
	data     []byte
}

// stateRead is a state record read back (the base of the next one read).
type stateRead struct {
	seq  uint64
	data []byte
}

// encodeLocked appends the frame of record rec (envelope i of a batch
// whose earlier records are entries, written from offset off of segment
// s): a delta where one is worth it (see above), else whole.
func (o *Outbox) encodeLocked(b []byte, rec OutboxEntry, s *segment, batch []OutboxEntry, entries []qentry) ([]byte, stateWritten, error) {
	w := stateWritten{whole: len(rec.Data), data: rec.Data}
	var base *baseRef
	payload := rec.Data
	i := len(entries)
	switch {
	case rec.Kind == kindState:
		if l, ok := o.written[rec.Subject]; ok && l.seg == s.id && l.chain < maxChain && !o.resync {
			if d, ok := o.delta(l.data, rec.Data); ok && l.deltas+len(d) <= l.whole {
				base, payload = &baseRef{Seq: l.seq, Off: l.off, Len: l.n}, d
				w.chain, w.deltas, w.whole = l.chain+1, l.deltas+len(d), l.whole
			}
		}
	case rec.Public && i > 0 && bytes.Equal(batch[i-1].Data, rec.Data) && !o.resync:
		p := entries[i-1]
		base, payload = &baseRef{Seq: p.seq, Off: p.off, Len: p.n}, sameData
	}
	b, err := appendRecordFrame(b, rec, base, payload)
	return b, w, err
}

// delta returns jsonDelta(base, next), computed once for a state and its
// public copy (the same bytes from the same base).
func (o *Outbox) delta(base, next []byte) ([]byte, bool) {
	if c := o.lastDelta; len(base) > 0 && len(next) > 0 && len(c.base) == len(base) && len(c.next) == len(next) &&
		&c.base[0] == &base[0] && &c.next[0] == &next[0] {
		return c.d, c.ok
	}
	d, ok := jsonDelta(base, next)
	o.lastDelta = lastDelta{base: base, next: next, d: d, ok: ok}
	return d, ok
}

// lastDelta is the last delta computed (Outbox.delta).
type lastDelta struct {
	base, next, d []byte
	ok            bool
}

// readAt reads the record whose frame is at off (n bytes) in segment s,
// its data rebuilt from its base when it is a delta.
func (o *Outbox) readAt(s *segment, off, n int64, depth int) (OutboxEntry, error) {
	corrupt := func(err error) (OutboxEntry, error) {
		return OutboxEntry{}, &JournalError{Path: s.path, Offset: off, Err: err}
	}
	if off < 0 || n <= frameHeader || n > frameHeader+storage.MaxFrame {
		return corrupt(ErrCorruptJournal)
	}
	b := make([]byte, n)
	if _, err := s.f.ReadAt(b, off); err != nil {
		return corrupt(err)
	}
	body, ok := storage.CheckFrame(b)
	if !ok {
		return corrupt(ErrCorruptJournal)
	}
	h, payload, err := parseRecordBody(body)
	if err != nil {
		return corrupt(err)
	}
	rec := h.OutboxEntry
	if h.Base == nil {
		rec.Data = payload
		o.remember(rec)
		return rec, nil
	}
	if depth > maxChain || h.Base.Off >= off {
		return corrupt(fmt.Errorf("%w: a delta's base is not before it", ErrCorruptJournal))
	}
	base, ok := o.recall(rec.Subject, h.Base.Seq)
	if !ok {
		br, err := o.readAt(s, h.Base.Off, h.Base.Len, depth+1)
		if err != nil {
			return OutboxEntry{}, err
		}
		if br.Seq != h.Base.Seq {
			return corrupt(fmt.Errorf("%w: a delta's base is record %d, not %d", ErrCorruptJournal, br.Seq, h.Base.Seq))
		}
		base = br.Data
	}
	if rec.Data, err = applyJSONDelta(base, payload); err != nil {
		return corrupt(fmt.Errorf("%w: %v", ErrCorruptJournal, err))
	}
	o.remember(rec)
	return rec, nil
}

// remember keeps a state read back (the last two of each subject: a
// record may be read twice, by DueStates then NextBatch), the base of the
// next one's delta.
func (o *Outbox) remember(rec OutboxEntry) {
	if rec.Kind != kindState {
		return
	}
	r := o.read[rec.Subject]
	if r[1].seq == rec.Seq {
		return
	}
	o.read[rec.Subject] = [2]stateRead{r[1], {seq: rec.Seq, data: rec.Data}}
}

// recall returns the data of state seq of subject, if it was read last.
func (o *Outbox) recall(subject string, seq uint64) ([]byte, bool) {
	for _, r := range o.read[subject] {
		if r.seq == seq && r.data != nil {
			return r.data, true
		}
	}
	return nil, false
}
