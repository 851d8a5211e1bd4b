package daemon

import (
	"fmt"
	"strings"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/hall/session"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/announce"
)

// blindRelay returns the relay settings and the blind player's own board
// of a configured game with a blind: section (FIDE Laws Appendix D); under
// the fide2001-* rule sets time requests are refused (no talking clock,
// 002 F2.4). The blind player's port is opened like a board's (open is called
// with a copy of b on that port). Speech follows relay.speak. config.Load
// has checked the side, the language and that espeak-ng is there.
func blindRelay(cfg *config.Config, b config.Board, key string, open opener) (*session.Blind, *hall.BlindBoard, error) {
	bl := b.Blind
	side := rules.White
	if bl.Side == "black" {
		side = rules.Black
	}
	lang, err := announce.ParseLang(bl.Lang)
	if err != nil {
		return nil, nil, fmt.Errorf("%s.blind.lang: %w", key, err)
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
	relay := session.DefaultBlind(side, lang)
	relay.NoTalkingClock = strings.HasPrefix(b.Ruleset, "fide2001-")
	return relay, &hall.BlindBoard{Port: bl.Port, Open: hb.Open, Speaker: sp}, nil
}
