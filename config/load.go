package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
)

// EnvPrefix is the prefix of the environment variables (see the package
// documentation for how keys map to names).
const EnvPrefix = "DGTBRIDGE"

// LoadOptions says where [Load] looks.
type LoadOptions struct {
	// File is the --config file. When set it must exist. When "", the
	// first existing file of SearchPaths is read, and none is fine.
	File string
	// SearchPaths are tried in order when File is ""; nil means
	// [DefaultSearchPaths].
	SearchPaths []string
	// Overrides are the command-line flags: key (as in the file, e.g.
	// "data_dir", "event.public_delay") to value. They win over
	// everything. Only scalar keys can be overridden.
	Overrides map[string]any
}

// DefaultSearchPaths returns ./dgtbridge.yaml and
// /etc/dgtbridge/dgtbridge.yaml, in that order.
func DefaultSearchPaths() []string {
	return []string{"dgtbridge.yaml", "/etc/dgtbridge/dgtbridge.yaml"}
}

// MaxFileSize bounds the configuration file. A hall of 2,000 boards
// written one key a line is about 600 KB; a larger file is a mistake (a
// recording or a log given as --config), and reading it would cost many
// times its size in memory.
const MaxFileSize = 4 << 20

// Load builds the configuration from defaults, file, environment and
// overrides (later wins), resolves relative paths, reads the pairing file
// and the token file, validates everything and returns it. Every problem
// is reported at once: the error is an [*Error] whose problems are
// *KeyErrors naming their keys (or one error matching [ErrFile] when the
// file cannot be read or parsed). Load opens no port and starts nothing;
// it uses its own viper instance and is safe to call concurrently
// (environment changes aside).
func Load(opts LoadOptions) (Config, error) {
	v := viper.New()
	for k, val := range defaultKeys() {
		v.SetDefault(k, val)
	}

	file, err := findFile(opts)
	if err != nil {
		return Config{}, newError(opts.File, []error{err})
	}
	if file != "" {
		data, err := readFile(file, MaxFileSize, "a configuration")
		if err != nil {
			return Config{}, newError(file, []error{fmt.Errorf("%w: %w", ErrFile, err)})
		}
		v.SetConfigType(configType(file))
		if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
			return Config{}, newError(file, []error{fmt.Errorf("%w: %w", ErrFile, err)})
		}
	}

	v.SetEnvPrefix(EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AllowEmptyEnv(true)
	v.AutomaticEnv()

	errs := applyOverrides(v, opts.Overrides)
	errs = append(errs, checkKeys(v.AllSettings(), reflect.TypeFor[Config](), "")...)
	for _, e := range errs {
		if !errors.Is(e, ErrUnknownKey) {
			// A list where a mapping belongs (or the like): the values
			// cannot be decoded.
			return Config{}, newError(file, errs)
		}
	}

	// Unknown keys are reported with every other problem: the rest is
	// decoded and checked as if they were not there.
	// A value that cannot be decoded (a duration without a unit, a word
	// where a number belongs) is reported with every other problem too:
	// the rest is decoded, read and checked, and the checks of the keys
	// that could not be decoded are left out (their zero values would
	// only repeat the problem).
	var c Config
	failed := map[string]bool{}
	if err := v.Unmarshal(&c, viper.DecodeHook(durationHook)); err != nil {
		for _, e := range unjoin(decodeErrors(err)) {
			var ke *KeyError
			if errors.As(e, &ke) {
				failed[ke.Key] = true
			}
			errs = append(errs, e)
		}
	}
	c.File = file
	c.resolvePaths(v, opts.Overrides)
	errs = append(errs, c.readFiles()...)
	if err := c.Validate(); err != nil {
		for _, e := range unjoin(err) {
			var ke *KeyError
			if errors.As(e, &ke) && failed[ke.Key] {
				continue
			}
			errs = append(errs, e)
		}
	}
	if err := newError(file, errs); err != nil {
		return Config{}, err
	}
	return c, nil
}

// applyOverrides sets the command line's keys (overrides) in v; a key
// that is not a configuration key, or names a list, is an error.
func applyOverrides(v *viper.Viper, overrides map[string]any) []error {
	var errs []error
	scalar := defaultKeys()
	for _, k := range sortedKeys(overrides) {
		lk := strings.ToLower(k)
		if _, isList := scalar[lk].([]any); !isList && scalar[lk] != nil {
			v.Set(lk, overrides[k])
			continue
		}
		if scalar[lk] == nil {
			errs = append(errs, unknownOverride(k, scalar))
		} else {
			errs = append(errs, keyErr(k, "a list cannot be set from the command line"))
		}
	}
	return errs
}

