package broadcast

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// A JSON delta says how to make one compact JSON object (as encoding/json
// writes it) from another: member by member, in the new object's order,
// each either copied from the base, the base's member with its middle
// replaced (a common prefix and suffix kept: an array that grew at its
// end, a string that grew before its last token), a nested object's own
// delta, or new. A game state that changed by one move so costs about the
// move (its UCI, SAN, FEN, clock and time used), whatever the game's
// length; the outbox writes such states as deltas (outbox.go).
//
// Encoding: 's' (the same bytes as the base), or 'o' and an object's ops:
// uvarint count, then per member one of
//
//	0 i                    copy member i of the base
//	1 i pre suf len bytes  member i's first pre and last suf bytes, bytes between
//	2 len bytes            a new member ("key":value)
//	3 i ops                member i's key, its value (an object) changed by ops
//
// all numbers uvarints.

// errDelta: a delta does not apply to its base (damage, or the wrong base).
var errDelta = errors.New("broadcast: delta does not apply to its base")

const (
	opCopy = iota
	opEdit
	opNew
	opNested
)

// jsonMembers splits a compact JSON object into its members ("key":value),
// in order. ok is false when b is not one compact object.
func jsonMembers(b []byte) (ms [][]byte, ok bool) {
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, false
	}
	if len(b) == 2 {
		return nil, true
	}
	ms = make([][]byte, 0, 32)
	depth, inStr, esc, start := 0, false, false, 1
	for i := 1; i < len(b)-1; i++ {
		c := b[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth < 0 {
				return nil, false
			}
		case ',':
			if depth == 0 {
				ms = append(ms, b[start:i])
				start = i + 1
			}
		case ' ', '\t', '\n', '\r':
			return nil, false
		}
	}
	if inStr || depth != 0 {
		return nil, false
	}
	ms = append(ms, b[start:len(b)-1])
	for _, m := range ms {
		if _, ok := memberKey(m); !ok {
			return nil, false
		}
	}
	return ms, true
}

// memberKey returns the length of a member's key with its colon
// (`"key":`).
func memberKey(m []byte) (int, bool) {
	if len(m) < 3 || m[0] != '"' {
		return 0, false
	}
	esc := false
	for i := 1; i < len(m); i++ {
		switch {
		case esc:
			esc = false
		case m[i] == '\\':
			esc = true
		case m[i] == '"':
			if i+1 < len(m) && m[i+1] == ':' {
				return i + 2, true
			}
			return 0, false
		}
	}
	return 0, false
}

// jsonDelta returns the delta that makes next from base; ok is false when
// either is not a compact JSON object.
func jsonDelta(base, next []byte) ([]byte, bool) {
	if bytes.Equal(base, next) {
		return []byte{'s'}, true
	}
	return objectDelta([]byte{'o'}, base, next)
}

// objectDelta appends the ops that make object next from object base.
func objectDelta(d, base, next []byte) ([]byte, bool) {
	bm, ok1 := jsonMembers(base)
	nm, ok2 := jsonMembers(next)
	if !ok1 || !ok2 {
		return d, false
	}
	var index map[string]int // built when the members are not in the same order
	find := func(j int, key []byte) (int, bool) {
		if j < len(bm) && bytes.HasPrefix(bm[j], key) {
			return j, true // the same place: the usual case
		}
		if index == nil {
			index = make(map[string]int, len(bm))
			for i, m := range bm {
				k, _ := memberKey(m)
				index[string(m[:k])] = i
			}
		}
		i, ok := index[string(key)]
		return i, ok
	}
	d = binary.AppendUvarint(d, uint64(len(nm)))
	for j, m := range nm {
		k, _ := memberKey(m)
		i, found := find(j, m[:k])
		if !found {
			d = append(d, opNew)
			d = binary.AppendUvarint(d, uint64(len(m)))
			d = append(d, m...)
			continue
		}
		b := bm[i]
		if bytes.Equal(b, m) {
			d = append(d, opCopy)
			d = binary.AppendUvarint(d, uint64(i))
			continue
		}
		edit := editOp(nil, i, b, m)
		if bv, nv := b[k:], m[k:]; len(bv) > 0 && bv[0] == '{' && len(nv) > 0 && nv[0] == '{' {
			nested := binary.AppendUvarint([]byte{opNested}, uint64(i))
			if nested, ok := objectDelta(nested, bv, nv); ok && len(nested) < len(edit) {
				edit = nested
			}
		}
		d = append(d, edit...)
	}
	return d, true
}

