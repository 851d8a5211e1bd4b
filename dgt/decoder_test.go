package dgt

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

var (
	e4      = []byte{0x8E, 0, 5, 0x24, 1}
	e4Msg   = FieldUpdate{Field: 36, Piece: WhitePawn}
	pingBus = []byte{0x87, 0, 6, 8, 1, 0x16}
)

// drain feeds b in one go and returns all messages and frame errors.
func drain(t *testing.T, m Mode, b []byte) ([]Message, []*FrameError) {
	t.Helper()
	d := NewDecoder(m)
	d.Feed(b)
	var msgs []Message
	var errs []*FrameError
	for i := 0; ; i++ {
		if i > len(b)+1 {
			t.Fatal("decoder does not make progress")
		}
		msg, err := d.Next()
		if errors.Is(err, ErrNeedMore) {
			break
		}
		var fe *FrameError
		switch {
		case errors.As(err, &fe):
			errs = append(errs, fe)
		case err != nil:
			t.Fatalf("error %v is not a *FrameError", err)
		default:
			msgs = append(msgs, msg)
		}
	}
	if f := d.Flush(); f != nil {
		var fe *FrameError
		if !errors.As(f, &fe) {
			t.Fatalf("flush: %v", f)
		}
		errs = append(errs, fe)
	}
	return msgs, errs
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func TestDecoderResync(t *testing.T) {
	tests := []struct {
		name    string
		mode    Mode
		in      []byte
		reasons []error
		offsets []int64
		want    int // messages decoded (each is e4 or the bus ping)
	}{
		{"clean", SingleBoard, cat(e4, e4), nil, nil, 2},
		{"garbage first", SingleBoard, cat([]byte{1, 2, 3}, e4), []error{ErrGarbage}, []int64{0}, 1},
		{"garbage between", SingleBoard, cat(e4, []byte{0x7F}, e4), []error{ErrGarbage}, []int64{5}, 2},
		{"unknown id and its data", SingleBoard, cat([]byte{0xC3, 0, 7, 1, 2, 3, 4}, e4), []error{ErrUnknownMessage}, []int64{0}, 1},
		{"bad length", SingleBoard, cat([]byte{0x8E, 0, 6, 0x24, 1, 0}, e4), []error{ErrLength}, []int64{0}, 1},
		{"cut by header", SingleBoard, cat([]byte{0x86, 0, 0x43, 8, 9}, e4), []error{ErrTruncated}, []int64{0}, 1},
		{"header in length", SingleBoard, cat([]byte{0x8E, 0}, e4), []error{ErrTruncated}, []int64{0}, 1},
		{"bad field", SingleBoard, cat([]byte{0x8E, 0, 5, 64, 1}, e4), []error{ErrInvalid}, []int64{0}, 1},
		{"bad BCD", SingleBoard, cat([]byte{0x8D, 0, 10, 0, 0x0B, 0, 0, 0, 0, 0}, e4), []error{ErrInvalid}, []int64{0}, 1},
		{"bad BCD without a clock is no error", SingleBoard, cat([]byte{0x8D, 0, 10, 0, 0x0B, 0, 0, 0, 0, 0x20}, e4), nil, nil, 2},
		{"truncated at end", SingleBoard, cat(e4, e4[:4]), []error{ErrTruncated}, []int64{5}, 1},
		{"bus ok", Bus, pingBus, nil, nil, 1},
		{"bus checksum", Bus, cat([]byte{0x87, 0, 6, 8, 1, 0x17}, pingBus), []error{ErrChecksum}, []int64{0}, 1},
		{"single id in bus mode", Bus, cat(e4, pingBus), []error{ErrUnknownMessage}, []int64{0}, 1},
		{"everything", SingleBoard, cat([]byte{0, 0}, []byte{0xFF, 1}, e4, []byte{0x8E, 0x81}, e4, []byte{0x8E, 0, 5, 0x40, 1}, e4),
			[]error{ErrGarbage, ErrUnknownMessage, ErrTruncated, ErrUnknownMessage, ErrInvalid}, []int64{0, 2, 9, 10, 16}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs, errs := drain(t, tt.mode, tt.in)
			if len(msgs) != tt.want {
				t.Fatalf("%d messages %v, want %d; errors %v", len(msgs), msgs, tt.want, errs)
			}
			for _, m := range msgs {
				if m != e4Msg && m != (BusPing{Address: 1025}) && m != (ClockTimes{Status: 0x20}) {
					t.Fatalf("unexpected message %#v", m)
				}
			}
			if len(errs) != len(tt.reasons) {
				t.Fatalf("errors %v, want %v", errs, tt.reasons)
			}
			for i, e := range errs {
				if !errors.Is(e, tt.reasons[i]) || e.Offset != tt.offsets[i] || e.Skipped < 1 || e.Error() == "" {
					t.Fatalf("error %d: %v (offset %d, skipped %d), want %v at %d", i, e, e.Offset, e.Skipped, tt.reasons[i], tt.offsets[i])
				}
			}
		})
	}
}