// unknownOverride is the error of a command-line key that is not a
// configuration key, with the closest known key as a hint.
func unknownOverride(k string, known map[string]any) *KeyError {
	best, bestD := "", 3
	for _, name := range sortedKeys(known) {
		if d := distance(strings.ToLower(k), name); d < bestD {
			best, bestD = name, d
		}
	}
	return &KeyError{Key: k, Err: unknown{hint: best}}
}

// readFile reads a whole file of at most limit bytes; what names the kind
// of file in the error.
func readFile(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, fmt.Errorf("%s is larger than %s: is it %s file?", path, size(limit), what)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %s: is it %s file?", path, size(limit), what)
	}
	return data, nil
}

// size prints a byte count in KiB or MiB.
func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// findFile returns the file to read, "" for none.
func findFile(opts LoadOptions) (string, error) {
	if opts.File != "" {
		st, err := os.Stat(opts.File)
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrFile, err)
		}
		if st.IsDir() {
			return "", fmt.Errorf("%w: %s is a directory", ErrFile, opts.File)
		}
		return opts.File, nil
	}
	paths := opts.SearchPaths
	if paths == nil {
		paths = DefaultSearchPaths()
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err == nil && !st.IsDir():
			return p, nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("%w: %w", ErrFile, err)
		}
	}
	return "", nil
}

// configType returns the viper type of a file by its extension; YAML when
// the extension says nothing.
func configType(file string) string {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".json":
		return "json"
	case ".toml":
		return "toml"
	}
	return "yaml"
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var durationType = reflect.TypeFor[time.Duration]()

// durationHook decodes durations: a string with units ("15m", "1h30m"),
// or the number 0. Other bare numbers are refused, because "900" would
// silently mean 900 nanoseconds.
func durationHook(from, to reflect.Type, data any) (any, error) {
	if to != durationType {
		return data, nil
	}
	switch x := data.(type) {
	case string:
		s := strings.TrimSpace(x)
		if s == "0" || s == "" {
			return time.Duration(0), nil
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, invalid{fmt.Sprintf("%q is not a duration (use a unit, e.g. 15m or 90s)", x)}
		}
		if d < 0 {
			return nil, invalid{fmt.Sprintf("%q is negative", x)}
		}
		return d, nil
	case time.Duration:
		return x, nil
	}
	rv := reflect.ValueOf(data)
	if rv.CanInt() && rv.Int() == 0 || rv.CanUint() && rv.Uint() == 0 || rv.CanFloat() && rv.Float() == 0 {
		return time.Duration(0), nil
	}
	return nil, invalid{fmt.Sprintf("%v has no unit (write e.g. 15m or 90s)", data)}
}

// decodeErrors turns mapstructure's errors into *KeyErrors.
func decodeErrors(err error) error {
	var out []error
	var walk func(error)
	walk = func(e error) {
		if de, ok := e.(*mapstructure.DecodeError); ok {
			out = append(out, &KeyError{Key: de.Name(), Err: describe(de.Unwrap())})
			return
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		// A wrapper ("decoding failed due to …") around the joined
		// errors: each of them, not only the first (errors.As).
		if inner := errors.Unwrap(e); inner != nil {
			walk(inner)
			return
		}
		out = append(out, invalid{e.Error()})
	}
	walk(err)
	return errors.Join(out...)
}

// describe rewords a mapstructure cause for a person editing YAML.
func describe(err error) error {
	var inv invalid
	if errors.As(err, &inv) {
		return inv
	}
	var pe *mapstructure.ParseError
	if errors.As(err, &pe) {
		return invalid{fmt.Sprintf("%s is not a valid %s", quote(pe.Value), typeWord(pe.Expected.Type()))}
	}
	var ue *mapstructure.UnconvertibleTypeError
	if errors.As(err, &ue) {
		return invalid{fmt.Sprintf("%s is not a valid %s", quote(ue.Value), typeWord(ue.Expected.Type()))}
	}
	return invalid{err.Error()}
}

func typeWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "whole number"
	case reflect.String:
		return "string"
	case reflect.Slice:
		return "list"
	case reflect.Struct, reflect.Map:
		return "mapping"
	}
	return t.String()
}

// quote prints strings quoted and other values as they are.
func quote(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}
