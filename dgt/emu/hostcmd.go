package emu

// hostCmd is one host→board command as the board's firmware parses it.
type hostCmd struct {
	op      byte
	addr    uint16 // bus commands
	badSum  bool   // bus command whose checksum does not match
	payload []byte // 0x2B / 0x60: the bytes after the size byte
}

// isBus reports whether op is a bus-mode command (§4.5; 0x92 is the
// undocumented one LiveChess sends).
func isBusOp(op byte) bool { return op >= 0x81 && op <= 0x8D || op == 0x92 }

// cmdParser splits the host→board byte stream into commands. Like the
// firmware it skips bytes it does not understand and resynchronises on the
// next command byte. Pure and allocation-light.
type cmdParser struct {
	buf []byte
}

func (p *cmdParser) feed(b []byte) { p.buf = append(p.buf, b...) }

// next returns the next complete command; ok false when more bytes are
// needed.
func (p *cmdParser) next() (c hostCmd, ok bool) {
	for len(p.buf) > 0 {
		op := p.buf[0]
		switch {
		case isBusOp(op):
			if len(p.buf) < 4 {
				return c, false
			}
			if p.buf[1]|p.buf[2]|p.buf[3] >= 0x80 {
				p.buf = p.buf[1:] // a header byte inside: resync there
				continue
			}
			c = hostCmd{op: op, addr: uint16(p.buf[1])<<7 | uint16(p.buf[2])}
			c.badSum = sum7(p.buf[:3]) != p.buf[3]
			p.buf = p.buf[4:]
			return c, true
		case op == 0x2B || op == 0x60:
			if len(p.buf) < 2 {
				return c, false
			}
			n := int(p.buf[1])
			if len(p.buf) < 2+n {
				return c, false
			}
			c = hostCmd{op: op, payload: append([]byte(nil), p.buf[2:2+n]...)}
			p.buf = p.buf[2+n:]
			return c, true
		case op >= 0x40 && op <= 0x55:
			p.buf = p.buf[1:]
			return hostCmd{op: op}, true
		default:
			p.buf = p.buf[1:]
		}
	}
	p.buf = p.buf[:0]
	return c, false
}
