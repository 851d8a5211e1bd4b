package storage

import (
	"bytes"
	"fmt"
	"testing"
)

// frames returns frames of bodies "E0", "E1", … and each frame's offset.
func frames(n int) ([]byte, []int64) {
	var b []byte
	var offs []int64
	for i := range n {
		offs = append(offs, int64(len(b)))
		b = AppendFrame(b, []byte(fmt.Sprintf("E%d-%s", i, bytes.Repeat([]byte{'x'}, i))))
	}
	return b, offs
}

func scanAll(t *testing.T, b []byte) ([]string, ScanResult) {
	t.Helper()
	var got []string
	res, err := Scan(bytes.NewReader(b), int64(len(b)), "E", func(off int64, body []byte) error {
		got = append(got, string(body[:2]))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, res
}

// TestScan: a clean file reads whole; a flipped byte costs the frame it is
// in and nothing after it (the scan finds the next good frame); a torn
// tail is reported as Tail, not as damage; bodies of a kind not asked for
// are not frames.
func TestScan(t *testing.T) {
	b, offs := frames(6)
	got, res := scanAll(t, b)
	if fmt.Sprint(got) != "[E0 E1 E2 E3 E4 E5]" || res.End != int64(len(b)) || len(res.Damaged) != 0 || res.Tail != 0 {
		t.Fatalf("clean: %v %+v", got, res)
	}
	bad := bytes.Clone(b)
	bad[offs[2]+FrameHeader+1] ^= 0x10
	got, res = scanAll(t, bad)
	if fmt.Sprint(got) != "[E0 E1 E3 E4 E5]" || len(res.Damaged) != 1 || res.Damaged[0].Offset != offs[2] ||
		res.Damaged[0].Length != offs[3]-offs[2] || res.Tail != 0 {
		t.Fatalf("flipped byte in frame 2: %v %+v", got, res)
	}
	bad = bytes.Clone(b)
	bad[offs[1]] = 0xff // frame 1's length: far too long
	got, res = scanAll(t, bad)
	if fmt.Sprint(got) != "[E0 E2 E3 E4 E5]" || len(res.Damaged) != 1 {
		t.Fatalf("bad length in frame 1: %v %+v", got, res)
	}
	got, res = scanAll(t, b[:len(b)-3])
	if fmt.Sprint(got) != "[E0 E1 E2 E3 E4]" || len(res.Damaged) != 0 || res.End != offs[5] || res.Tail != int64(len(b)-3)-offs[5] {
		t.Fatalf("torn tail: %v %+v", got, res)
	}
	var kinds []string
	Scan(bytes.NewReader(b), int64(len(b)), "A", func(int64, []byte) error { kinds = append(kinds, "?"); return nil })
	if len(kinds) != 0 {
		t.Errorf("frames of another kind were read: %v", kinds)
	}
}
