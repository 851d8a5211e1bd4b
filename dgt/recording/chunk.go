package recording

import (
	"errors"
	"fmt"
	"time"
)

// Dir is the direction of a chunk: the hexlog's direction character.
type Dir byte

// Directions.
const (
	FromBoard Dir = '<' // board → host
	ToBoard   Dir = '>' // host → board
)

// String returns "<" or ">".
func (d Dir) String() string { return string(rune(d)) }

// Chunk is one piece of recorded traffic: what one Read returned or one
// Write sent (hexlog), one line (base64), or one read of a raw file.
type Chunk struct {
	At    time.Time // zero when the format has no timestamps (raw, base64)
	Dir   Dir
	Bytes []byte // owned by the receiver
}

// Format is a recording format.
type Format uint8

// Formats. Auto detects hexlog, base64 or raw from the first bytes.
const (
	Auto Format = iota
	Hexlog
	Raw
	Base64
)

var formatNames = [...]string{"auto", "hexlog", "raw", "base64"}

// String returns the name used by `dgtbridge replay --format`.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ErrUnknownFormat: a format name or value that is not one of the four.
var ErrUnknownFormat = errors.New("record: unknown format")

// ParseFormat parses "auto", "hexlog", "raw" or "base64".
func ParseFormat(name string) (Format, error) {
	for i, n := range formatNames {
		if n == name {
			return Format(i), nil
		}
	}
	return Auto, fmt.Errorf("%w %q (want auto, hexlog, raw or base64)", ErrUnknownFormat, name)
}
