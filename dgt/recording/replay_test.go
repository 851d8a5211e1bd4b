package recording

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

func enc(t *testing.T, vs ...interface{ AppendBinary([]byte) ([]byte, error) }) []byte {
	t.Helper()
	var b []byte
	for _, v := range vs {
		var err error
		if b, err = v.AppendBinary(b); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func TestReplayer(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	up := dgt.FieldUpdate{Field: 36, Piece: dgt.WhitePawn}
	dump := enc(t, dgt.BoardDump{})
	var log bytes.Buffer
	lw := NewLogWriter(&log)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	lw.Log(at(0), ToBoard, enc(t, dgt.CmdSendUpdateNice, dgt.CmdSendBoard))
	lw.Log(at(10), FromBoard, dump[:40])
	lw.Log(at(20), FromBoard, append(dump[40:], enc(t, up)[:2]...))
	lw.Log(at(30), FromBoard, append(enc(t, up)[2:], 0x11)) // a stray byte
	lw.Log(at(40), ToBoard, enc(t, dgt.CmdToBusMode, dgt.BusCommand{Cmd: dgt.BusCmdSendFromStart, Address: 1025}))
	lw.Log(at(50), FromBoard, enc(t, dgt.BusFromStart{Address: 1025, Data: "\x7b\x41\x24"}))
	lw.Log(at(60), ToBoard, []byte{0x42})
	lw.Log(at(70), FromBoard, dump[:10])
	lw.Flush()
	log.WriteString("garbage line\n")

	r, err := NewReader(&log, Auto)
	if err != nil {
		t.Fatal(err)
	}
	p := NewReplayer(r, dgt.SingleBoard)
	want := []struct {
		ms  int
		dir Dir
		v   any
	}{
		{0, ToBoard, dgt.CmdSendUpdateNice},
		{0, ToBoard, dgt.CmdSendBoard},
		{20, FromBoard, dgt.BoardDump{}},
		{30, FromBoard, up},
		{30, FromBoard, dgt.ErrGarbage},
		{40, ToBoard, dgt.CmdToBusMode},
		{40, ToBoard, dgt.BusCommand{Cmd: dgt.BusCmdSendFromStart, Address: 1025}},
		{50, FromBoard, dgt.BusFromStart{Address: 1025, Data: "\x7b\x41\x24"}},
		{60, ToBoard, dgt.CmdSendBoard},
		{0, 0, ErrTimestamp},
		{70, FromBoard, dgt.ErrTruncated},
	}
	for i, w := range want {
		it, err := p.Next()
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		var got any = it.Msg
		switch {
		case it.Err != nil:
			got = it.Err
		case it.Dir == ToBoard:
			got = it.Cmd
		}
		if e, ok := w.v.(error); ok {
			if !errors.Is(it.Err, e) {
				t.Fatalf("item %d: %v, want %v", i, got, e)
			}
		} else if got != w.v {
			t.Fatalf("item %d: %#v, want %#v", i, got, w.v)
		}
		if w.dir != 0 && (!it.At.Equal(at(w.ms)) || it.Dir != w.dir) {
			t.Fatalf("item %d at %v %v, want %v %v", i, it.At, it.Dir, at(w.ms), w.dir)
		}
	}
	for i := 0; i < 2; i++ {
		if _, err := p.Next(); err != io.EOF {
			t.Fatalf("end: %v", err)
		}
	}
	if p.Mode() != dgt.SingleBoard {
		t.Fatal("mode not back to single board")
	}
}

func TestReplayerBase64(t *testing.T) {
	in := "jgAFNAA=\njgAFJAE=\n"
	r, _ := NewReader(strings.NewReader(in), Auto)
	p := NewReplayer(r, dgt.SingleBoard)
	n := 0
	for {
		it, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil || it.Err != nil || it.Msg == nil || !it.At.IsZero() {
			t.Fatalf("%+v %v", it, err)
		}
		n++
	}
	if n != 2 {
		t.Fatalf("%d messages", n)
	}
}
