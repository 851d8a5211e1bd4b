package config

import (
	"reflect"
	"sort"
)

// Keys returns every key the configuration accepts, dotted
// ("event.round"); the keys inside a list item follow the list's name
// and "[]" ("boards[].blind.player", "nats.embedded.users[].role").
// A key holding a free map (event.rules, lichess.rounds) is listed
// without what goes inside it.
func Keys() []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for _, name := range tags(t) {
			f, _ := fieldByTag(t, name)
			key := join(prefix, name)
			out = append(out, key)
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Slice {
				key += "[]"
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && ft.PkgPath() == pkgPath {
				walk(ft, key)
			}
		}
	}
	walk(reflect.TypeFor[Config](), "")
	sort.Strings(out)
	return out
}
