// Package lcclient is a client of the DGT LiveChess local API written from
// the protocol as its public clients use it, and from nothing of dgtbridge's
// server: the tests drive the server with it as Lichess's DGT page does.
//
// A [Client] sends calls and sorts what comes back: answers to calls by
// their id, feed frames in their order. A [Page] keeps the move list the
// way the Lichess page does and says what it would do with each frame.
package lcclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/coder/websocket"
)

// Frame is one frame from the server.
type Frame struct {
	Response string          `json:"response"`
	ID       int             `json:"id"`
	Param    json.RawMessage `json:"param"`
	Time     int64           `json:"time"`
}

// Board is one entry of the eboards answer.
type Board struct {
	SerialNr string          `json:"serialnr"`
	Source   *string         `json:"source"`
	State    *string         `json:"state"`
	Battery  *string         `json:"battery"`
	Comment  *string         `json:"comment"`
	Board    *string         `json:"board"`
	Flipped  bool            `json:"flipped"`
	Clock    json.RawMessage `json:"clock"`
}

// Event is a feed frame's param.
type Event struct {
	SerialNr string          `json:"serialnr"`
	Flipped  *bool           `json:"flipped"`
	Board    *string         `json:"board"`
	Clock    json.RawMessage `json:"clock"`
	Start    *string         `json:"start"`
	SAN      []string        `json:"san"`
	Match    *bool           `json:"match"`
}

// CallError is a call the server answered with response "error".
type CallError struct {
	Message string
}

func (e *CallError) Error() string { return "server error: " + e.Message }

// Client is one WebSocket connection to the API. Not safe for concurrent
// use: one test goroutine drives it.
type Client struct {
	c      *websocket.Conn
	nextID int
	feed   []Frame // feed frames read while waiting for an answer
}

// Dial connects to url (ws://host:port/api/v1.0) sending Origin when not
// empty, as a browser page would.
func Dial(ctx context.Context, url, origin string) (*Client, error) {
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, err
	}
	return &Client{c: c, nextID: 1}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.c.Close(websocket.StatusNormalClosure, "") }

// SendRaw sends a text frame as it is.
func (c *Client) SendRaw(ctx context.Context, b []byte) error {
	return c.c.Write(ctx, websocket.MessageText, b)
}

// Call sends a call (Send) and waits for its answer; feed frames that
// come first are kept for Next.
func (c *Client) Call(ctx context.Context, id int, call string, param any) (json.RawMessage, error) {
	id, err := c.Send(ctx, id, call, param)
	if err != nil {
		return nil, err
	}
	return c.Answer(ctx, id)
}

// Send sends {"id","call","param"} (param omitted when nil, as Lichess
// sends eboards) with the given id (0: the next one) without waiting, and
// returns the id.
func (c *Client) Send(ctx context.Context, id int, call string, param any) (int, error) {
	if id == 0 {
		id = c.nextID
	}
	c.nextID = max(c.nextID, id) + 1
	msg := map[string]any{"id": id, "call": call}
	if param != nil {
		msg["param"] = param
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return id, err
	}
	return id, c.SendRaw(ctx, b)
}

// Answer waits for the answer to call id.
func (c *Client) Answer(ctx context.Context, id int) (json.RawMessage, error) {
	for {
		f, err := c.read(ctx)
		if err != nil {
			return nil, err
		}
		switch {
		case f.Response == "feed":
			c.feed = append(c.feed, f)
		case f.ID != id:
			return nil, fmt.Errorf("answer to call %d while waiting for %d: %+v", f.ID, id, f)
		case f.Response == "call":
			return f.Param, nil
		case f.Response == "error":
			var e struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(f.Param, &e)
			return nil, &CallError{Message: e.Message}
		default:
			return nil, fmt.Errorf("unknown response %q", f.Response)
		}
	}
}

// Next returns the next feed frame and its feed id.
func (c *Client) Next(ctx context.Context) (int, Event, error) {
	var f Frame
	if len(c.feed) > 0 {
		f, c.feed = c.feed[0], c.feed[1:]
	} else {
		var err error
		if f, err = c.read(ctx); err != nil {
			return 0, Event{}, err
		}
		if f.Response != "feed" {
			return 0, Event{}, fmt.Errorf("expected a feed frame, got %+v", f)
		}
	}
	var e Event
	if err := json.Unmarshal(f.Param, &e); err != nil {
		return 0, Event{}, fmt.Errorf("feed frame: %w", err)
	}
	return f.ID, e, nil
}

func (c *Client) read(ctx context.Context) (Frame, error) {
	typ, b, err := c.c.Read(ctx)
	if err != nil {
		return Frame{}, err
	}
	if typ != websocket.MessageText {
		return Frame{}, errors.New("binary frame from the server")
	}
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil {
		return Frame{}, fmt.Errorf("frame %q: %w", b, err)
	}
	if f.Time == 0 {
		return Frame{}, fmt.Errorf("frame without time: %s", b)
	}
	return f, nil
}

// SendBinary sends a binary frame (which the protocol never uses).
func (c *Client) SendBinary(ctx context.Context, b []byte) error {
	return c.c.Write(ctx, websocket.MessageBinary, b)
}
