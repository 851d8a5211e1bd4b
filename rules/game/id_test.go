package game

import (
	"encoding/json"
	"errors"
	"testing"
)

var testID = ID{Event: "open2026", Round: 1, Board: 1}

func TestParseGameID(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    ID
		wantErr error
	}{
		{"open2026.3.12", ID{Event: "open2026", Round: 3, Board: 12}, nil},
		{"open2026.3", ID{}, ErrBadID},
		{"open2026.x.1", ID{}, ErrBadID},
		{"Open.1.1", ID{}, ErrBadID},
		{"open.0.1", ID{}, ErrBadID},
		{"open.1.1.1", ID{}, ErrBadID},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseID(tc.in)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			var ie *IDError
			if err != nil && (!errors.As(err, &ie) || ie.ID != tc.in) {
				t.Errorf("error %v is not an *IDError naming %q", err, tc.in)
			}
			if err == nil && (got != tc.want || got.String() != tc.in) {
				t.Errorf("got %v (%s), want %v", got, got, tc.want)
			}
		})
	}
}

func TestGameIDJSON(t *testing.T) {
	b, err := json.Marshal(struct {
		G ID `json:"game"`
	}{testID})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"game":"open2026.1.1"}` {
		t.Errorf("got %s", b)
	}
	var back struct {
		G ID `json:"game"`
	}
	if err := json.Unmarshal(b, &back); err != nil || back.G != testID {
		t.Errorf("round trip: %v %v", back.G, err)
	}
	if err := json.Unmarshal([]byte(`{"game":"x.y"}`), &back); !errors.Is(err, ErrBadID) {
		t.Errorf("bad game id unmarshalled: %v", err)
	}
}
