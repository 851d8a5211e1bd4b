package config

import (
	"errors"
	"fmt"
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

// Load builds the configuration from defaults, file, environment and
// overrides (later wins), validates it and returns it. Every problem is
// reported: the error is a single *KeyError or several joined with
// errors.Join, each naming its key; a file that cannot be read or parsed
// gives an error matching [ErrFile]. Load uses its own viper instance and
// is safe to call concurrently (environment changes aside).
func Load(opts LoadOptions) (Config, error) {
	v := viper.New()
	for k, val := range defaultKeys() {
		v.SetDefault(k, val)
	}

	file, err := findFile(opts)
	if err != nil {
		return Config{}, err
	}
	if file != "" {
		v.SetConfigFile(file)
		if t := configType(file); t != "" {
			v.SetConfigType(t)
		}
		if err := v.ReadInConfig(); err != nil {
			return Config{}, fmt.Errorf("%w %s: %w", ErrFile, file, err)
		}
	}

	v.SetEnvPrefix(EnvPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AllowEmptyEnv(true)
	v.AutomaticEnv()

	var errs []error
	scalar := defaultKeys()
	for _, k := range sortedKeys(opts.Overrides) {
		lk := strings.ToLower(k)
		if _, isList := scalar[lk].([]any); !isList && scalar[lk] != nil {
			v.Set(lk, opts.Overrides[k])
			continue
		}
		if scalar[lk] == nil {
			errs = append(errs, &KeyError{Key: k, Err: ErrUnknownKey})
		} else {
			errs = append(errs, keyErr(k, "a list cannot be set from the command line"))
		}
	}

	errs = append(errs, checkKeys(v.AllSettings(), reflect.TypeFor[Config](), "")...)
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}

	var c Config
	if err := v.UnmarshalExact(&c, viper.DecodeHook(durationHook)); err != nil {
		return Config{}, decodeErrors(err)
	}
	c.File = file
	if errs := c.Validate(); errs != nil {
		return Config{}, errs
	}
	return c, nil
}

// findFile returns the file to read, "" for none.
func findFile(opts LoadOptions) (string, error) {
	if opts.File != "" {
		st, err := os.Stat(opts.File)
		if err != nil {
			return "", fmt.Errorf("%w %s: %w", ErrFile, opts.File, err)
		}
		if st.IsDir() {
			return "", fmt.Errorf("%w %s: is a directory", ErrFile, opts.File)
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
			return "", fmt.Errorf("%w %s: %w", ErrFile, p, err)
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
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var de *mapstructure.DecodeError
		if errors.As(e, &de) {
			out = append(out, &KeyError{Key: de.Name(), Err: describe(de.Unwrap())})
			return
		}
		out = append(out, fmt.Errorf("%w: %w", ErrInvalid, e))
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
