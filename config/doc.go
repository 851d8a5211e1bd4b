// Package config loads and validates the dgtbridge configuration
// (docs/contract.md §2, docs/configuration.md) with viper.
//
// [Load] layers four sources, later wins: built-in defaults ([Defaults]),
// one YAML (or JSON/TOML, by extension) file, the environment, and
// overrides passed in by the command line. It unmarshals once into the
// typed [Config] and validates every value. Unknown keys and invalid values
// are reported as [*KeyError]s naming the full key path
// ("boards[2].variant", "nats.embedded.users[0].role"); all problems are
// reported at once, joined with [errors.Join].
//
// # Environment
//
// The environment name of a key is its path in upper case with every dot
// replaced by an underscore, prefixed with DGTBRIDGE_: nats.url is
// DGTBRIDGE_NATS_URL, data_dir is DGTBRIDGE_DATA_DIR, event.public_delay is
// DGTBRIDGE_EVENT_PUBLIC_DELAY. The mapping runs from the known keys to
// names, never back, so the underscores inside key names (data_dir,
// public_delay, time_control) are not ambiguous. Only scalar keys can be
// set from the environment; the lists (boards, nats.embedded.users) come
// from the file. An environment variable that is set but empty counts: it
// sets the key to "" (DGTBRIDGE_HTTP_LISTEN= disables HTTP).
//
// # Rule-set overrides
//
// event.rules and boards[].rules (beyond contract.md §2) change
// parameters of the rule set: a mapping from the snake_case names of
// ruleset.OverrideKeys to values ("illegal_loss_at: 3", "illegal_time_award:
// 1m"). event.rules applies to every board; a board's rules win key by key
// ([Config.Effective] merges them). Both are checked while loading through
// ruleset.RuleSet.WithOverrides against the board's effective rule set;
// a bad key or value is a *KeyError at its full path
// ("boards[1].rules.illegal_loss_at") that matches [ErrInvalid] and
// unwraps to the *ruleset.OverrideError. [Board.RuleSet] returns the rule
// set a board is judged by.
//
// # Files the configuration names
//
// Relative paths written in the file (data_dir, event.pairings,
// lichess.token_file, nats.creds, a relay.speak folder) are made relative
// to the file's folder; those from the environment, the command line or
// the defaults stay relative to the working directory. [Load] reads the
// pairing file (package pairings: CSV or TRF-16) and fills each board's
// players, FIDE ids and teams for its round where the board gives none,
// and reads the Lichess token. A configuration file over [MaxFileSize] is
// refused unread. [Config.Unsupported] names the boards this build of the
// daemon does not run yet (valid configuration all the same).
//
// This package reads files and the environment only inside [Load]; nothing
// else in the module reads configuration. docs/configuration.md describes
// every key for the people who write the file.
package config
