package emu

import (
	"errors"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// hostCmd is one host→board command as the board's firmware acts on it.
type hostCmd struct {
	op      byte
	addr    uint16 // bus commands
	payload []byte // 0x2B / 0x60: the bytes after the size byte
}

// isBusOp reports whether op is a bus-mode command (0x92 is the
// undocumented one LiveChess sends).
func isBusOp(op byte) bool { return op >= 0x81 && op <= 0x8D || op == 0x92 }

// cmdParser splits the host→board byte stream into commands with package
// dgt's command decoder (the one parser of host commands). Like the
// firmware it skips what it does not understand, bus commands with a bad
// checksum included, and resynchronises on the next command byte.
type cmdParser struct {
	d *dgt.CommandDecoder
}

func (p *cmdParser) feed(b []byte) {
	if p.d == nil {
		p.d = dgt.NewCommandDecoder()
	}
	p.d.Feed(b)
}

// next returns the next complete command; ok false when more bytes are
// needed.
func (p *cmdParser) next() (c hostCmd, ok bool) {
	if p.d == nil {
		return c, false
	}
	for {
		cmd, err := p.d.Next()
		if errors.Is(err, dgt.ErrNeedMore) {
			return c, false
		}
		if err != nil {
			continue // skipped, as the firmware does
		}
		return toHostCmd(cmd), true
	}
}

// toHostCmd turns a decoded command into what the firmware acts on: a
// wrapped command keeps its bytes after the size byte.
func toHostCmd(c dgt.Command) hostCmd {
	switch c := c.(type) {
	case dgt.BusCommand:
		return hostCmd{op: byte(c.Cmd), addr: c.Address}
	case dgt.SimpleCommand:
		return hostCmd{op: byte(c)}
	}
	b, err := c.AppendBinary(nil)
	if err != nil || len(b) < 2 {
		return hostCmd{op: c.CmdByte()}
	}
	return hostCmd{op: b[0], payload: b[2:]}
}
