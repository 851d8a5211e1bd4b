package dgt

import "fmt"

// BusCmd is a bus-mode command byte.
type BusCmd byte

// The bus commands.
const (
	BusCmdSendClock         BusCmd = 0x81 // reply 0x84
	BusCmdSendBoard         BusCmd = 0x82 // reply 0x83
	BusCmdSendChanges       BusCmd = 0x83 // reply 0x85
	BusCmdRepeatChanges     BusCmd = 0x84 // reply 0x85 (the previous packet again)
	BusCmdSetStartGame      BusCmd = 0x85 // reply 0x88
	BusCmdSendFromStart     BusCmd = 0x86 // reply 0x86
	BusCmdPing              BusCmd = 0x87 // reply 0x87; address 0: every board, at random within 1100 ms
	BusCmdEndBusMode        BusCmd = 0x88 // to single-board mode; never with address 0 on a shared bus
	BusCmdReset             BusCmd = 0x89 // power-up reset
	BusCmdIgnoreNextBusPing BusCmd = 0x8A // reply 0x87 at once
	BusCmdSendVersion       BusCmd = 0x8B // reply 0x89
	BusCmdSendBoard50B      BusCmd = 0x8C // reply 0x8A (draughts)
	BusCmdSendAll           BusCmd = 0x8D // changes, clock and board
	BusCmdRandomizePing     BusCmd = 0x92 // undocumented, sent by LiveChess; boards may ignore it
)

var busCmdNames = map[BusCmd]string{
	BusCmdSendClock: "BUS_SEND_CLK", BusCmdSendBoard: "BUS_SEND_BRD", BusCmdSendChanges: "BUS_SEND_CHANGES",
	BusCmdRepeatChanges: "BUS_REPEAT_CHANGES", BusCmdSetStartGame: "BUS_SET_START_GAME",
	BusCmdSendFromStart: "BUS_SEND_FROM_START", BusCmdPing: "BUS_PING", BusCmdEndBusMode: "BUS_END_BUSMODE",
	BusCmdReset: "BUS_RESET", BusCmdIgnoreNextBusPing: "BUS_IGNORE_NEXT_BUS_PING",
	BusCmdSendVersion: "BUS_SEND_VERSION", BusCmdSendBoard50B: "BUS_SEND_BRD_50B",
	BusCmdSendAll: "BUS_SEND_ALL_D", BusCmdRandomizePing: "BUS_0x92",
}

// Valid reports whether c is a known bus command.
func (c BusCmd) Valid() bool { _, ok := busCmdNames[c]; return ok }

// String returns DGT's name without the "DGT_" prefix.
func (c BusCmd) String() string {
	if n, ok := busCmdNames[c]; ok {
		return n
	}
	return fmt.Sprintf("BusCmd(0x%02x)", byte(c))
}

// BusCommand is a bus-mode command frame: `cmd addr_hi addr_lo
// checksum`, checksum = sum of the three & 0x7F. Address 0 is the
// broadcast address.
type BusCommand struct {
	Cmd     BusCmd
	Address uint16
}

var _ Command = BusCommand{}

// CmdByte returns Cmd.
func (c BusCommand) CmdByte() byte { return byte(c.Cmd) }

// AppendBinary appends the 4-byte frame.
func (c BusCommand) AppendBinary(b []byte) ([]byte, error) {
	if !c.Cmd.Valid() {
		return b, invalidf("unknown bus command 0x%02x", byte(c.Cmd))
	}
	if c.Address > MaxBusAddress {
		return b, invalidf("bus address %d > %d", c.Address, MaxBusAddress)
	}
	p := [3]byte{byte(c.Cmd), byte(c.Address >> 7), byte(c.Address & 0x7F)}
	return append(b, p[0], p[1], p[2], checksum(p[:])), nil
}
