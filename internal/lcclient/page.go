package lcclient

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// Page drives a board the way Lichess's DGT page does: eboards, subscribe
// to the first board listed (call id 2, feed id 1), and setup when a game
// is in progress; then it takes the new moves of each frame.
type Page struct {
	C      *Client
	Serial string
	// Played is the page's game: the moves it took since its setup.
	Played []string
	// Initial is the frame the server sent right after the subscription.
	Initial Event
	prev    []string // the last san list taken
}

// Handshake runs eboards, then subscribe and (when fen != "") setup
// sent back to back without waiting for the answers, as Lichess's page
// does when it has a game in progress; then it reads the answers and the
// feed's first frame (Initial). It returns the boards listed.
func (p *Page) Handshake(ctx context.Context, fen string) ([]Board, error) {
	raw, err := p.C.Call(ctx, 1, "eboards", nil)
	if err != nil {
		return nil, err
	}
	var boards []Board
	if err := json.Unmarshal(raw, &boards); err != nil {
		return nil, fmt.Errorf("eboards: %w", err)
	}
	if len(boards) == 0 {
		return boards, fmt.Errorf("eboards: no board")
	}
	p.Serial = boards[0].SerialNr
	sub := map[string]any{"feed": "eboardevent", "id": 1, "param": map[string]any{"serialnr": p.Serial}}
	if _, err := p.C.Send(ctx, 2, "subscribe", sub); err != nil {
		return boards, err
	}
	if fen != "" {
		if _, err := p.C.Send(ctx, 3, "call", setupParam(fen)); err != nil {
			return boards, err
		}
	}
	if _, err := p.C.Answer(ctx, 2); err != nil {
		return boards, err
	}
	if fen != "" {
		if _, err := p.C.Answer(ctx, 3); err != nil {
			return boards, err
		}
	}
	id, e, err := p.C.Next(ctx)
	if err != nil {
		return boards, fmt.Errorf("the first frame: %w", err)
	}
	if id != 1 || e.SerialNr != p.Serial {
		return boards, fmt.Errorf("the first frame is of feed %d board %q", id, e.SerialNr)
	}
	p.Initial = e
	p.prev = slices.Clone(e.SAN)
	if fen != "" {
		p.Played = slices.Clone(e.SAN) // moves since the setup: the page plays them
	}
	return boards, nil
}

func setupParam(fen string) map[string]any {
	return map[string]any{"id": 1, "method": "setup", "param": map[string]any{"fen": fen}}
}

// Setup sends the setup method to feed 1 and, as Lichess does, empties
// its list of moves.
func (p *Page) Setup(ctx context.Context, id int, fen string) error {
	_, err := p.C.Call(ctx, id, "call", setupParam(fen))
	p.prev = nil
	return err
}

// Take reads frames until one brings new moves (or a different list) and
// returns the new moves of that frame, and the frames it skipped because
// they said nothing new.
func (p *Page) Take(ctx context.Context) (moves []string, skipped int, err error) {
	for {
		id, e, err := p.C.Next(ctx)
		if err != nil {
			return nil, skipped, err
		}
		if id != 1 {
			return nil, skipped, fmt.Errorf("frame of feed %d, subscribed 1", id)
		}
		if e.SerialNr != p.Serial {
			return nil, skipped, fmt.Errorf("frame of board %q, subscribed %q", e.SerialNr, p.Serial)
		}
		if len(e.SAN) == 0 || slices.Equal(e.SAN, p.prev) {
			skipped++
			continue
		}
		if len(e.SAN) < len(p.prev) || !slices.Equal(e.SAN[:len(p.prev)], p.prev) {
			// A list that is no extension: the page compares it with its
			// own game; here the caller decides.
			p.prev = slices.Clone(e.SAN)
			return e.SAN, skipped, nil
		}
		moves = slices.Clone(e.SAN[len(p.prev):])
		p.prev = slices.Clone(e.SAN)
		p.Played = append(p.Played, moves...)
		return moves, skipped, nil
	}
}

// List returns the list of moves the page took last (since its setup).
func (p *Page) List() []string { return slices.Clone(p.prev) }
