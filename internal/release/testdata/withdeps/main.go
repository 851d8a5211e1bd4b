// Command withdeps is a binary with outside modules in it, for
// TestReadLicences.
package main

import (
	"fmt"

	"go.bug.st/serial"
	"golang.org/x/sys/unix"
)

func main() {
	ports, _ := serial.GetPortsList()
	fmt.Println(len(ports), unix.Getpid())
}
