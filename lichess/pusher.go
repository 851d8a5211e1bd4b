// Package lichess pushes the public copy of rounds to Lichess broadcast
// rounds (docs/contract.md §2, "Lichess push"): for each round mapped to a
// Lichess broadcast round, the round's public PGN is sent with
// POST <url>/api/broadcast/round/<id>/push whenever it changes, at most
// once a second per round; a push unanswered for 10 s is abandoned and
// tried again with back-off (doubling from 1 s, at most 30 s); after a
// 429 no round is pushed for a minute. Lichess refuses PGN URLs on private
// addresses, which is why a hall pushes instead of being polled.
//
// Each push follows Lichess's rules for pushed games ([MaxGames] games a
// request, a larger round split over the Lichess rounds of Options.Split;
// a name for every player; Round "r.b"), and the games Lichess refuses are
// kept per round ([RoundStats.GameErrors]) and handed to
// Options.OnGameErrors.
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
	"slices"
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
	// Split maps a round of more than [MaxGames] games to the further
	// Lichess rounds its games go to, by hundreds in board order: games
	// 101–200 to the first, 201–300 to the second. Games beyond the rounds
	// mapped are not pushed (the round's stats say which).
	Split map[int][]string
	// OnGameErrors, when set, is called (from Run's goroutine) when a push
	// of a round got per-game errors from Lichess different from its last
	// push's: for an alert to the organiser. Errors are also in [Stats].
	OnGameErrors func(round int, errs []GameError)
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

	mu     sync.Mutex // guards s, token, split, stats
	s      *schedule
	token  string
	split  map[int][]string
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
	// Error is the last failure, "" once a push went through again; or,
	// after a push that went through, the games it could not send.
	Error string `json:"error,omitempty"`
	// GameErrors are the games Lichess refused in the last push.
	GameErrors []GameError `json:"game_errors,omitempty"`
	// Placeholders counts the players of the last push sent under a
	// placeholder name ("Board 3 White"): the public copy gives them
	// neither a name nor a FIDE id, and Lichess drops such a game.
	Placeholders int `json:"placeholders,omitempty"`
	// Unclocked counts the moves of the last push without [%clk] (no
	// clock connected, or not read): Lichess shows no clock for them.
	Unclocked int `json:"unclocked,omitempty"`
}

// GameError is a game Lichess refused in a push: its Round tag ("3.12"),
// players, and Lichess's reason.
type GameError struct {
	Round string `json:"round"`
	White string `json:"white"`
	Black string `json:"black"`
	Error string `json:"error"`
}

func (e GameError) String() string {
	return fmt.Sprintf("board %s (%s – %s): %s", e.Round, e.White, e.Black, e.Error)
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
		token: o.Token, split: o.Split, stats: map[int]*RoundStats{}, wake: make(chan struct{}, 1), logged: map[int]string{}}
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

// SetSplit replaces the further Lichess rounds of large rounds (a reload
// of the configuration; Options.Split).
func (p *Pusher) SetSplit(split map[int][]string) {
	p.mu.Lock()
	p.split = split
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
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
	// After a push that went through: what Lichess refused, and what the
	// push could not carry or carried without a name or a clock.
	games                   []GameError
	left                    string
	placeholders, unclocked int
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
		p.s.observe(r, digest(pgn))
		p.mu.Unlock()
	}
}

// job is one push to make: one request per part.
type job struct {
	round int
	token string
	parts []part
	// left says which games no Lichess round takes ("" none).
	left                    string
	placeholders, unclocked int
}

// part is one request of a push: at most [MaxGames] games, board order.
type part struct {
	id    string
	pgn   string
	games int
	first int // the number of the part's first game in the round (1-based)
}

// startDue marks the due rounds as in flight and returns their pushes.
func (p *Pusher) startDue() []job {
	p.mu.Lock()
	now := p.o.Now()
	due := p.s.due(now)
	tok := p.token
	ids := map[int][]string{}
	for _, r := range due {
		ids[r] = append([]string{p.s.rounds[r].id}, p.split[r]...)
	}
	p.mu.Unlock()
	var jobs []job
	for _, r := range due {
		pgn, _ := p.o.Source(r)
		p.mu.Lock()
		p.s.start(r, now, digest(pgn))
		p.mu.Unlock()
		jobs = append(jobs, makeJob(r, tok, pgn, ids[r]))
	}
	return jobs
}

