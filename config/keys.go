package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// checkKeys walks raw (the merged settings) against the struct type t and
// returns a *KeyError for every key that is not a field, and for every
// mapping or list that has the wrong shape. Unlike mapstructure's
// ErrorUnused it names the full path of keys inside list items
// ("boards[1].prot").
func checkKeys(raw map[string]any, t reflect.Type, prefix string) []error {
	var errs []error
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		path := join(prefix, k)
		f, ok := fieldByTag(t, k)
		if !ok {
			errs = append(errs, unknownKey(path, tags(t)))
			continue
		}
		errs = append(errs, checkValue(raw[k], f.Type, path)...)
	}
	return errs
}

// checkValue checks the shape of v against type t at path.
func checkValue(v any, t reflect.Type, path string) []error {
	if v == nil {
		return nil
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && t.PkgPath() == pkgPath:
		m, ok := asMap(v)
		if !ok {
			return []error{keyErr(path, "expected a mapping with the keys %s, got %v", tagList(t), v)}
		}
		return checkKeys(m, t, path)
	case t.Kind() == reflect.Map:
		if _, ok := asMap(v); !ok {
			return []error{keyErr(path, "expected a mapping (e.g. {1: AbCd1234}), got %v", v)}
		}
		return nil
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		list, ok := v.([]any)
		if !ok {
			return []error{keyErr(path, "expected a list (set it in the configuration file), got %v", v)}
		}
		var errs []error
		for i, item := range list {
			errs = append(errs, checkValue(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
		return errs
	}
	return nil
}

var pkgPath = reflect.TypeFor[Config]().PkgPath()

func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[fmt.Sprint(k)] = x
		}
		return out, true
	}
	return nil, false
}

// fieldByTag finds the field of struct t whose mapstructure tag is name.
func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if tag != "" && tag != "-" && tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// tags returns the keys of struct t.
func tags(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("mapstructure"), ",")
		if tag != "" && tag != "-" {
			names = append(names, tag)
		}
	}
	return names
}

// tagList returns the keys of struct t, comma-separated.
func tagList(t reflect.Type) string { return strings.Join(tags(t), ", ") }

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}
