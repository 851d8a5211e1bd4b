package config

import "time"

// DefaultAdminListen is http.admin_listen's default: loopback, on a port
// the system picks (logged at start), so that two daemons, the demo and
// tests on one machine never collide; set a fixed port (the example's
// 127.0.0.1:8081) for a metrics scraper.
const DefaultAdminListen = "127.0.0.1:0"

// Defaults returns the configuration used when no file, environment or
// override sets a key. It works with no file at all: embedded NATS on
// loopback without users, HTTP on loopback, no boards.
//
// Choices where the specs leave it open: event.id "event" (a valid subject
// token until the organiser names the event); event.time_control "?" (PGN
// for "unknown": the clock tells); event.public_delay 15m, the usual
// anti-cheating delay of broadcasts, so that forgetting it never exposes
// live moves to the public.
func Defaults() Config {
	return Config{
		DataDir: "./data",
		Record:  true,
		NATS: NATS{
			Prefix:   "dgt",
			Embedded: Embedded{Listen: "127.0.0.1:4222"},
			Replicas: 1,
		},
		HTTP:      HTTP{Listen: "127.0.0.1:8080", AdminListen: DefaultAdminListen},
		Penalties: PenaltiesAlert,
		Lichess:   Lichess{URL: DefaultLichessURL},
		Event: Event{
			ID:          "event",
			Ruleset:     "fide2018-standard",
			TimeControl: "?",
			PublicDelay: 15 * time.Minute,
		},
		Storage: Storage{
			CommitWindow: 2 * time.Millisecond,
			CompactEvery: 5 * time.Minute,
			CompactMiB:   32,
			DrainTimeout: 15 * time.Second,
			HistoryWait:  15 * time.Second,
		},
		Tracker: Tracker{HandHold: 20 * time.Second, LostAfter: 20 * time.Second, Reread: true},
		Daemon:  Daemon{MemoryLimit: MemoryLimitAuto},
	}
}

// defaultKeys returns the defaults as viper keys. Every scalar key is
// listed, so that the environment can set it; lists default to empty.
func defaultKeys() map[string]any {
	d := Defaults()
	return map[string]any{
		"data_dir":                d.DataDir,
		"record":                  d.Record,
		"nats.url":                d.NATS.URL,
		"nats.prefix":             d.NATS.Prefix,
		"nats.creds":              d.NATS.Creds,
		"nats.nkey":               d.NATS.Nkey,
		"nats.embedded.tls.cert":  d.NATS.Embedded.TLS.Cert,
		"nats.embedded.tls.key":   d.NATS.Embedded.TLS.Key,
		"nats.embedded.insecure":  d.NATS.Embedded.Insecure,
		"nats.websocket_url":      d.NATS.WebsocketURL,
		"nats.embedded.listen":    d.NATS.Embedded.Listen,
		"nats.embedded.websocket": d.NATS.Embedded.WebSocket,
		"nats.embedded.users":     []any{},
		"nats.replicas":           d.NATS.Replicas,
		"http.listen":             d.HTTP.Listen,
		"http.admin_listen":       d.HTTP.AdminListen,
		"http.pprof":              d.HTTP.Pprof,
		"relay.speak":             d.Relay.Speak,
		"penalties":               string(d.Penalties),
		"lichess.url":             d.Lichess.URL,
		"lichess.token_file":      d.Lichess.TokenFile,
		"livechess.listen":        d.LiveChess.Listen,
		"livechess.first_board":   d.LiveChess.FirstBoard,
		"livechess.origins":       []any{},
		"livechess.allow_remote":  d.LiveChess.AllowRemote,
		"event.id":                d.Event.ID,
		"event.name":              d.Event.Name,
		"event.site":              d.Event.Site,
		"event.ruleset":           d.Event.Ruleset,
		"event.time_control":      d.Event.TimeControl,
		"event.public_delay":      d.Event.PublicDelay.String(),
		"event.pairings":          d.Event.Pairings,
		"event.round":             d.Event.Round,
		"storage.commit_window":   d.Storage.CommitWindow.String(),
		"storage.compact_every":   d.Storage.CompactEvery.String(),
		"storage.compact_mib":     d.Storage.CompactMiB,
		"storage.drain_timeout":   d.Storage.DrainTimeout.String(),
		"storage.history_wait":    d.Storage.HistoryWait.String(),
		"tracker.press_grace":     d.Tracker.PressGrace.String(),
		"tracker.hand_hold":       d.Tracker.HandHold.String(),
		"tracker.lost_after":      d.Tracker.LostAfter.String(),
		"tracker.reread":          d.Tracker.Reread,
		"daemon.memory_limit":     d.Daemon.MemoryLimit,
		"boards":                  []any{},
		"spares":                  []any{},
	}
}
