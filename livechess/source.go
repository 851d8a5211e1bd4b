package livechess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// retryEvery is how long a watch waits before it tries again (a bucket
// the daemon has not created yet, a connection that is down).
const retryEvery = time.Second

// follow keeps the view up to date from the daemon's feed until ctx ends:
// the status bucket (boards), the games bucket (records) and the games'
// clock events. It returns nil when ctx ends, or an error that will not
// go away by waiting (the subscription refused).
func (s *Server) follow(ctx context.Context) error {
	sub, err := s.o.Conn.Subscribe(s.o.Prefix+".game.*.*.*.clock", func(m *nats.Msg) {
		var c game.ClockEvent
		if json.Unmarshal(m.Data, &c) == nil && c.Game.Validate() == nil {
			s.view.putClock(c)
		}
	})
	if err != nil {
		return fmt.Errorf("livechess: subscribe to clocks: %w", err)
	}
	defer sub.Unsubscribe()
	js, err := jetstream.New(s.o.Conn)
	if err != nil {
		return fmt.Errorf("livechess: %w", err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		s.watch(ctx, js, s.o.Prefix+"_status", func(key string, data []byte, deleted bool) {
			if strings.HasPrefix(key, "_") {
				return // a daemon's own report
			}
			if deleted {
				s.view.deleteBoard(key)
				return
			}
			var r broadcast.BoardReport
			if err := json.Unmarshal(data, &r); err != nil || r.BoardID == "" {
				s.log.Warn("livechess: undecodable board report", "key", key, "err", err)
				return
			}
			s.view.putBoard(r)
		})
	})
	wg.Go(func() {
		s.watch(ctx, js, s.o.Prefix+"_games", func(key string, data []byte, deleted bool) {
			if deleted {
				return
			}
			var st game.GameState
			if err := json.Unmarshal(data, &st); err != nil || st.Game.Validate() != nil {
				s.log.Warn("livechess: undecodable game state", "key", key, "err", err)
				return
			}
			s.view.putGame(st)
		})
	})
	wg.Wait()
	return nil
}

// watch follows every key of a bucket, waiting for it to exist and
// watching again whenever the watch ends, until ctx ends.
func (s *Server) watch(ctx context.Context, js jetstream.JetStream, bucket string, put func(key string, data []byte, deleted bool)) {
	logged := ""
	for ctx.Err() == nil {
		err := s.watchOnce(ctx, js, bucket, put)
		if ctx.Err() != nil {
			return
		}
		if msg := fmt.Sprint(err); msg != logged {
			logged = msg
			s.log.Warn("livechess: watching "+bucket+"; trying again", "err", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(retryEvery):
		}
	}
}

var errWatchEnded = errors.New("watch ended")

func (s *Server) watchOnce(ctx context.Context, js jetstream.JetStream, bucket string, put func(string, []byte, bool)) error {
	kv, err := js.KeyValue(ctx, bucket)
	if err != nil {
		return err
	}
	w, err := kv.WatchAll(ctx)
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-w.Updates():
			if !ok {
				return errWatchEnded
			}
			if e == nil {
				continue // the initial values are in
			}
			put(e.Key(), e.Value(), e.Operation() != jetstream.KeyValuePut)
		}
	}
}
