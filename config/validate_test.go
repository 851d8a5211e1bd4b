package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dgtbridge/dgtbridge/rules/ruleset"
)

// board returns a YAML board list item with the given extra lines.
func board(round, num int, port string, extra ...string) string {
	s := "  - port: " + port + "\n    round: " + strconv.Itoa(round) + "\n    board: " + strconv.Itoa(num) + "\n"
	for _, e := range extra {
		s += "    " + e + "\n"
	}
	return s
}

func TestErrors(t *testing.T) {
	thisFile, err := filepath.Abs("validate_test.go")
	if err != nil {
		t.Fatal(err)
	}
	two := "boards:\n" + board(1, 1, "/dev/ttyACM0") + board(1, 2, "/dev/ttyACM1")
	for _, tc := range []struct {
		name      string
		yaml      string
		overrides map[string]any
		env       map[string]string
		key       string // the key the error must name
		unknown   bool   // ErrUnknownKey rather than ErrInvalid
		msg       string // substring of the message
	}{
		{"unknown top key", "nats:\n  ur: x\n", nil, nil, "nats.ur", true, `nats.ur: not a configuration key (did you mean nats.url?)`},
		{"unknown root key", "dat_dir: x\n", nil, nil, "dat_dir", true, `dat_dir: not a configuration key (did you mean data_dir?)`},
		{"unknown key in list item", "boards:\n" + board(1, 1, "/dev/a") + board(1, 2, "/dev/b", "prot: x"), nil, nil, "boards[1].prot", true, `boards[1].prot: not a configuration key (did you mean boards[1].port?)`},
		{"unknown key in blind", "boards:\n" + board(1, 1, "/dev/a", "blind: {side: white, port: /dev/b, lang: de, voice: x}"), nil, nil, "boards[0].blind.voice", true, "not a configuration key"},
		{"unknown key in user", "nats:\n  embedded:\n    users:\n      - {user: a, password: b, role: public, group: x}\n", nil, nil, "nats.embedded.users[0].group", true, "not a configuration key"},
		{"unknown override", "", map[string]any{"nats.ur": "x"}, nil, "nats.ur", true, "nats.ur: not a configuration key (did you mean nats.url?)"},
		{"list override", "", map[string]any{"boards": "x"}, nil, "boards", false, "list cannot be set"},
		{"nats not a mapping", "nats: foo\n", nil, nil, "nats", false, "expected a mapping"},
		{"boards not a list", "boards: foo\n", nil, nil, "boards", false, "expected a list"},
		{"boards from env", "", nil, map[string]string{"DGTBRIDGE_BOARDS": "x"}, "boards", false, "expected a list"},
		{"variant", "boards:\n" + board(1, 1, "/dev/a") + board(1, 2, "/dev/b") + board(1, 3, "/dev/c", "variant: chess9LX"), nil, nil, "boards[2].variant", false,
			`: boards[2].variant: "chess9LX" is not one of chess, chess960, team-drop, xiangqi`},
		{"event ruleset", "event: {ruleset: fide2020}\n", nil, nil, "event.ruleset", false, `"fide2020" is not one of fide2018-standard`},
		{"board ruleset", "boards:\n" + board(1, 1, "/dev/a", "ruleset: nope"), nil, nil, "boards[0].ruleset", false, "is not one of"},
		{"ruleset does not fit variant", "boards:\n" + board(1, 1, "/dev/a", "variant: xiangqi"), nil, nil, "boards[0].variant", false, "does not apply to variant xiangqi"},
		{"board ruleset does not fit", "boards:\n" + board(1, 1, "/dev/a", "ruleset: xiangqi-vn2004"), nil, nil, "boards[0].ruleset", false, "does not apply to variant chess"},
		{"event id", "event: {id: Open 2026}\n", nil, nil, "event.id", false, "a-z, 0-9"},
		{"empty event id", "event: {id: ''}\n", nil, nil, "event.id", false, "must not be empty"},
		{"prefix", "nats: {prefix: dgt.x}\n", nil, nil, "nats.prefix", false, "subject token"},
		{"event time control", "event: {time_control: 90min}\n", nil, nil, "event.time_control", false, "PGN TimeControl"},
		{"board time control", "boards:\n" + board(1, 1, "/dev/a", "time_control: '5400+'"), nil, nil, "boards[0].time_control", false, "increment"},
		{"duration without unit", "event: {public_delay: 900}\n", nil, nil, "event.public_delay", false, "no unit"},
		{"duration garbage", "event: {public_delay: soon}\n", nil, nil, "event.public_delay", false, "not a duration"},
		{"commit window too long", "storage: {commit_window: 2s}\n", nil, nil, "storage.commit_window", false, "2s: want 0s to 1s"},
		{"compaction too rare", "storage: {compact_every: 8h}\n", nil, nil, "storage.compact_every", false, "the streams drop repeats within 6 h"},
		{"compaction size", "storage: {compact_mib: 0}\n", nil, nil, "storage.compact_mib", false, "want 1 to 4096"},
		{"drain timeout zero", "", nil, map[string]string{"DGTBRIDGE_STORAGE_DRAIN_TIMEOUT": "0"}, "storage.drain_timeout", false, "want 1s to 10m0s"},
		{"history wait unit", "storage: {history_wait: 30}\n", nil, nil, "storage.history_wait", false, "no unit"},
		{"press grace too long", "tracker: {press_grace: 10s}\n", nil, nil, "tracker.press_grace", false, "want 0 (two scan periods) or 100ms to 5s"},
		{"memory limit word", "daemon: {memory_limit: lots}\n", nil, nil, "daemon.memory_limit", false, "want auto, off, or a size such as 350MiB"},
		{"memory limit unit", "daemon: {memory_limit: 350MB}\n", nil, nil, "daemon.memory_limit", false, "want auto, off, or a size"},
		{"memory limit too small", "", nil, map[string]string{"DGTBRIDGE_DAEMON_MEMORY_LIMIT": "32MiB"}, "daemon.memory_limit", false, "at least 64MiB"},
		{"hand hold too short", "tracker: {hand_hold: 500ms}\n", nil, nil, "tracker.hand_hold", false, "want 2s to 2m"},
		{"lost after too short", "tracker: {lost_after: 1s}\n", nil, nil, "tracker.lost_after", false, "want 3s to 10m"},
		{"negative duration", "event: {public_delay: -5m}\n", nil, nil, "event.public_delay", false, "negative"},
		{"duration env", "", nil, map[string]string{"DGTBRIDGE_EVENT_PUBLIC_DELAY": "15 minutes"}, "event.public_delay", false, "not a duration"},
		{"spare id", "boards:\n" + board(1, 1, "/dev/a") + "spares:\n  - {id: Spare 1, port: /dev/s}\n", nil, nil, "spares[0].id", false, "a-z, 0-9"},
		{"spare id is a board's", "boards:\n" + board(1, 1, "/dev/a") + "spares:\n  - {id: r1-b1, port: /dev/s}\n", nil, nil, "spares[0].id", false, "already the id of boards[0]"},
		{"spare id twice", "spares:\n  - {id: s1, port: /dev/s}\n  - {id: s1, port: /dev/t}\n", nil, nil, "spares[1].id", false, "already the id of spares[0]"},
		{"spare on a board's port", "boards:\n" + board(1, 1, "/dev/a") + "spares:\n  - {id: s1, port: /dev/a}\n", nil, nil, "spares[0].port", false, "already used by boards[0]"},
		{"spare with a board on auto", "boards:\n" + board(1, 1, "auto") + "spares:\n  - {id: s1, port: /dev/s}\n", nil, nil, "spares[0]", false, "boards[0] is on port auto"},
		{"spare auto", "spares:\n  - {id: s1, port: auto}\n", nil, nil, "spares[0].port", false, "not auto"},
		{"spare unknown key", "spares:\n  - {id: s1, port: /dev/s, bus_address: 3}\n", nil, nil, "spares[0].bus_address", true, "not a configuration key"},
		{"bool", "record: yes please\n", nil, nil, "record", false, "not a valid boolean"},
		{"int", "boards:\n" + board(1, 1, "/dev/a", "bus_address: two"), nil, nil, "boards[0].bus_address", false, "not a valid whole number"},
		{"penalties", "penalties: strict\n", nil, nil, "penalties", false, `"strict" is not one of alert, auto`},
		{"role", "nats:\n  embedded:\n    users:\n      - {user: a, password: b, role: admin}\n", nil, nil, "nats.embedded.users[0].role", false, "is not one of organiser, arbiter, public, relay"},
		{"user empty", "nats:\n  embedded:\n    users:\n      - {user: '', password: b, role: public}\n", nil, nil, "nats.embedded.users[0].user", false, "must not be empty"},
		{"user twice", "nats:\n  embedded:\n    users:\n      - {user: a, password: b, role: public}\n      - {user: a, password: c, role: arbiter}\n", nil, nil, "nats.embedded.users[1].user", false, "listed twice"},
		{"password empty", "nats:\n  embedded:\n    users:\n      - {user: a, role: public}\n", nil, nil, "nats.embedded.users[0].password", false, "must not be empty"},
		{"open listen without users", "nats:\n  embedded: {listen: '0.0.0.0:4222'}\n", nil, nil, "nats.embedded.listen", false, "not a loopback"},
		{"open listen without tls", "nats:\n  embedded:\n    listen: '0.0.0.0:4222'\n    users: [{user: a, password: b, role: public}]\n", nil, nil, "nats.embedded.listen", false, "nats.embedded.tls is not set"},
		{"open websocket without tls", "nats:\n  embedded:\n    websocket: '192.0.2.1:8443'\n    users: [{user: a, password: b, role: public}]\n", nil, nil, "nats.embedded.websocket", false, "nats.embedded.insecure: true"},
		{"tls cert alone", "nats:\n  embedded:\n    tls: {cert: c.pem}\n", nil, nil, "nats.embedded.tls", false, "both cert and key"},
		{"relay without board", "nats:\n  embedded:\n    users: [{user: a, password: b, role: relay}]\n", nil, nil, "nats.embedded.users[0].board", false, "needs the number of its board"},
		{"board of an organiser", "nats:\n  embedded:\n    users: [{user: a, password: b, role: organiser, board: 3}]\n", nil, nil, "nats.embedded.users[0].board", false, "only for role relay"},
		{"nkey without url", "nats: {nkey: x.nk}\n", nil, nil, "nats.nkey", false, "only used with nats.url"},
		{"nkey and creds", "nats: {url: 'nats://h:4222', nkey: x.nk, creds: x.creds}\n", nil, nil, "nats.nkey", false, "set one"},
		{"open websocket without users", "nats:\n  embedded: {websocket: ':8443'}\n", nil, nil, "nats.embedded.websocket", false, "not a loopback"},
		{"bad listen", "nats:\n  embedded: {listen: '4222'}\n", nil, nil, "nats.embedded.listen", false, "host:port"},
		{"creds without url", "nats: {creds: /x.creds}\n", nil, nil, "nats.creds", false, "only used with nats.url"},
		{"http listen", "http: {listen: 'localhost:http'}\n", nil, nil, "http.listen", false, "port must be a number"},
		{"admin listen open", "http: {admin_listen: '0.0.0.0:8081'}\n", nil, nil, "http.admin_listen", false, "not a loopback address"},
		{"admin listen all hosts", "http: {admin_listen: ':8081'}\n", nil, nil, "http.admin_listen", false, "not a loopback address"},
		{"admin listen env", "", nil, map[string]string{"DGTBRIDGE_HTTP_ADMIN_LISTEN": "192.168.1.5:8081"}, "http.admin_listen", false, "not a loopback address"},
		{"admin listen is http.listen", "http: {listen: '127.0.0.1:8080', admin_listen: '127.0.0.1:8080'}\n", nil, nil, "http.admin_listen", false, "its own port"},
		{"admin listen port", "http: {admin_listen: '127.0.0.1:metrics'}\n", nil, nil, "http.admin_listen", false, "port must be a number"},
		{"speak file", "relay: {speak: " + thisFile + "}\n", nil, nil, "relay.speak", false, "is a file"},
		{"lang", "boards:\n" + board(1, 1, "/dev/a", "blind: {side: black, port: /dev/b, lang: fr}"), nil, nil, "boards[0].blind.lang", false, `"fr" is not one of en, de, vi`},
		{"side", "boards:\n" + board(1, 1, "/dev/a", "blind: {side: red, port: /dev/b, lang: de}"), nil, nil, "boards[0].blind.side", false, "is not one of white, black"},
		{"blind port empty", "boards:\n" + board(1, 1, "/dev/a", "blind: {side: black, lang: de}"), nil, nil, "boards[0].blind.port", false, "must not be empty"},
		{"port empty", "boards:\n  - {round: 1, board: 1}\n", nil, nil, "boards[0].port", false, "must not be empty"},
		{"bus address range", "boards:\n" + board(1, 1, "/dev/a", "bus_address: 20000"), nil, nil, "boards[0].bus_address", false, "not between 0 and 16383"},
		{"duplicate port", "boards:\n" + board(1, 1, "/dev/a") + board(1, 2, "/dev/a"), nil, nil, "boards[1].port", false, "already used by boards[0]"},
		{"duplicate blind port", "boards:\n" + board(1, 1, "/dev/a") + board(1, 2, "/dev/b", "blind: {side: black, port: /dev/a, lang: de}"), nil, nil, "boards[1].blind.port", false, "already used by boards[0]"},
		{"duplicate round board", "boards:\n" + board(1, 1, "/dev/a") + board(1, 1, "/dev/b"), nil, nil, "boards[1].board", false, "already boards[0]"},
		{"round missing", "boards:\n  - {port: /dev/a, board: 1}\n", nil, nil, "boards[0].round", false, "missing: give the board's round, or event.round"},
		{"round negative", "boards:\n  - {port: /dev/a, board: 1, round: -1}\n", nil, nil, "boards[0].round", false, "1 or more"},
		{"board zero", "boards:\n  - {port: /dev/a, round: 1}\n", nil, nil, "boards[0].board", false, "1 or more"},
		{"fide id", "boards:\n" + board(1, 1, "/dev/a", "white_fide_id: 'ab12'"), nil, nil, "boards[0].white_fide_id", false, "digits only"},
		{"fen", "boards:\n" + board(1, 1, "/dev/a", "fen: 'rnbqkbnr/8 w'"), nil, nil, "boards[0].fen", false, "8 ranks"},
		{"partner missing", "boards:\n" + board(1, 1, "/dev/a", "variant: team-drop", "ruleset: bgo2026-team"), nil, nil, "boards[0].partner", false, "needs the board number"},
		{"partner absent", "boards:\n" + board(1, 1, "/dev/a", "variant: team-drop", "ruleset: bgo2026-team", "partner: 5"), nil, nil, "boards[0].partner", false, "round 1 has no board 5"},
		{"partner self", "boards:\n" + board(1, 1, "/dev/a", "variant: team-drop", "ruleset: bgo2026-team", "partner: 1"), nil, nil, "boards[0].partner", false, "its own partner"},
		{"partner not team-drop", "boards:\n" + board(1, 1, "/dev/a", "variant: team-drop", "ruleset: bgo2026-team", "partner: 2") + board(1, 2, "/dev/b"), nil, nil, "boards[0].partner", false, "not a team-drop game"},
		{"partner other round", "boards:\n" + board(1, 1, "/dev/a", "variant: team-drop", "ruleset: bgo2026-team", "partner: 2") + board(2, 2, "/dev/b", "variant: team-drop", "ruleset: bgo2026-team", "partner: 1"), nil, nil, "boards[0].partner", false, "round 1 has no board 2"},
		{"partner not mutual", "boards:\n" + board(1, 1, "/dev/a", "variant: team-drop", "ruleset: bgo2026-team", "partner: 2") + board(1, 2, "/dev/b", "variant: team-drop", "ruleset: bgo2026-team", "partner: 3") + board(1, 3, "/dev/c", "variant: team-drop", "ruleset: bgo2026-team", "partner: 2"), nil, nil, "boards[0].partner", false, "names board 3"},
		{"two boards valid, one bad env", two, nil, map[string]string{"DGTBRIDGE_PENALTIES": "never"}, "penalties", false, "is not one of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, err := load(t, tc.yaml, tc.overrides)
			if err == nil {
				t.Fatal("no error")
			}
			var ke *KeyError
			if !errors.As(err, &ke) {
				t.Fatalf("%v: not a *KeyError", err)
			}
			if !hasKey(err, tc.key) {
				t.Errorf("error %q does not name key %s", err, tc.key)
			}
			want := ErrInvalid
			if tc.unknown {
				want = ErrUnknownKey
			}
			if !errors.Is(err, want) {
				t.Errorf("error %q does not match %v", err, want)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q lacks %q", err, tc.msg)
			}
		})
	}
}

