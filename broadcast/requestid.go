package broadcast

import (
	"errors"
	"sync"
	"time"
)

// idempotencyWindow is how long the reply to a request with a request_id
// is remembered: the same request (same user, subject and request_id)
// sent again within it gets the same reply, its handler not run again.
const idempotencyWindow = 10 * time.Minute

// maxRemembered bounds the request ids remembered at once; beyond it a new
// request with a request_id is refused (try again later) rather than
// forgetting one that is still in its window.
const maxRemembered = 4096

// maxWaiting bounds the repeated requests waiting for the first one's
// reply (they hold no handler slot).
const maxWaiting = 256

var errTooManyIDs = errors.New("broadcast: too many request ids in the last minutes, try again later")

type idKey struct{ user, subject, id string }

type idEntry struct {
	done  chan struct{} // closed when reply is set
	reply Reply
	at    time.Time // when the reply was set
}

// requestIDs remembers the replies of requests with a request_id (see
// idempotencyWindow). Safe for concurrent use.
type requestIDs struct {
	mu      sync.Mutex
	m       map[idKey]*idEntry
	waiting int
}

// idState is what begin found.
type idState uint8

const (
	idFirst   idState = iota + 1 // new: the caller runs the request and finishes or drops it
	idDone                       // answered: reply with the entry's reply
	idRunning                    // in progress: wait on done, then call waited
)

// begin looks k up at now; err when the table is full.
func (r *requestIDs) begin(k idKey, now time.Time) (e *idEntry, st idState, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[idKey]*idEntry{}
	}
	if e, ok := r.m[k]; ok {
		select {
		case <-e.done:
			if now.Sub(e.at) < idempotencyWindow {
				return e, idDone, nil
			}
		default:
			if r.waiting >= maxWaiting {
				return nil, 0, errBusy
			}
			r.waiting++
			return e, idRunning, nil
		}
	}
	if len(r.m) >= maxRemembered {
		for key, e := range r.m {
			select {
			case <-e.done:
				if now.Sub(e.at) >= idempotencyWindow {
					delete(r.m, key)
				}
			default:
			}
		}
		if len(r.m) >= maxRemembered {
			return nil, 0, errTooManyIDs
		}
	}
	e = &idEntry{done: make(chan struct{})}
	r.m[k] = e
	return e, idFirst, nil
}

// finish sets the reply of a first request at now.
func (r *requestIDs) finish(e *idEntry, rep Reply, now time.Time) {
	r.mu.Lock()
	e.reply, e.at = rep, now
	r.mu.Unlock()
	close(e.done)
}

// drop forgets a first request that was refused (rep) before its handler
// ran, so the same id may be tried again; repeats waiting for it get rep.
func (r *requestIDs) drop(k idKey, e *idEntry, rep Reply) {
	r.mu.Lock()
	e.reply = rep
	if r.m[k] == e {
		delete(r.m, k)
	}
	r.mu.Unlock()
	close(e.done)
}

// waited counts a waiting repeat out.
func (r *requestIDs) waited() {
	r.mu.Lock()
	r.waiting--
	r.mu.Unlock()
}
