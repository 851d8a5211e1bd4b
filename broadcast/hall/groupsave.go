package hall

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// syncParallel bounds the record files fsynced at once within a batch: the
// file system merges concurrent fsyncs into one journal commit, and a
// handful of threads blocked in fsync is enough for that.
const syncParallel = 8

// maxBatch bounds the records committed together.
const maxBatch = 512

// commitWorkers is how many batches may be committed at once. With one,
// a save arriving during a commit waits for it and then for its own (two
// fsync rounds at the tail); with a few, it starts at once, while the
// threads blocked in fsync stay bounded (one per board before: 500).
// Measured at 500 boards (BenchmarkLatency500Boards): p99 from 6–7 ms
// with one to 4–6 ms with four.
const commitWorkers = 4

// saveReq is one record file to commit: its encoded content, and where the
// outcome goes (the board goroutine waits for it).
type saveReq struct {
	dir  string
	path string
	tmp  string
	data []byte
	done chan error
}

// groupSaver commits record files for every board of a hall in batches
// (group commit): each file of a batch is written to its temporary name,
// the files are fsynced (several at once), renamed over the records, and
// the directory is fsynced once for the whole batch; only then is each
// board told, and only then does it hand the payloads to the publisher. So
// "the record is persisted before anything is published" still holds,
// while 500 boards moving at once cost one directory fsync per batch
// instead of one per move, and a bounded number of threads blocked in
// fsync instead of one per board.
//
// The function start returns serves the queue with commitWorkers
// goroutines, each committing the saves queued when it is free; boards
// call save from their own goroutines. A board has at most one save in
// flight (it waits), so no two batches hold records of the same game.
type groupSaver struct {
	reqs chan *saveReq

	mu      sync.Mutex
	running bool
}

// newGroupSaver returns a saver not started yet (save writes directly).
func newGroupSaver() *groupSaver { return &groupSaver{} }

// start opens the saver's queue and returns the function that serves it
// (run it on its own goroutine); it commits batches until stop, and the
// requests queued before stop. A hall run again starts it again.
func (g *groupSaver) start() (run func()) {
	reqs := make(chan *saveReq, maxBatch)
	g.mu.Lock()
	g.reqs = reqs
	g.running = true
	g.mu.Unlock()
	return func() {
		var wg sync.WaitGroup
		for range commitWorkers {
			wg.Go(func() { serveSaves(reqs) })
		}
		wg.Wait()
	}
}

// serveSaves commits the requests of reqs in batches until it is closed.
func serveSaves(reqs chan *saveReq) {
	batch := make([]*saveReq, 0, maxBatch)
	for r := range reqs {
		batch = append(batch[:0], r)
	more:
		for len(batch) < maxBatch {
			select {
			case r, ok := <-reqs:
				if !ok {
					break more
				}
				batch = append(batch, r)
			default:
				break more
			}
		}
		commitBatch(batch)
	}
}

// stop ends run once the queue is drained; later saves are written by
// the caller's goroutine (SaveRecord).
func (g *groupSaver) stop() {
	g.mu.Lock()
	if g.running {
		g.running = false
		close(g.reqs)
	}
	g.mu.Unlock()
}

// save commits r's record file and returns once it is durable (or failed),
// with the same guarantees and errors as [SaveRecord]. done is the caller's
// reusable channel (buffered, capacity 1).
func (g *groupSaver) save(dir string, r *Record, done chan error) error {
	path := RecordPath(dir, r.Info.Game)
	b, err := json.Marshal(r)
	if err != nil {
		return &RecordError{path, err}
	}
	req := &saveReq{dir: dir, path: path, tmp: filepath.Join(dir, ".tmp-"+r.Info.Game.String()), data: b, done: done}
	g.mu.Lock()
	if !g.running {
		g.mu.Unlock()
		return SaveRecord(dir, r)
	}
	g.reqs <- req // under mu: stop cannot close the channel meanwhile
	g.mu.Unlock()
	return <-done
}

// commitBatch writes, fsyncs and renames every record of batch, fsyncs
// their directories once, and answers each request.
func commitBatch(batch []*saveReq) {
	errs := make([]error, len(batch))
	files := make([]*os.File, len(batch))
	dirs := map[string]bool{}
	for i, r := range batch {
		if !dirs[r.dir] {
			if err := os.MkdirAll(r.dir, 0o755); err != nil {
				errs[i] = err
				continue
			}
			dirs[r.dir] = true
		}
		f, err := os.OpenFile(r.tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			errs[i] = err
			continue
		}
		files[i] = f
		if _, err := f.Write(r.data); err != nil {
			errs[i] = err
		}
	}
	// fsync the written files, syncParallel at once.
	var wg sync.WaitGroup
	sem := make(chan struct{}, syncParallel)
	for i, f := range files {
		if f == nil || errs[i] != nil {
			continue
		}
		sem <- struct{}{}
		wg.Go(func() {
			errs[i] = f.Sync()
			<-sem
		})
	}
	wg.Wait()
	for i, f := range files {
		if f == nil {
			continue
		}
		if err := f.Close(); errs[i] == nil {
			errs[i] = err
		}
		if errs[i] == nil {
			errs[i] = os.Rename(batch[i].tmp, batch[i].path)
		}
		if errs[i] != nil {
			os.Remove(batch[i].tmp)
		}
	}
	// One directory fsync per directory makes every rename durable.
	for dir := range dirs {
		err := syncDir(dir)
		if err == nil {
			continue
		}
		for i, r := range batch {
			if r.dir == dir && errs[i] == nil {
				errs[i] = err
			}
		}
	}
	for i, r := range batch {
		if errs[i] != nil {
			r.done <- &RecordError{r.path, errs[i]}
			continue
		}
		r.done <- nil
	}
}

// syncDir fsyncs a directory (the renames in it).
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) {
		return nil // a file system without directory fsync
	}
	return err
}
