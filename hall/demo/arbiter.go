package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// Arbiter is the arbiter at the demo's xiangqi tables: it records each
// game's result over NATS (set_result), as an arbiter does at a real
// event where the boards cannot tell a result. Its Result is the
// XiangqiTableOptions.Result of the tables.
type Arbiter struct {
	Prefix string       // the daemon's subject prefix
	Log    *slog.Logger // may be nil
	nc     atomic.Pointer[nats.Conn]
}

// Connect hands the arbiter its connection to the daemon's NATS server,
// once the daemon is up; until then Result waits for it.
func (a *Arbiter) Connect(nc *nats.Conn) { a.nc.Store(nc) }

// Result records game g's result (set_result), retried once a second for
// 20 s: NATS may be busy, the daemon may still be catching up. It returns
// the last refusal or error when every try failed, ctx's error when ctx
// ends first.
func (a *Arbiter) Result(ctx context.Context, g game.ID, result string) error {
	body, _ := json.Marshal(map[string]string{"cmd": "set_result", "result": result, "termination": "normal", "by": "demo arbiter"})
	var last error
	for try := 0; try < 20; try++ {
		if nc := a.nc.Load(); nc != nil {
			rep, err := nc.RequestWithContext(ctx, a.Prefix+".arbiter."+g.String()+".cmd", body)
			var r struct {
				OK bool `json:"ok"`
			}
			switch {
			case err != nil:
				last = err
			case json.Unmarshal(rep.Data, &r) != nil || !r.OK:
				last = fmt.Errorf("set_result refused: %s", rep.Data)
			default:
				if a.Log != nil {
					a.Log.Info("the demo's arbiter recorded a xiangqi result", "game", g, "result", result)
				}
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return last
}
