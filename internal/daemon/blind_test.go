package daemon

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
)

func TestBlindRelay(t *testing.T) {
	var opened []string
	open := func(b config.Board) (hall.Board, error) {
		if b.Port == "" {
			return hall.Board{}, errors.New("no port")
		}
		opened = append(opened, b.Port)
		return hall.Board{Open: func(context.Context) (io.ReadWriteCloser, error) { return nil, errors.New("test") }}, nil
	}
	cfg := &config.Config{}
	for _, tc := range []struct {
		name  string
		blind config.Blind
		err   string
	}{
		{"ok", config.Blind{Side: "black", Port: "/dev/ttyACM1", Lang: "de"}, ""},
		{"ok 2001", config.Blind{Side: "black", Port: "/dev/ttyACM1", Lang: "de"}, ""},
		{"lang", config.Blind{Side: "white", Port: "/dev/ttyACM1", Lang: "fr"}, "boards[0].blind.lang"},
		{"port", config.Blind{Side: "white", Lang: "en"}, "boards[0].blind.port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opened = nil
			b := config.Board{Port: "/dev/ttyACM0", Blind: &tc.blind, Ruleset: "fide2018-standard"}
			if tc.name == "ok 2001" {
				b.Ruleset = "fide2001-rapid"
			}
			bl, bb, err := blindRelay(cfg, b, "boards[0]", open)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want one naming %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if bl.Side != rules.Black || bl.Lang != announce.German || bb.Port != "/dev/ttyACM1" || bb.Open == nil || bb.Speaker != nil {
				t.Errorf("relay %+v, board %+v", bl, bb)
			}
			if bl.NoTalkingClock != (tc.name == "ok 2001") {
				t.Errorf("talking clock refused: %v under %s", bl.NoTalkingClock, b.Ruleset)
			}
			if len(opened) != 1 || opened[0] != "/dev/ttyACM1" {
				t.Errorf("opened %v, want the blind player's port", opened)
			}
		})
	}
}
