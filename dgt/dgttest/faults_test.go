package dgttest

import (
	"bytes"
	"io"
	"testing"
)

// rwc is an in-memory port: reads come from r, writes go to w.
type rwc struct {
	r io.Reader
	w bytes.Buffer
}

func (p *rwc) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *rwc) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p *rwc) Close() error                { return nil }

// TestFaultyPort: faults are injected at about the configured rates, each
// one changes the stream as its kind says (no byte lost by a small read
// buffer), Pick hits exact offsets, writes are garbled only when asked.
func TestFaultyPort(t *testing.T) {
	src := bytes.Repeat([]byte{0x8E, 0x00, 0x05, 0x24, 0x01}, 20000)
	p := NewFaultyPort(&rwc{r: bytes.NewReader(src)}, Faults{Seed: 3, Corrupt: 0.01, Drop: 0.01, Duplicate: 0.01})
	var out []byte
	buf := make([]byte, 7)
	for {
		n, err := p.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			break
		}
	}
	c, d, u := p.Injected(Corrupt), p.Injected(Drop), p.Injected(Duplicate)
	for _, n := range []int{c, d, u} {
		if n < 800 || n > 1200 {
			t.Fatalf("faults %d/%d/%d in 100,000 bytes at rate 1%% each", c, d, u)
		}
	}
	if len(out) != len(src)-d+u {
		t.Fatalf("%d bytes out of %d with %d dropped and %d duplicated", len(out), len(src), d, u)
	}
	p = NewFaultyPort(&rwc{r: bytes.NewReader([]byte{1, 2, 3, 4, 5})}, Faults{Pick: func(off int64, _ byte) Fault {
		return map[int64]Fault{1: Drop, 3: Duplicate}[off]
	}})
	got, _ := io.ReadAll(p)
	if !bytes.Equal(got, []byte{1, 3, 4, 4, 5}) {
		t.Fatalf("picked faults gave % x", got)
	}
	port := &rwc{r: bytes.NewReader(nil)}
	p = NewFaultyPort(port, Faults{Drop: 1})
	if n, err := p.Write([]byte{1, 2, 3}); n != 3 || err != nil || port.w.Len() != 3 {
		t.Fatalf("write without Writes: %d %v, port got %d bytes", n, err, port.w.Len())
	}
	p = NewFaultyPort(port, Faults{Drop: 1, Writes: true})
	if n, _ := p.Write([]byte{1, 2, 3}); n != 3 || port.w.Len() != 3 {
		t.Fatalf("write with Writes and Drop 1: %d, port got %d bytes", n, port.w.Len())
	}
}
