package dgt

import "fmt"

// Command is one host→board command. Every concrete
// type is a comparable value and encodes itself with AppendBinary, which
// fails with ErrInvalid only for values the wire format cannot carry.
type Command interface {
	// CmdByte returns the first byte on the wire (0x40–0x55, 0x60, 0x2B,
	// or a bus command 0x81–0x92).
	CmdByte() byte
	// AppendBinary appends the encoded command to b.
	AppendBinary(b []byte) ([]byte, error)
}

// SimpleCommand is a single-byte single-board command.
type SimpleCommand byte

// The single-byte single-board commands.
const (
	CmdReset              SimpleCommand = 0x40 // DGT_SEND_RESET: to IDLE
	CmdSendClock          SimpleCommand = 0x41 // DGT_SEND_CLK: reply 0x8D
	CmdSendBoard          SimpleCommand = 0x42 // DGT_SEND_BRD: reply 0x86
	CmdSendUpdate         SimpleCommand = 0x43 // DGT_SEND_UPDATE: field updates + clock every second
	CmdSendUpdateBoard    SimpleCommand = 0x44 // DGT_SEND_UPDATE_BRD: field updates only
	CmdReturnSerialNr     SimpleCommand = 0x45 // DGT_RETURN_SERIALNR: reply 0x91
	CmdReturnBusAddress   SimpleCommand = 0x46 // DGT_RETURN_BUSADRES: reply 0x90
	CmdSendTrademark      SimpleCommand = 0x47 // DGT_SEND_TRADEMARK: reply 0x92
	CmdSendEEMoves        SimpleCommand = 0x49 // DGT_SEND_EE_MOVES: reply 0x8F (~8 s)
	CmdToBusMode          SimpleCommand = 0x4A // DGT_TO_BUSMODE
	CmdSendUpdateNice     SimpleCommand = 0x4B // DGT_SEND_UPDATE_NICE: field updates + clock when changed
	CmdSendBatteryStatus  SimpleCommand = 0x4C // DGT_SEND_BATTERY_STATUS: reply 0xA0
	CmdSendVersion        SimpleCommand = 0x4D // DGT_SEND_VERSION: reply 0x93
	CmdStartBootloader    SimpleCommand = 0x4E // DGT_STARTBOOTLOADER: never send
	CmdSendBoard50B       SimpleCommand = 0x50 // DGT_SEND_BRD_50B: reply 0x94
	CmdScan50B            SimpleCommand = 0x51 // DGT_SCAN_50B
	CmdSendBoard50W       SimpleCommand = 0x52 // DGT_SEND_BRD_50W: reply 0x95
	CmdScan50W            SimpleCommand = 0x53 // DGT_SCAN_50W
	CmdScan100            SimpleCommand = 0x54 // DGT_SCAN_100
	CmdReturnLongSerialNr SimpleCommand = 0x55 // DGT_RETURN_LONG_SERIALNR: reply 0xA2
)

var simpleNames = map[SimpleCommand]string{
	CmdReset: "SEND_RESET", CmdSendClock: "SEND_CLK", CmdSendBoard: "SEND_BRD",
	CmdSendUpdate: "SEND_UPDATE", CmdSendUpdateBoard: "SEND_UPDATE_BRD",
	CmdReturnSerialNr: "RETURN_SERIALNR", CmdReturnBusAddress: "RETURN_BUSADRES",
	CmdSendTrademark: "SEND_TRADEMARK", CmdSendEEMoves: "SEND_EE_MOVES", CmdToBusMode: "TO_BUSMODE",
	CmdSendUpdateNice: "SEND_UPDATE_NICE", CmdSendBatteryStatus: "SEND_BATTERY_STATUS",
	CmdSendVersion: "SEND_VERSION", CmdStartBootloader: "STARTBOOTLOADER",
	CmdSendBoard50B: "SEND_BRD_50B", CmdScan50B: "SCAN_50B", CmdSendBoard50W: "SEND_BRD_50W",
	CmdScan50W: "SCAN_50W", CmdScan100: "SCAN_100", CmdReturnLongSerialNr: "RETURN_LONG_SERIALNR",
}

var _ Command = CmdReset

// Valid reports whether c is one of the single-byte commands.
func (c SimpleCommand) Valid() bool { _, ok := simpleNames[c]; return ok }

// String returns DGT's name without the "DGT_" prefix.
func (c SimpleCommand) String() string {
	if n, ok := simpleNames[c]; ok {
		return n
	}
	return fmt.Sprintf("SimpleCommand(0x%02x)", byte(c))
}

// CmdByte returns c.
func (c SimpleCommand) CmdByte() byte { return byte(c) }

// AppendBinary appends the byte.
func (c SimpleCommand) AppendBinary(b []byte) ([]byte, error) {
	if !c.Valid() {
		return b, invalidf("unknown command 0x%02x", byte(c))
	}
	return append(b, byte(c)), nil
}

// cmdSetLEDs is DGT_SET_LEDS.
const cmdSetLEDs = 0x60

// SetLEDs is DGT_SET_LEDS (0x60), Revelation II only: `60 04
// pattern start end 00`, fields in board numbering. Sending it to other
// boards froze them. Pattern 0 off, 1 on; firmware > 3.21: off
// with Start 0x40 clears all, pattern 2 sets options.
type SetLEDs struct {
	Pattern, Start, End byte
}

var _ Command = SetLEDs{}

// ClearLEDs is the command picochess uses to switch all LEDs off.
var ClearLEDs = SetLEDs{Pattern: 0, Start: 0x40, End: 0x40}

// CmdByte returns 0x60.
func (SetLEDs) CmdByte() byte { return cmdSetLEDs }

// AppendBinary appends the 6 bytes.
func (l SetLEDs) AppendBinary(b []byte) ([]byte, error) {
	return append(b, cmdSetLEDs, 4, l.Pattern, l.Start, l.End, 0), nil
}
