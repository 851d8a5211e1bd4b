package dgt

import "fmt"

// Message is one board→host message. Every concrete type is a
// comparable value (those carrying byte payloads hold them as strings)
// and encodes itself with AppendBinary, which appends the complete frame
// (header, length, data and, for bus replies, address and checksum) to b.
// AppendBinary fails with ErrInvalid only for field values the wire
// format cannot carry.
type Message interface {
	// MsgID returns the message id byte (bit 7 set).
	MsgID() MsgID
	// AppendBinary appends the encoded frame to b.
	AppendBinary(b []byte) ([]byte, error)
}

// MsgID is a board→host message id byte (bit 7 set). Single-board and bus
// ids overlap (0x86 is BOARD_DUMP or BUS_FROM_START): the [Mode]
// decides.
type MsgID byte

// Single-board message ids.
const (
	MsgBoardDump     MsgID = 0x86 // DGT_BOARD_DUMP, 64 piece codes
	MsgClock         MsgID = 0x8D // DGT_BWTIME: clock times or clock ACK
	MsgFieldUpdate   MsgID = 0x8E // DGT_FIELD_UPDATE
	MsgEEMoves       MsgID = 0x8F // DGT_EE_MOVES
	MsgBusAddress    MsgID = 0x90 // DGT_BUSADRES
	MsgSerialNr      MsgID = 0x91 // DGT_SERIALNR
	MsgTrademark     MsgID = 0x92 // DGT_TRADEMARK
	MsgVersion       MsgID = 0x93 // DGT_VERSION
	MsgBoardDump50B  MsgID = 0x94 // DGT_BOARD_DUMP_50B (draughts)
	MsgBoardDump50W  MsgID = 0x95 // DGT_BOARD_DUMP_50W (draughts)
	MsgBatteryStatus MsgID = 0xA0 // DGT_BATTERY_STATUS
	MsgLongSerialNr  MsgID = 0xA2 // DGT_LONG_SERIALNR
)

// Bus-mode reply ids.
const (
	MsgBusBoardDump        MsgID = 0x83 // DGT_MSG_BUS_BRD_DUMP
	MsgBusClock            MsgID = 0x84 // DGT_MSG_BUS_BWTIME
	MsgBusUpdate           MsgID = 0x85 // DGT_MSG_BUS_UPDATE (changes)
	MsgBusFromStart        MsgID = 0x86 // DGT_MSG_BUS_FROM_START
	MsgBusPing             MsgID = 0x87 // DGT_MSG_BUS_PING
	MsgBusStartGameWritten MsgID = 0x88 // DGT_MSG_BUS_START_GAME_WRITTEN
	MsgBusVersion          MsgID = 0x89 // DGT_MSG_BUS_VERSION
	MsgBusBoardDump50B     MsgID = 0x8A // DGT_MSG_BUS_BRD_DUMP_50B (draughts)
)

// String returns the id in hex.
func (id MsgID) String() string { return fmt.Sprintf("0x%02x", byte(id)) }

// Mode selects the framing and the id table: a board in single-board mode
// or boards on a bus. The zero value is SingleBoard.
type Mode uint8

// Modes.
const (
	SingleBoard Mode = iota
	Bus
)

// String returns "single" or "bus".
func (m Mode) String() string {
	if m == Bus {
		return "bus"
	}
	return "single"
}

// maxDataLen is the largest data length of any frame: the EEPROM dump
// (total 0x2000 - 0x100 + 3).
const maxDataLen = 0x1F00

// lengthRange is the allowed range of total frame lengths of a message id
// in a mode (inclusive); ok false for an unknown id.
func lengthRange(m Mode, id byte) (min, max int, ok bool) {
	if m == Bus {
		const h = 6 // id, 2 length, 2 address, checksum
		switch MsgID(id) {
		case MsgBusBoardDump:
			return h + 64, h + 64, true
		case MsgBusClock:
			return h + 7, h + 7, true
		case MsgBusUpdate, MsgBusFromStart:
			return h, h + maxDataLen, true
		case MsgBusPing, MsgBusStartGameWritten:
			return h, h, true
		case MsgBusVersion:
			return h, h + 2, true
		case MsgBusBoardDump50B:
			return h + 50, h + 50, true
		}
		return 0, 0, false
	}
	switch MsgID(id) {
	case MsgBoardDump:
		return 67, 67, true
	case MsgClock:
		return 10, 10, true
	case MsgFieldUpdate:
		return 5, 5, true
	case MsgEEMoves:
		return 3, 3 + maxDataLen, true
	case MsgBusAddress:
		return 5, 5, true
	case MsgSerialNr:
		return 3 + 1, 3 + maxSerialLen, true
	case MsgTrademark:
		return 3, 3 + maxTrademarkLen, true
	case MsgVersion:
		return 5, 5, true
	case MsgBoardDump50B, MsgBoardDump50W:
		return 53, 53, true
	case MsgBatteryStatus:
		return 3 + minBatteryLen, 3 + maxBatteryLen, true
	case MsgLongSerialNr:
		return 3 + 1, 3 + maxSerialLen, true
	}
	return 0, 0, false
}

// appendHeader appends id and the 14-bit total length split 7+7.
func appendHeader(b []byte, id MsgID, total int) []byte {
	return append(b, byte(id), byte(total>>7)&0x7F, byte(total)&0x7F)
}

// appendFrame appends a single-board frame with the given data.
func appendFrame(b []byte, id MsgID, data ...byte) []byte {
	b = appendHeader(b, id, 3+len(data))
	return append(b, data...)
}

// checksum is the bus checksum: the sum of bytes & 0x7F.
func checksum(p []byte) byte {
	var s byte
	for _, c := range p {
		s += c
	}
	return s & 0x7F
}

// appendBusFrame appends a bus reply frame: header, address, data,
// checksum.
func appendBusFrame(b []byte, id MsgID, addr uint16, data []byte) ([]byte, error) {
	if addr > MaxBusAddress {
		return b, invalidf("bus address %d > %d", addr, MaxBusAddress)
	}
	if len(data) > maxDataLen {
		return b, invalidf("%d data bytes > %d", len(data), maxDataLen)
	}
	if err := check7bit(data); err != nil {
		return b, err
	}
	start := len(b)
	b = appendHeader(b, id, 6+len(data))
	b = append(b, byte(addr>>7), byte(addr&0x7F))
	b = append(b, data...)
	return append(b, checksum(b[start:])), nil
}

// check7bit reports ErrInvalid when a data byte has bit 7 set: only
// header bytes may.
func check7bit(data []byte) error {
	for i, c := range data {
		if c >= 0x80 {
			return invalidf("data byte %d is 0x%02x (bit 7 set)", i, c)
		}
	}
	return nil
}

// check7bitString is check7bit for a string payload.
func check7bitString(data string) error {
	for i := 0; i < len(data); i++ {
		if data[i] >= 0x80 {
			return invalidf("data byte %d is 0x%02x (bit 7 set)", i, data[i])
		}
	}
	return nil
}

// MaxBusAddress is the largest 14-bit bus address.
const MaxBusAddress = 1<<14 - 1

// Encode returns the encoded frame of m; see [Message].
func Encode(m Message) ([]byte, error) { return m.AppendBinary(nil) }
