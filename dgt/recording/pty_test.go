package recording

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/pty"
)

// TestTapOverPTY records a real pseudo-terminal: the host side (the
// slave, what the daemon opens) is tapped; the board side (the master)
// answers a version request. The recording replays to the same traffic.
func TestTapOverPTY(t *testing.T) {
	master, path, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	slave, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	tap := NewTap(slave, NewLogWriter(&log), nil)
	defer tap.Close()

	if _, err := tap.Write([]byte{byte(dgt.CmdSendVersion)}); err != nil {
		t.Fatal(err)
	}
	req := make([]byte, 1)
	master.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(master, req); err != nil || req[0] != 0x4D {
		t.Fatalf("board got % x, %v", req, err)
	}
	reply, _ := dgt.Encode(dgt.Version{Major: 3, Minor: 10})
	if _, err := master.Write(reply); err != nil {
		t.Fatal(err)
	}
	r := dgt.NewReader(tap, dgt.SingleBoard)
	if m, err := r.ReadMessage(); err != nil || m != (dgt.Version{Major: 3, Minor: 10}) {
		t.Fatalf("host got %v, %v", m, err)
	}
	if err := tap.Flush(); err != nil {
		t.Fatal(err)
	}

	rr, _ := NewReader(bytes.NewReader(log.Bytes()), Auto)
	p := NewReplayer(rr, dgt.SingleBoard)
	var items []Item
	for {
		it, err := p.Next()
		if err == io.EOF {
			break
		}
		if err != nil || it.Err != nil {
			t.Fatalf("%v %v", err, it.Err)
		}
		items = append(items, it)
	}
	if len(items) != 2 || items[0].Cmd != dgt.CmdSendVersion || items[1].Msg != (dgt.Version{Major: 3, Minor: 10}) {
		t.Fatalf("replayed %+v", items)
	}
	if items[1].At.Before(items[0].At) || time.Since(items[0].At) > time.Minute {
		t.Fatalf("times %v, %v", items[0].At, items[1].At)
	}
}