// makeJob prepares a round's public PGN for Lichess ([prepareGame]) and
// cuts it into parts of [MaxGames] games for the Lichess rounds ids.
func makeJob(round int, token, pgn string, ids []string) job {
	j := job{round: round, token: token}
	games := splitGames(pgn)
	var texts []string
	for _, g := range games {
		pg := prepareGame(g)
		texts = append(texts, pg.text)
		j.placeholders += len(pg.named)
		j.unclocked += pg.unclocked
	}
	for i := 0; i < len(texts); i += MaxGames {
		k := i / MaxGames
		end := min(i+MaxGames, len(texts))
		if k >= len(ids) {
			j.left = fmt.Sprintf("games %d–%d of %d not pushed: Lichess takes %d games a round; map more Lichess rounds for round %d (lichess.split)",
				i+1, len(texts), len(texts), MaxGames, round)
			break
		}
		j.parts = append(j.parts, part{id: ids[k], pgn: joinGames(texts[i:end]), games: end - i, first: i + 1})
	}
	return j
}

// push sends one round's parts and says how it went.
func (p *Pusher) push(ctx context.Context, j job) result {
	res := result{round: j.round, o: pushed, left: j.left, placeholders: j.placeholders, unclocked: j.unclocked}
	for _, pt := range j.parts {
		errs, r := p.pushPart(ctx, j, pt)
		if r.o != pushed {
			if len(j.parts) > 1 {
				r.err = fmt.Errorf("to Lichess round %s (games %d–%d): %w", pt.id, pt.first, pt.first+pt.games-1, r.err)
			}
			return r
		}
		res.games = append(res.games, errs...)
	}
	res.at = p.o.Now()
	return res
}

// pushPart sends one part and returns the games Lichess refused.
func (p *Pusher) pushPart(ctx context.Context, j job, pt part) ([]GameError, result) {
	ctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	url := fmt.Sprintf("%s/api/broadcast/round/%s/push", p.o.URL, pt.id)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(pt.pgn))
	if err != nil {
		return nil, result{round: j.round, o: failed, err: err, at: p.o.Now()}
	}
	req.Header.Set("Authorization", "Bearer "+j.token)
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	resp, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("no answer within %v: abandoned", p.o.Timeout)
		}
		return nil, result{round: j.round, o: failed, err: err, at: p.o.Now()}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return nil, result{round: j.round, o: rateLimited, err: fmt.Errorf("429 too many requests: every round waits %v", p.o.Pause), at: p.o.Now()}
	case resp.StatusCode/100 != 2:
		return nil, result{round: j.round, o: failed, err: fmt.Errorf("%s: %s", resp.Status, answer(body)), at: p.o.Now()}
	}
	return gameErrors(body), result{round: j.round, o: pushed, at: p.o.Now()}
}

// finish records a push's outcome and logs failures once per reason; it
// calls OnGameErrors when the games Lichess refused changed.
func (p *Pusher) finish(r result) {
	var alert []GameError
	defer func() {
		if alert != nil && p.o.OnGameErrors != nil {
			p.o.OnGameErrors(r.round, alert)
		}
	}()
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
		if st.Error != "" && st.Error != r.left {
			p.log.Info("Lichess push works again", "round", r.round, "lichess_round", st.ID)
		}
		if r.left != "" && st.Error != r.left {
			p.log.Warn("Lichess push incomplete", "round", r.round, "lichess_round", st.ID, "err", r.left)
		}
		st.Error = r.left
		if !slices.Equal(r.games, st.GameErrors) {
			for _, e := range r.games {
				p.log.Warn("Lichess refused a game of the push", "round", r.round, "lichess_round", st.ID, "game", e.String())
			}
			if len(r.games) > 0 {
				alert = slices.Clone(r.games)
			}
		}
		st.GameErrors, st.Placeholders, st.Unclocked = r.games, r.placeholders, r.unclocked
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
func gameErrors(body []byte) []GameError {
	var reply struct {
		Games []struct {
			Tags  map[string]string `json:"tags"`
			Error string            `json:"error"`
		} `json:"games"`
	}
	if json.Unmarshal(body, &reply) != nil {
		return nil
	}
	var out []GameError
	for _, g := range reply.Games {
		if g.Error != "" {
			out = append(out, GameError{Round: g.Tags["Round"], White: g.Tags["White"], Black: g.Tags["Black"], Error: g.Error})
		}
	}
	return out
}