func TestDecoderModeSwitch(t *testing.T) {
	d := NewDecoder(SingleBoard)
	d.Feed(cat(e4, pingBus))
	if m, err := d.Next(); err != nil || m != e4Msg {
		t.Fatalf("%v %v", m, err)
	}
	d.SetMode(Bus)
	if m, err := d.Next(); err != nil || m != (BusPing{Address: 1025}) {
		t.Fatalf("%v %v", m, err)
	}
	d.Reset()
	if d.Offset() != 0 || d.Buffered() != 0 {
		t.Fatal("reset")
	}
}

func TestNextFrameAliasesNoAlloc(t *testing.T) {
	d := NewDecoder(SingleBoard)
	d.Feed(cat(e4, e4))
	f, err := d.NextFrame()
	if err != nil || f.ID != 0x8E || f.Offset != 0 || f.Len != 5 || !bytes.Equal(f.Data, []byte{0x24, 1}) {
		t.Fatalf("%+v %v", f, err)
	}
	if u, err := DecodeFieldUpdate(f.Data); err != nil || u != e4Msg {
		t.Fatalf("%v %v", u, err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		d.Feed(e4)
		f, _ := d.NextFrame()
		_, _ = DecodeFieldUpdate(f.Data)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per field update", allocs)
	}
	allocs = testing.AllocsPerRun(100, func() {
		d.Feed(e4)
		_, _ = d.Next()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per field update through Next", allocs)
	}
}

// chunkReader returns its data in the given chunk sizes, then err.
type chunkReader struct {
	data   []byte
	chunks []int
	err    error
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := len(r.data)
	if len(r.chunks) > 0 {
		n, r.chunks = min(r.chunks[0], n), r.chunks[1:]
	}
	n = copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

func TestReader(t *testing.T) {
	boom := errors.New("port gone")
	r := NewReader(&chunkReader{data: cat(e4, []byte{9}, e4, e4[:3]), chunks: []int{0, 2, 1, 7, 0, 0}, err: boom}, SingleBoard)
	if m, err := r.ReadMessage(); err != nil || m != e4Msg {
		t.Fatalf("1: %v %v", m, err)
	}
	if _, err := r.ReadMessage(); !errors.Is(err, ErrGarbage) {
		t.Fatalf("2: %v", err)
	}
	if m, err := r.ReadMessage(); err != nil || m != e4Msg {
		t.Fatalf("3: %v %v", m, err)
	}
	var fe *FrameError
	if _, err := r.ReadMessage(); !errors.As(err, &fe) || fe.Reason != ErrTruncated || fe.Offset != 11 || fe.Skipped != 3 {
		t.Fatalf("4: %v", err)
	}
	for i := 0; i < 2; i++ {
		if _, err := r.ReadMessage(); err != boom {
			t.Fatalf("sticky: %v", err)
		}
	}
	if r.Decoder().Offset() != 14 {
		t.Fatalf("offset %d", r.Decoder().Offset())
	}
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestReaderNoProgress(t *testing.T) {
	r := NewReader(zeroReader{}, SingleBoard)
	if _, err := r.ReadMessage(); err != io.ErrNoProgress {
		t.Fatalf("%v", err)
	}
}

func TestReaderEOF(t *testing.T) {
	r := NewReader(bytes.NewReader(cat(e4, e4)), SingleBoard)
	for i := 0; i < 2; i++ {
		if m, err := r.ReadMessage(); err != nil || m != e4Msg {
			t.Fatalf("%v %v", m, err)
		}
	}
	if _, err := r.ReadMessage(); err != io.EOF {
		t.Fatalf("%v", err)
	}
}