// hasKey reports whether one of the *KeyErrors in err is for key.
func hasKey(err error, key string) bool {
	var ke *KeyError
	if errors.As(err, &ke) && ke.Key == key {
		return true
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if hasKey(e, key) {
				return true
			}
		}
	}
	return false
}

func TestAllErrorsReported(t *testing.T) {
	_, err := load(t, "penalties: x\nevent: {id: 'A B', ruleset: y}\n", nil)
	for _, key := range []string{"penalties", "event.id", "event.ruleset"} {
		if !hasKey(err, key) {
			t.Errorf("error %q does not report %s", err, key)
		}
	}
}

// TestUndecodableWithTheRest: values that cannot be decoded (a duration
// without a unit, a word for a number or a boolean, deep in a board too)
// are reported with every other problem of the file, each once and by its
// key; before, the first undecodable value was the only problem reported.
func TestUndecodableWithTheRest(t *testing.T) {
	_, err := load(t, "record: maybe\npenalties: x\nnats: {replicas: three}\nevent: {public_delay: soon, id: 'A B'}\n"+
		"boards:\n  - {port: /dev/a, round: one, board: 1, variant: chess9, blind: {side: black, port: /dev/b, lang: de, bus_address: x}}\n", nil)
	keys := []string{"record", "penalties", "nats.replicas", "event.public_delay", "event.id", "boards[0].round",
		"boards[0].variant", "boards[0].blind.bus_address"}
	for _, key := range keys {
		if !hasKey(err, key) {
			t.Errorf("%s not reported:\n%v", key, err)
		}
	}
	var ce *Error
	if !errors.As(err, &ce) || len(ce.Problems) != len(keys) {
		t.Errorf("want %d problems, one per key:\n%v", len(keys), err)
	}
}

