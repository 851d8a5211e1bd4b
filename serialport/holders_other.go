//go:build !linux

package serialport

// Holders returns no holders: only Linux tells which process holds a
// port (there, see the Linux build's doc). Opening a held port still
// fails where the system locks it.
func Holders(paths []string) map[string][]Holder { return map[string][]Holder{} }
