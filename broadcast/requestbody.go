package broadcast

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
)

// maxTextBytes bounds every string of a request's JSON body (an arbiter's
// comment, a move, a request id): what a request carries ends up in logs,
// alerts and the record.
const maxTextBytes = 200

// requestInfoHeader is the header the server puts on a request that went
// through a service import whose importer shares its client's details:
// the requester's account and user, which it sets itself (a client's own
// header of that name is replaced).
const requestInfoHeader = "Nats-Request-Info"

// Identity is who sent a request, as the server vouches for it.
type Identity struct {
	// User is the requester's user name; Role its role ("" when not
	// authenticated).
	User string
	Role Role
	// Authenticated is true when the server said who sent the request: it
	// came through a staff account's service import into the daemon's
	// account (the embedded server with users). False without users, or
	// on an external server: there the body's own fields are all there is.
	Authenticated bool
}

// identify reads the requester of m: trusted only when trust is set (the
// server has the daemon's accounts) and m came through a service import
// (its reply is the server's "_R_." mapping, which no client can choose
// in the daemon's account, where only the daemon connects).
func identify(m *nats.Msg, trust bool) Identity {
	if !trust || !strings.HasPrefix(m.Reply, "_R_.") || m.Header == nil {
		return Identity{}
	}
	var ci struct {
		Account string `json:"acc"`
		User    string `json:"user"`
	}
	if err := json.Unmarshal([]byte(m.Header.Get(requestInfoHeader)), &ci); err != nil || ci.User == "" {
		return Identity{}
	}
	role := roleOfAccount(ci.Account)
	if role == "" {
		return Identity{}
	}
	return Identity{User: ci.User, Role: role, Authenticated: true}
}

// body is a request's JSON object as the responder reads it.
type body struct {
	fields    map[string]json.RawMessage // nil: not a JSON object
	requestID string
}

// readBody checks every string of a JSON body against maxTextBytes and
// takes its request_id out. A body that is not a JSON object is left as it
// is (its handler judges it).
func readBody(data []byte) (body, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != '[') {
		return body{}, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return body{}, nil // the handler says what is wrong with it
	}
	if err := checkText("", v); err != nil {
		return body{}, err
	}
	if trimmed[0] != '{' {
		return body{}, nil
	}
	var b body
	if err := json.Unmarshal(trimmed, &b.fields); err != nil {
		return body{}, nil
	}
	if raw, ok := b.fields["request_id"]; ok {
		if err := json.Unmarshal(raw, &b.requestID); err != nil || b.requestID == "" {
			return body{}, fmt.Errorf("broadcast: request_id: want a non-empty string, got %s", raw)
		}
		delete(b.fields, "request_id")
	}
	return b, nil
}

// checkText refuses a string longer than maxTextBytes anywhere in v,
// naming its field.
func checkText(path string, v any) error {
	switch x := v.(type) {
	case string:
		if len(x) > maxTextBytes {
			if path == "" {
				path = "body"
			}
			return fmt.Errorf("broadcast: %s: %d bytes, at most %d", path, len(x), maxTextBytes)
		}
	case map[string]any:
		for k, e := range x {
			if len(k) > maxTextBytes {
				return fmt.Errorf("broadcast: a field name of %d bytes, at most %d", len(k), maxTextBytes)
			}
			if err := checkText(strings.TrimPrefix(path+"."+k, "."), e); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := checkText(fmt.Sprintf("%s[%d]", path, i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

// rewrite returns the body to hand to the handler: without request_id,
// and with "by" set to the authenticated user when stampBy.
func (b body) rewrite(data []byte, id Identity, stampBy bool) []byte {
	stamp := stampBy && id.Authenticated
	if b.fields == nil || (b.requestID == "" && !stamp) {
		return data
	}
	if stamp {
		user, _ := json.Marshal(id.User) // a string: cannot fail
		b.fields["by"] = user
	}
	out, err := json.Marshal(b.fields)
	if err != nil {
		return data
	}
	return out
}
