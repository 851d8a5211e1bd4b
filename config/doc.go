// Package config loads and validates the dgtbridge configuration
// (specs/interfaces.md §2) with viper.
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
// This package reads files and the environment only inside [Load]; nothing
// else in the module reads configuration.
package config
