package main

import (
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/broadcast/hall"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
)

// blindRelay returns the relay settings and the blind player's own board
// of a configured game with a blind: section (FIDE Laws Appendix D); under
// the fide2001-* rule sets time requests are refused (no talking clock,
// RV-13). The
// blind player's port is opened like a board's (open is called with a copy
// of b on that port). Speech follows relay.speak; espeak-ng missing is an
// error that names the key.
func blindRelay(cfg *config.Config, b config.Board, key string, open func(config.Board) (hall.Board, error)) (*hall.Blind, *hall.BlindBoard, error) {
	bl := b.Blind
	side := rules.White
	switch bl.Side {
	case "white":
	case "black":
		side = rules.Black
	default:
		return nil, nil, fmt.Errorf("%s.blind.side: %q is neither white nor black", key, bl.Side)
	}
	lang, err := announce.ParseLang(bl.Lang)
	if err != nil {
		return nil, nil, fmt.Errorf("%s.blind.lang: %w", key, err)
	}
	if bl.BusAddress > 0 {
		return nil, nil, fmt.Errorf("%s.blind.bus_address: DGT bus lines are not supported by this build of the daemon; connect the blind player's board on its own port (bus_address: 0)", key)
	}
	sp, err := announce.NewSpeaker(cfg.Relay.Speak)
	if err != nil {
		return nil, nil, fmt.Errorf("relay.speak: %w", err)
	}
	ob := b
	ob.Port, ob.BusAddress = bl.Port, bl.BusAddress
	hb, err := open(ob)
	if err != nil {
		return nil, nil, fmt.Errorf("%s.blind.port: %w", key, err)
	}
	relay := hall.DefaultBlind(side, lang)
	relay.NoTalkingClock = strings.HasPrefix(b.Ruleset, "fide2001-")
	return relay, &hall.BlindBoard{Port: bl.Port, Open: hb.Open, Speaker: sp}, nil
}
