//go:build !linux

package serialport

import "io"

// OpenBaud is [Open] at another speed (an Open Board Protocol
// board's port opens at 115200 baud, docs/open-board-protocol.md); away
// from Linux it uses go.bug.st/serial.
func OpenBaud(path string, baud int) (io.ReadWriteCloser, error) {
	return openGoSerial(path, baud)
}
