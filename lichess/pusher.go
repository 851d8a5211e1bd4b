// Package lichess pushes the public copy of rounds to Lichess broadcast
// rounds (docs/contract.md §2, "Lichess push"): for each round mapped to a
// Lichess broadcast round, the round's public PGN is sent with
// POST <url>/api/broadcast/round/<id>/push whenever it changes, at most
// once a second per round; a push unanswered for 10 s is abandoned and
// tried again with back-off (doubling from 1 s, at most 30 s); after a
// 429 no round is pushed for a minute. Lichess refuses PGN URLs on private
// addresses, which is why a hall pushes instead of being polled.
//
// The pusher reads the PGN through a [Source] (the daemon's public store)
// on its own goroutine and never waits on the boards.
package lichess

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
)

// MaxGames is the number of games Lichess takes in one push.
const MaxGames = 100

// DefaultPoll is how often the pusher compares each round's public PGN
// with what it pushed: a change reaches Lichess within a poll and the
// one-a-second limit.
const DefaultPoll = 500 * time.Millisecond

// Source returns a round's public PGN (multi-game, by board) and its
// number of games; the games of a PGN are separated by a blank line.
type Source func(round int) (pgn string, games int)

// Options configure a [Pusher]. URL, Token and Source are required.
type Options struct {
	// URL is the API base, e.g. https://lichess.org.
	URL string
	// Token is the API token (scope study:write).
	Token string
	// Rounds maps round numbers to Lichess broadcast round ids.
	Rounds map[int]string
	// Source gives each round's public PGN.
	Source Source
	// Client sends the requests (nil: a client of its own). Each push is
	// bounded by Timeout through its context.
	Client *http.Client
	// The timing; zero values are the contract's (the Default constants).
	Poll, MinInterval, Timeout, FirstBackoff, MaxBackoff, Pause time.Duration
	// Now is the clock of the schedule (default time.Now).
	Now func() time.Time
	// Logger (nil: discarded).
	Logger *slog.Logger
}

// Pusher pushes rounds to Lichess. Create it with New, call Run once;
// SetRounds and Stats are safe from other goroutines.
type Pusher struct {
	o      Options
	log    *slog.Logger
	client *http.Client

	mu     sync.Mutex // guards s, token, stats
	s      *schedule
	token  string
	stats  map[int]*RoundStats
	wake   chan struct{}
	logged map[int]string // the last failure logged per round
}

// RoundStats is what the pusher knows of one round, for status reports.
type RoundStats struct {
	Round int    `json:"round"`
	ID    string `json:"id"`
	// Pushes counts the pushes Lichess took; LastPush is the last one.
	Pushes   int       `json:"pushes"`
	LastPush time.Time `json:"last_push,omitzero"`
	// Error is the last failure, "" once a push went through again.
	Error string `json:"error,omitempty"`
}

// New checks the options and returns a pusher.
func New(o Options) (*Pusher, error) {
	if o.URL == "" || o.Token == "" || o.Source == nil {
		return nil, errors.New("lichess: URL, Token and Source are required")
	}
	o.URL = strings.TrimRight(o.URL, "/")
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.Poll, DefaultPoll)
	def(&o.MinInterval, DefaultMinInterval)
	def(&o.Timeout, DefaultTimeout)
	def(&o.FirstBackoff, DefaultFirstBackoff)
	def(&o.MaxBackoff, DefaultMaxBackoff)
	def(&o.Pause, DefaultPause)
	if o.Now == nil {
		o.Now = time.Now
	}
	p := &Pusher{o: o, log: o.Logger, client: o.Client, s: newSchedule(o.MinInterval, o.FirstBackoff, o.MaxBackoff, o.Pause),
		token: o.Token, stats: map[int]*RoundStats{}, wake: make(chan struct{}, 1), logged: map[int]string{}}
	if p.log == nil {
		p.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if p.client == nil {
		p.client = &http.Client{}
	}
	p.setRounds(o.Rounds)
	return p, nil
}

// SetRounds replaces the rounds and the token (a reload of the
// configuration); the next poll pushes what the new mapping needs.
func (p *Pusher) SetRounds(rounds map[int]string, token string) {
	p.mu.Lock()
	p.setRounds(rounds)
	if token != "" {
		p.token = token
	}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *Pusher) setRounds(rounds map[int]string) {
	p.s.setRounds(rounds)
	for r, st := range p.stats {
		if rounds[r] != st.ID {
			delete(p.stats, r)
		}
	}
	for r, id := range rounds {
		if _, ok := p.stats[r]; !ok {
			p.stats[r] = &RoundStats{Round: r, ID: id}
		}
	}
}

// Stats returns each round's push state, by round.
func (p *Pusher) Stats() []RoundStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []RoundStats
	for _, r := range p.s.roundList() {
		out = append(out, *p.stats[r])
	}
	return out
}

// result is a finished push.
type result struct {
	round int
	o     outcome
	err   error
	at    time.Time
}

