package daemon

import (
	"context"
	"io"
	"log/slog"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/port"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// obpBaud is the speed of an Open Board Protocol board's port
// (docs/open-board-protocol.md; ignored over USB CDC and on ptys).
const obpBaud = 115200

// hallProtocol is the hall's protocol of a configured board.
func hallProtocol(b config.Board) hall.Protocol {
	switch b.Protocol {
	case config.ProtocolOBP:
		return hall.ProtocolOBP
	case config.ProtocolManual:
		return hall.ProtocolManual
	}
	return hall.ProtocolDGT
}

// daemonBoard is the board of "run" for a configured board: a DGT board
// on its port (or found by port auto), an OBP board on its device path at
// 115200 baud, or a manual board with no port.
func BoardFor(b config.Board, claims *serialport.Claims, log *slog.Logger) hall.Board {
	switch hallProtocol(b) {
	case hall.ProtocolOBP:
		return hall.Board{Open: obpOpener(b.Port, claims)}
	case hall.ProtocolManual:
		return hall.Board{}
	}
	return hall.Board{Open: serialport.Opener(b.Port, claims, 0, log.With("port", b.Port))}
}

// obpOpener opens an OBP board's device path (claimed like a DGT board's,
// so two boards of one daemon never share a port).
func obpOpener(path string, claims *serialport.Claims) port.Opener {
	return func(ctx context.Context) (io.ReadWriteCloser, error) { return claims.Open(path, obpBaud) }
}