// editOp appends op 1: member i of the base (b) made into m by replacing
// what lies between their common prefix and suffix.
func editOp(d []byte, i int, b, m []byte) []byte {
	pre := 0
	for pre < len(b) && pre < len(m) && b[pre] == m[pre] {
		pre++
	}
	suf := 0
	for suf < len(b)-pre && suf < len(m)-pre && b[len(b)-1-suf] == m[len(m)-1-suf] {
		suf++
	}
	mid := m[pre : len(m)-suf]
	d = append(d, opEdit)
	d = binary.AppendUvarint(d, uint64(i))
	d = binary.AppendUvarint(d, uint64(pre))
	d = binary.AppendUvarint(d, uint64(suf))
	d = binary.AppendUvarint(d, uint64(len(mid)))
	return append(d, mid...)
}

// applyJSONDelta makes the object a delta describes from its base.
func applyJSONDelta(base, d []byte) ([]byte, error) {
	if len(d) == 1 && d[0] == 's' {
		return base, nil
	}
	if len(d) == 0 || d[0] != 'o' {
		return nil, errDelta
	}
	out, rest, err := applyObject(make([]byte, 0, len(base)+len(d)), base, d[1:])
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, errDelta
	}
	return out, nil
}

// applyObject appends to out the object that ops (at the start of d) make
// from base, and returns what follows the ops in d.
func applyObject(out, base, d []byte) ([]byte, []byte, error) {
	bm, ok := jsonMembers(base)
	if !ok {
		return nil, nil, errDelta
	}
	n, d, err := uvarint(d)
	if err != nil || n > uint64(len(d)) {
		return nil, nil, errDelta
	}
	member := func(i uint64) ([]byte, error) {
		if i >= uint64(len(bm)) {
			return nil, errDelta
		}
		return bm[i], nil
	}
	out = append(out, '{')
	for j := range n {
		if j > 0 {
			out = append(out, ',')
		}
		if len(d) == 0 {
			return nil, nil, errDelta
		}
		op := d[0]
		d = d[1:]
		switch op {
		case opCopy, opEdit, opNested:
			var i uint64
			if i, d, err = uvarint(d); err != nil {
				return nil, nil, err
			}
			b, err := member(i)
			if err != nil {
				return nil, nil, err
			}
			switch op {
			case opCopy:
				out = append(out, b...)
			case opEdit:
				var pre, suf, l uint64
				if pre, d, err = uvarint(d); err == nil {
					if suf, d, err = uvarint(d); err == nil {
						l, d, err = uvarint(d)
					}
				}
				if err != nil || pre+suf > uint64(len(b)) || l > uint64(len(d)) {
					return nil, nil, errDelta
				}
				out = append(out, b[:pre]...)
				out = append(out, d[:l]...)
				out = append(out, b[uint64(len(b))-suf:]...)
				d = d[l:]
			case opNested:
				k, _ := memberKey(b)
				out = append(out, b[:k]...)
				if out, d, err = applyObject(out, b[k:], d); err != nil {
					return nil, nil, err
				}
			}
		case opNew:
			var l uint64
			if l, d, err = uvarint(d); err != nil || l > uint64(len(d)) {
				return nil, nil, errDelta
			}
			out = append(out, d[:l]...)
			d = d[l:]
		default:
			return nil, nil, errDelta
		}
	}
	return append(out, '}'), d, nil
}

func uvarint(d []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(d)
	if n <= 0 {
		return 0, nil, errDelta
	}
	return v, d[n:], nil
}
