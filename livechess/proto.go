package livechess

import (
	"encoding/json"
	"fmt"
)

// request is one call of a client: {"id","call","param"}. Param is absent,
// null or an object depending on the call (and on the client).
type request struct {
	ID    int             `json:"id"`
	Call  string          `json:"call"`
	Param json.RawMessage `json:"param"`
}

// Response kinds.
const (
	respCall  = "call"
	respFeed  = "feed"
	respError = "error"
)

// response is every frame the server sends: a call's result, a feed's
// event or an error; Time is milliseconds since the epoch.
type response struct {
	Response string `json:"response"`
	ID       int    `json:"id"`
	Param    any    `json:"param"`
	Time     int64  `json:"time"`
}

// errorParam is the param of an error response.
type errorParam struct {
	Message string `json:"message"`
}

// EBoard is one board as `eboards` and GET /api/v1.0/eboards list it.
// Source, Battery, Comment and Board are null when unknown; Board is the
// FEN placement (8 ranks, a8 first) whatever Flipped says.
type EBoard struct {
	SerialNr string  `json:"serialnr"`
	Source   *string `json:"source"`
	State    *string `json:"state"`
	Battery  *string `json:"battery"`
	Comment  *string `json:"comment"`
	Board    *string `json:"board"`
	Flipped  bool    `json:"flipped"`
	Clock    *Clock  `json:"clock"`
}

// Clock is a clock reading as the protocol gives it: remaining whole
// seconds, Run true when White's clock runs, false when Black's, null when
// none; Time is when it was read (ms since the epoch).
type Clock struct {
	White int   `json:"white"`
	Black int   `json:"black"`
	Run   *bool `json:"run"`
	Time  int64 `json:"time"`
}

// Board states.
const (
	StateActive        = "ACTIVE"
	StateInactive      = "INACTIVE"
	StateNotResponding = "NOTRESPONDING"
)

// event is the param of an eboardevent feed frame. SAN is always sent
// (clients ignore a list equal to the last one they took); the other
// fields are omitted when unchanged since the feed's last frame.
type event struct {
	SerialNr string   `json:"serialnr"`
	Flipped  *bool    `json:"flipped,omitempty"`
	Board    string   `json:"board,omitempty"`
	Clock    *Clock   `json:"clock,omitempty"`
	Start    string   `json:"start,omitempty"`
	SAN      []string `json:"san"`
	Match    *bool    `json:"match,omitempty"`
}

// subscribeParam is subscribe's param: {"feed","id","param":{"serialnr"}}.
type subscribeParam struct {
	Feed  string `json:"feed"`
	ID    *int   `json:"id"`
	Param *struct {
		SerialNr string `json:"serialnr"`
	} `json:"param"`
}

// feedCallParam is the param of call (a feed method) and unsubscribe:
// {"id": feed id, "method", "param"}.
type feedCallParam struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Param  json.RawMessage `json:"param"`
}

// Error is an error answered to a call; its message is what the client
// reads.
type Error struct {
	Message string
}

// Error implements error.
func (e *Error) Error() string { return e.Message }

func errorf(format string, a ...any) *Error { return &Error{Message: fmt.Sprintf(format, a...)} }
