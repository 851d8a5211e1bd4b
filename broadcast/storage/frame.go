package storage

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
)

// FrameHeader is the size of a frame's header: length and checksum.
const FrameHeader = 8

// MaxFrame bounds a frame's body; a longer length is damage.
const MaxFrame = 16 << 20

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// AppendFrame appends body, framed, to b.
func AppendFrame(b, body []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(body)))
	b = binary.BigEndian.AppendUint32(b, crc32.Checksum(body, crcTable))
	return append(b, body...)
}

// CheckFrame returns the body of the frame at the start of b, if b starts
// with a whole frame whose checksum matches.
func CheckFrame(b []byte) (body []byte, ok bool) {
	if len(b) < FrameHeader {
		return nil, false
	}
	n := binary.BigEndian.Uint32(b)
	if n == 0 || n > MaxFrame || uint64(len(b)-FrameHeader) < uint64(n) {
		return nil, false
	}
	body = b[FrameHeader : FrameHeader+int(n)]
	if crc32.Checksum(body, crcTable) != binary.BigEndian.Uint32(b[4:]) {
		return nil, false
	}
	return body, true
}

// Damage is a stretch of a file that holds no good frame.
type Damage struct {
	Offset, Length int64
}

// ScanResult is what [Scan] found.
type ScanResult struct {
	// End is where the last good frame ends: appends continue there.
	End int64
	// Damaged are the stretches between good frames that are not frames
	// (a flipped byte, a zeroed block), in file order.
	Damaged []Damage
	// Tail is how many bytes after End are not a whole good frame: a
	// write cut short by a crash (normal after a power loss) or, if
	// Damaged is not empty, more damage.
	Tail int64
}

// ErrStop, returned by a Scan callback, ends the scan without error.
var ErrStop = errors.New("storage: stop scan")

// Scan reads the frames of r (size bytes) in order and calls fn with each
// good frame's offset and body (valid only during the call). A good frame's
// body starts with one of the bytes of kinds (the journal's frame kinds)
// and matches its checksum. Past bytes that are not a good frame Scan
// searches for the next good one, so damage in the middle costs only the
// frames it touches. An error from fn other than [ErrStop] ends the scan
// and is returned.
func Scan(r io.ReaderAt, size int64, kinds string, fn func(off int64, body []byte) error) (ScanResult, error) {
	var res ScanResult
	br := bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 256<<10)
	var (
		buf      []byte // bytes read from off on, not yet consumed
		off      int64  // file offset of buf[0]
		eof      bool
		badStart int64 = -1
	)
	fill := func(n int) {
		for len(buf) < n && !eof {
			chunk := make([]byte, max(n-len(buf), 64<<10))
			m, err := io.ReadFull(br, chunk)
			buf = append(buf, chunk[:m]...)
			if err != nil {
				eof = true
			}
		}
	}
	for {
		fill(FrameHeader)
		if len(buf) < FrameHeader {
			break
		}
		n := int64(binary.BigEndian.Uint32(buf))
		ok := n > 0 && n <= MaxFrame && off+FrameHeader+n <= size
		if ok {
			fill(FrameHeader + 1)
			ok = len(buf) > FrameHeader && strings.IndexByte(kinds, buf[FrameHeader]) >= 0
		}
		var body []byte
		if ok {
			fill(FrameHeader + int(n))
			body, ok = CheckFrame(buf)
		}
		if !ok {
			if badStart < 0 {
				badStart = off
			}
			buf = buf[1:]
			off++
			continue
		}
		if badStart >= 0 {
			res.Damaged = append(res.Damaged, Damage{Offset: badStart, Length: off - badStart})
			badStart = -1
		}
		if err := fn(off, body); err != nil {
			if errors.Is(err, ErrStop) {
				res.End = off + FrameHeader + int64(len(body))
				return res, nil
			}
			return res, err
		}
		adv := FrameHeader + len(body)
		buf = buf[adv:]
		off += int64(adv)
		res.End = off
	}
	res.Tail = size - res.End
	return res, nil
}

// String describes the damage found, for a log line.
func (r ScanResult) String() string {
	s := fmt.Sprintf("%d bytes of frames", r.End)
	for _, d := range r.Damaged {
		s += fmt.Sprintf(", %d damaged bytes at %d", d.Length, d.Offset)
	}
	if r.Tail > 0 {
		s += fmt.Sprintf(", %d bytes after the last good frame", r.Tail)
	}
	return s
}
