package replay

import (
	"bufio"
	"context"
	"io"
)

// Recording replays one recording: the traffic of an Open Board Protocol
// board (every xiangqi recording, and a chess board's whose first lines
// are OBP) with OBP, a DGT board's with DGT.
func Recording(r io.Reader, o Options) (Result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(64 << 10)
	if o.Session.Info.Variant == "xiangqi" || IsOBPRecording(head) {
		return OBP(br, o)
	}
	return DGT(br, o)
}

// UntilDone returns a reader of in that ends when ctx is done: in is
// closed then (which also ends a read waiting on a pipe or FIFO still
// being written) and reads return ctx's error. stop releases the watch on
// ctx; the caller still closes in.
func UntilDone(ctx context.Context, in io.ReadCloser) (r io.Reader, stop func() bool) {
	stop = context.AfterFunc(ctx, func() { in.Close() })
	return ctxReader{ctx, in}, stop
}

// ctxReader reads from r until ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	if err != nil && c.ctx.Err() != nil {
		return n, c.ctx.Err()
	}
	return n, err
}
