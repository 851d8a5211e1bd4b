package obp

// MaxLine is the longest line OBP/1 allows, in bytes, without its '\n'
// (and a '\r' before it); the checksum counts.
const MaxLine = 200

// Checksum returns the XOR of the bytes of b: the "HH" of a board line is
// the Checksum of every byte before its '*', in two hex digits.
func Checksum(b []byte) byte {
	var x byte
	for _, c := range b {
		x ^= c
	}
	return x
}

const upperHex = "0123456789ABCDEF"

// seal appends "*HH\n" to the line begun at dst[start:].
func seal(dst []byte, start int) []byte {
	x := Checksum(dst[start:])
	return append(dst, '*', upperHex[x>>4], upperHex[x&15], '\n')
}

// unhex returns the value of a hex digit of either case.
func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// printable reports whether every byte of b is printable ASCII.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// verify checks the length, the bytes and the "*HH" of a board line and
// returns its content before the '*'.
func verify(line []byte) ([]byte, error) {
	switch {
	case len(line) > MaxLine:
		return nil, &LineError{Line: clip(line), Err: ErrTooLong}
	case !printable(line):
		return nil, &LineError{Line: clip(line), Err: ErrNotPrintable}
	}
	n := len(line)
	if n < 3 || line[n-3] != '*' {
		return nil, &LineError{Line: clip(line), Err: ErrChecksum, Detail: "no *HH at the end"}
	}
	hi, ok1 := unhex(line[n-2])
	lo, ok2 := unhex(line[n-1])
	if !ok1 || !ok2 {
		return nil, &LineError{Line: clip(line), Err: ErrChecksum, Detail: "no *HH at the end"}
	}
	body := line[:n-3]
	if want := Checksum(body); hi<<4|lo != want {
		return nil, &LineError{Line: clip(line), Err: ErrChecksum, Detail: "computed " + string([]byte{upperHex[want>>4], upperHex[want&15]})}
	}
	return body, nil
}

// clip copies at most MaxLine bytes of b, for an error to keep.
func clip(b []byte) []byte {
	if len(b) > MaxLine {
		b = b[:MaxLine]
	}
	return append([]byte(nil), b...)
}