func TestValidConfigs(t *testing.T) {
	for _, tc := range []struct{ name, yaml string }{
		{"team-drop pair", "boards:\n" + board(1, 1, "/dev/a", "variant: team-drop", "ruleset: bgo2026-team", "partner: 2") + board(1, 2, "/dev/b", "variant: team-drop", "ruleset: bgo2026-team", "partner: 1")},
		{"bus line", "boards:\n" + board(1, 1, "/dev/a", "bus_address: 1") + board(1, 2, "/dev/a", "bus_address: 2")},
		{"auto ports", "boards:\n" + board(1, 1, "auto") + board(1, 2, "auto")},
		{"chess960 with fide", "boards:\n" + board(1, 1, "/dev/a", "variant: chess960")},
		{"xiangqi event", "event: {ruleset: xiangqi-vn2004, time_control: '-'}\nboards:\n" + board(1, 1, "/dev/a", "protocol: obp", "variant: xiangqi", "fen: 'rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w'")},
		{"multi-period tc", "event: {time_control: '40/7200:1800+30'}\n"},
		{"sandglass", "event: {time_control: '*180'}\n"},
		{"public users", "nats:\n  embedded:\n    listen: 0.0.0.0:4222\n    insecure: true\n    users:\n      - {user: v, password: p, role: public}\n"},
		{"tls", "nats:\n  embedded:\n    listen: 0.0.0.0:4222\n    websocket: 0.0.0.0:8443\n    tls: {cert: c.pem, key: k.pem}\n    users:\n      - {user: r, password: p, role: relay, board: 5}\n"},
		{"external nats with an nkey", "nats: {url: 'nats://hall:4222', nkey: /etc/dgtbridge.nk}\n"},
		{"speak folder", "relay: {speak: testdata}\n"},
		{"external nats", "nats: {url: 'nats://hall:4222', creds: /etc/x.creds, embedded: {listen: '0.0.0.0:1'}}\n"},
		{"admin listener on ::1", "http: {admin_listen: '[::1]:8081'}\n"},
		{"admin listener off", "http: {admin_listen: ''}\n"},
		{"admin and public on a free port each", "http: {listen: '127.0.0.1:0', admin_listen: '127.0.0.1:0'}\n"},
		{"lichess on this machine in clear", "lichess: {url: 'http://127.0.0.1:9663'}\n"},
		{"lichess on localhost in clear", "lichess: {url: 'http://localhost:9663'}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := load(t, tc.yaml, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestTimeControls(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"?", true}, {"-", true}, {"300", true}, {"5400+30", true}, {"40/9000:3600", true},
		{"40/7200:20/3600:900+30", true}, {"*180", true},
		{"90m", false}, {"5400+", false}, {"+30", false}, {"3600:40/900", false}, {"40/", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := load(t, "event: {time_control: '"+tc.in+"'}\n", nil)
			if (err == nil) != tc.ok {
				t.Errorf("event.time_control %q: %v, want ok=%v", tc.in, err, tc.ok)
			}
			if err != nil && !hasKey(err, "event.time_control") {
				t.Errorf("error %q does not name event.time_control", err)
			}
		})
	}
}

// TestRulesetNamesAgree keeps the contract's list in step with the rule
// sets that exist: every implemented rule set is a valid name here, for
// the variant it judges.
func TestRulesetNamesAgree(t *testing.T) {
	for _, name := range ruleset.Names() {
		if !slices.Contains(RulesetNames(), name) {
			t.Errorf("ruleset %q exists but config does not accept it", name)
			continue
		}
		rs, err := ruleset.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(rulesetVariants[name], rs.Variant) {
			t.Errorf("ruleset %q judges %q, config allows it for %v", name, rs.Variant, rulesetVariants[name])
		}
	}
}
