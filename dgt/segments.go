package dgt

// segments maps characters to the XL clock's 7-segment bitmaps
// (0x01 top, 0x02 upper right, 0x04 lower right, 0x08 bottom, 0x10 lower
// left, 0x20 upper left, 0x40 middle) for [ClockDisplay]. Digits, a few
// letters that read unambiguously on seven segments, space and '-' are
// defined; other characters are 0 (blank).
var segments = [128]byte{
	' ': 0x00, '-': 0x40,
	'0': 0x3F, '1': 0x06, '2': 0x5B, '3': 0x4F, '4': 0x66,
	'5': 0x6D, '6': 0x7D, '7': 0x07, '8': 0x7F, '9': 0x6F,
	'A': 0x77, 'b': 0x7C, 'C': 0x39, 'c': 0x58, 'd': 0x5E, 'E': 0x79, 'F': 0x71,
	'H': 0x76, 'h': 0x74, 'L': 0x38, 'n': 0x54, 'o': 0x5C, 'P': 0x73, 'r': 0x50,
	't': 0x78, 'U': 0x3E, 'u': 0x1C, 'y': 0x6E,
}

// Segment returns the XL 7-segment bitmap of c (0, blank, for characters
// without one).
func Segment(c byte) byte {
	if c < 128 {
		return segments[c]
	}
	return 0
}

// XLText returns the six segment bitmaps of s (at most six characters,
// right-aligned like the display; longer text is cut) for
// [ClockDisplay].Chars.
func XLText(s string) [6]byte {
	var c [6]byte
	if len(s) > 6 {
		s = s[:6]
	}
	off := 6 - len(s)
	for i := 0; i < len(s); i++ {
		if s[i] < 128 {
			c[off+i] = segments[s[i]]
		}
	}
	return c
}
