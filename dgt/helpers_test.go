package dgt

import "fmt"

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func typeName(v any) string {
	s := fmt.Sprintf("%T", v)
	if i := len("dgt."); len(s) > i && s[:i] == "dgt." {
		return s[i:]
	}
	return s
}
