package broadcast

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/rules/game"
)

// BenchmarkWebPublicMoveToStreams: one public MoveEvent published on NATS,
// until every open event stream (the spectators' pages) has read the
// board event it causes. The time per op is the server side of "from a
// MoveEvent to the page" (the browser's part is in TestBrowserDemo).
func BenchmarkWebPublicMoveToStreams(b *testing.B) {
	for _, clients := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("streams=%d", clients), func(b *testing.B) {
			f := startWeb(b, WebOptions{Boards: []WebBoard{{Game: testGame}}, MaxStreams: clients})
			got := make(chan int, clients*4)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for range clients {
				req, _ := http.NewRequestWithContext(ctx, "GET", f.http.URL+"/api/public/events", nil)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				go func() {
					defer resp.Body.Close()
					sc := bufio.NewScanner(resp.Body)
					sc.Buffer(nil, 1<<20)
					board := false
					for sc.Scan() {
						line := sc.Text()
						switch {
						case line == "event: board":
							board = true
						case board && strings.HasPrefix(line, "data: "):
							var v webBoardJSON
							if json.Unmarshal([]byte(line[6:]), &v) == nil {
								got <- v.Ply
							}
							board = false
						}
					}
				}()
			}
			waitFor(b, "streams", 10*time.Second, func() bool {
				f.web.mu.Lock()
				defer f.web.mu.Unlock()
				return len(f.web.clients) == clients
			})
			s := f.web.o.Subjects
			b.ResetTimer()
			for i := range b.N {
				ply := i + 1
				ev, _ := json.Marshal(game.MoveEvent{Game: testGame, Ply: ply, SAN: "e4", UCI: "e2e4", FEN: fenE4})
				if err := f.pub.Publish(s.publicMove(testGame), ev); err != nil {
					b.Fatal(err)
				}
				for n := 0; n < clients; {
					select {
					case p := <-got:
						if p == ply {
							n++
						}
					case <-time.After(10 * time.Second):
						b.Fatalf("move %d: %d of %d streams", ply, n, clients)
					}
				}
			}
		})
	}
}