// Run pushes until ctx is done, then abandons the pushes in flight and
// returns nil.
func (p *Pusher) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	results := make(chan result)
	poll := time.NewTicker(p.o.Poll)
	defer poll.Stop()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		p.refresh()
		for _, j := range p.startDue() {
			wg.Go(func() {
				r := p.push(ctx, j)
				select {
				case results <- r:
				case <-ctx.Done():
				}
			})
		}
		p.mu.Lock()
		next := p.s.next(p.o.Now())
		p.mu.Unlock()
		if !next.IsZero() {
			timer.Reset(max(time.Until(next), time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return nil
		case r := <-results:
			p.finish(r)
		case <-poll.C:
		case <-timer.C:
		case <-p.wake:
		}
	}
}

// refresh reads each round's public PGN and records its digest.
func (p *Pusher) refresh() {
	p.mu.Lock()
	rounds := p.s.roundList()
	p.mu.Unlock()
	for _, r := range rounds {
		pgn, n := p.o.Source(r)
		if n == 0 {
			continue
		}
		p.mu.Lock()
		p.s.observe(r, digest(limitGames(pgn, MaxGames)))
		p.mu.Unlock()
	}
}

// job is one push to make.
type job struct {
	round int
	id    string
	token string
	pgn   string
	games int
}

// startDue marks the due rounds as in flight and returns their pushes.
func (p *Pusher) startDue() []job {
	p.mu.Lock()
	now := p.o.Now()
	due := p.s.due(now)
	tok := p.token
	ids := map[int]string{}
	for _, r := range due {
		ids[r] = p.s.rounds[r].id
	}
	p.mu.Unlock()
	var jobs []job
	for _, r := range due {
		pgn, n := p.o.Source(r)
		if n > MaxGames {
			p.log.Warn("round has more games than Lichess takes in one push: only the first are pushed", "round", r, "games", n, "pushed", MaxGames)
			pgn, n = limitGames(pgn, MaxGames), MaxGames
		}
		p.mu.Lock()
		p.s.start(r, now, digest(pgn))
		p.mu.Unlock()
		jobs = append(jobs, job{round: r, id: ids[r], token: tok, pgn: pgn, games: n})
	}
	return jobs
}

// push sends one round's PGN and says how it went.
func (p *Pusher) push(ctx context.Context, j job) result {
	ctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	url := fmt.Sprintf("%s/api/broadcast/round/%s/push", p.o.URL, j.id)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(j.pgn))
	if err != nil {
		return result{round: j.round, o: failed, err: err, at: p.o.Now()}
	}
	req.Header.Set("Authorization", "Bearer "+j.token)
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	resp, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no answer within %v: abandoned", p.o.Timeout)
		}
		return result{round: j.round, o: failed, err: err, at: p.o.Now()}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return result{round: j.round, o: rateLimited, err: fmt.Errorf("429 too many requests: every round waits %v", p.o.Pause), at: p.o.Now()}
	case resp.StatusCode/100 != 2:
		return result{round: j.round, o: failed, err: fmt.Errorf("%s: %s", resp.Status, answer(body)), at: p.o.Now()}
	}
	for _, e := range gameErrors(body) {
		p.log.Warn("Lichess refused a game of the push", "round", j.round, "lichess_round", j.id, "error", e)
	}
	return result{round: j.round, o: pushed, at: p.o.Now()}
}

// finish records a push's outcome and logs failures once per reason.
func (p *Pusher) finish(r result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.s.finish(r.round, r.at, r.o)
	st, ok := p.stats[r.round]
	if !ok {
		return
	}
	if r.err == nil {
		st.Pushes++
		st.LastPush = r.at
		if st.Error != "" {
			p.log.Info("Lichess push works again", "round", r.round, "lichess_round", st.ID)
		}
		st.Error = ""
		delete(p.logged, r.round)
		return
	}
	st.Error = r.err.Error()
	if p.logged[r.round] != st.Error {
		p.logged[r.round] = st.Error
		p.log.Warn("Lichess push failed; retrying with back-off", "round", r.round, "lichess_round", st.ID, "err", r.err)
	}
}

// answer shortens a response body for a log line.
func answer(body []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		return e.Error
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// gameErrors returns the per-game errors of a push reply
// ({"games":[{"tags":…,"moves":N} or {"tags":…,"error":"…"}]}).
func gameErrors(body []byte) []string {
	var reply struct {
		Games []struct {
			Tags  map[string]string `json:"tags"`
			Error string            `json:"error"`
		} `json:"games"`
	}
	if json.Unmarshal(body, &reply) != nil {
		return nil
	}
	var out []string
	for _, g := range reply.Games {
		if g.Error != "" {
			out = append(out, fmt.Sprintf("%s (%s – %s, round %s)", g.Error, g.Tags["White"], g.Tags["Black"], g.Tags["Round"]))
		}
	}
	return out
}

// limitGames returns the first n games of a multi-game PGN whose games
// start with a tag section after a blank line.
func limitGames(pgn string, n int) string {
	count := 0
	at := 0
	for at < len(pgn) {
		i := strings.Index(pgn[at:], "\n[Event ")
		start := at
		if !(at == 0 && strings.HasPrefix(pgn, "[Event ")) {
			if i < 0 {
				break
			}
			start = at + i + 1
		}
		count++
		if count > n {
			return strings.TrimRight(pgn[:start], "\n") + "\n"
		}
		at = start + 1
	}
	return pgn
}
