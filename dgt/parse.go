package dgt

import (
	"fmt"
	"sync"
)

// Frame is one well-formed board→host frame as cut from a stream by
// [Decoder.NextFrame]: length and (bus) checksum already verified, content
// not yet decoded.
type Frame struct {
	ID      byte
	Address uint16 // bus mode: the sender's address
	// Data holds the data bytes, without header, address and checksum. It
	// aliases the decoder's buffer and is valid only until the next call
	// to the decoder.
	Data []byte
	// Offset is the stream offset of the id byte.
	Offset int64
	// Len is the frame's total length on the wire.
	Len int
}

// cutFrame examines p, which starts with a header byte, and returns the
// frame it begins. It returns ErrNeedMore when p holds only part of a
// valid frame, or a *FrameError (Offset relative to p) with the number of
// bytes to drop in n.
func cutFrame(m Mode, p []byte) (f Frame, n int, err error) {
	id := p[0]
	minL, maxL, ok := lengthRange(m, id)
	if !ok {
		return f, 1, &FrameError{ID: id, Skipped: 1, Reason: ErrUnknownMessage}
	}
	for j := 1; j < 3 && j < len(p); j++ {
		if p[j] >= 0x80 {
			return f, j, &FrameError{ID: id, Skipped: j, Reason: ErrTruncated, Detail: "header byte in the length"}
		}
	}
	if len(p) < 3 {
		return f, 0, ErrNeedMore
	}
	total := int(p[1])<<7 | int(p[2])
	if total < minL || total > maxL {
		return f, 1, &FrameError{ID: id, Skipped: 1, Reason: ErrLength,
			Detail: fmt.Sprintf("length %d, want %d to %d", total, minL, maxL)}
	}
	end := min(total, len(p))
	for j := 3; j < end; j++ {
		if p[j] >= 0x80 {
			return f, j, &FrameError{ID: id, Skipped: j, Reason: ErrTruncated,
				Detail: fmt.Sprintf("header byte 0x%02x after %d of %d bytes", p[j], j, total)}
		}
	}
	if len(p) < total {
		return f, 0, ErrNeedMore
	}
	f = Frame{ID: id, Len: total}
	if m == Bus {
		if c := checksum(p[:total-1]); c != p[total-1] {
			return Frame{}, total, &FrameError{ID: id, Skipped: total, Reason: ErrChecksum,
				Detail: fmt.Sprintf("got 0x%02x, computed 0x%02x", p[total-1], c)}
		}
		f.Address = uint16(p[3])<<7 | uint16(p[4])
		f.Data = p[5 : total-1]
	} else {
		f.Data = p[3:total]
	}
	return f, total, nil
}

// ParseMessage decodes the message at the start of p in mode m. It returns
// the message and the number of bytes it used; ErrNeedMore when p holds
// only the beginning of a frame; otherwise an error wrapping ErrGarbage,
// ErrUnknownMessage, ErrLength, ErrTruncated, ErrChecksum or ErrInvalid,
// with n the number of bytes to skip (≥ 1). Data payloads are copied.
func ParseMessage(m Mode, p []byte) (msg Message, n int, err error) {
	if len(p) == 0 {
		return nil, 0, ErrNeedMore
	}
	if p[0] < 0x80 {
		n = 1
		for n < len(p) && p[n] < 0x80 {
			n++
		}
		return nil, n, &FrameError{Skipped: n, Reason: ErrGarbage}
	}
	f, n, err := cutFrame(m, p)
	if err != nil {
		return nil, n, err
	}
	msg, err = ParseFrame(m, f)
	if err != nil {
		return nil, n, contentError(f, err)
	}
	return msg, n, nil
}

func contentError(f Frame, err error) *FrameError {
	d := err.Error()
	if p := ErrInvalid.Error() + ": "; len(d) > len(p) && d[:len(p)] == p {
		d = d[len(p):]
	}
	return &FrameError{Offset: f.Offset, ID: f.ID, Skipped: f.Len, Reason: ErrInvalid, Detail: d}
}

// ParseFrame decodes the content of a frame in mode m. Errors wrap
// ErrInvalid (or ErrUnknownMessage for an id the mode does not know).
func ParseFrame(m Mode, f Frame) (Message, error) {
	if m == Bus {
		return parseBus(f)
	}
	d := f.Data
	switch MsgID(f.ID) {
	case MsgBoardDump:
		var b BoardDump
		if len(d) != NumFields {
			return nil, invalidf("board dump has %d data bytes", len(d))
		}
		if err := decodeCodes(b.Fields[:], d); err != nil {
			return nil, err
		}
		return b, nil
	case MsgClock:
		return DecodeClock(d)
	case MsgFieldUpdate:
		u, err := DecodeFieldUpdate(d)
		if err != nil {
			return nil, err
		}
		if u.Extra == 0 {
			return boxedUpdates()[u.Field][u.Piece], nil
		}
		return u, nil
	case MsgEEMoves:
		return EEMoves{Data: string(d)}, nil
	case MsgBusAddress:
		if len(d) != 2 {
			return nil, invalidf("bus address has %d data bytes", len(d))
		}
		return BusAddress{Address: uint16(d[0])<<7 | uint16(d[1])}, nil
	case MsgSerialNr:
		return SerialNumber{Serial: string(d)}, nil
	case MsgTrademark:
		return Trademark{Text: string(d)}, nil
	case MsgVersion:
		if len(d) != 2 {
			return nil, invalidf("version has %d data bytes", len(d))
		}
		return Version{Major: d[0], Minor: d[1]}, nil
	case MsgBoardDump50B, MsgBoardDump50W:
		dd := DraughtsDump{White: MsgID(f.ID) == MsgBoardDump50W}
		if len(d) != 50 {
			return nil, invalidf("draughts dump has %d data bytes", len(d))
		}
		if err := decodeCodes(dd.Fields[:], d); err != nil {
			return nil, err
		}
		return dd, nil
	case MsgBatteryStatus:
		if len(d) < minBatteryLen || len(d) > maxBatteryLen {
			return nil, invalidf("battery status has %d data bytes", len(d))
		}
		return decodeBattery(d), nil
	case MsgLongSerialNr:
		return LongSerialNumber{Serial: string(d)}, nil
	}
	return nil, fmt.Errorf("%w 0x%02x in %v mode", ErrUnknownMessage, f.ID, m)
}

func parseBus(f Frame) (Message, error) {
	d, a := f.Data, f.Address
	switch MsgID(f.ID) {
	case MsgBusBoardDump:
		m := BusBoardDump{Address: a}
		if len(d) != NumFields {
			return nil, invalidf("bus board dump has %d data bytes", len(d))
		}
		if err := decodeCodes(m.Board.Fields[:], d); err != nil {
			return nil, err
		}
		return m, nil
	case MsgBusClock:
		c, err := DecodeClock(d)
		if err != nil {
			return nil, err
		}
		return BusClock{Address: a, Clock: c}, nil
	case MsgBusUpdate:
		return BusUpdate{Address: a, Data: string(d)}, nil
	case MsgBusFromStart:
		return BusFromStart{Address: a, Data: string(d)}, nil
	case MsgBusPing:
		if len(d) != 0 {
			return nil, invalidf("bus ping has %d data bytes", len(d))
		}
		return BusPing{Address: a}, nil
	case MsgBusStartGameWritten:
		if len(d) != 0 {
			return nil, invalidf("start-game-written has %d data bytes", len(d))
		}
		return BusStartGameWritten{Address: a}, nil
	case MsgBusVersion:
		switch len(d) {
		case 0:
			return BusVersion{Address: a, NoData: true}, nil
		case 2:
			return BusVersion{Address: a, Major: d[0], Minor: d[1]}, nil
		}
		return nil, invalidf("bus version has %d data bytes", len(d))
	case MsgBusBoardDump50B:
		m := BusDraughtsDump{Address: a}
		if len(d) != 50 {
			return nil, invalidf("bus draughts dump has %d data bytes", len(d))
		}
		if err := decodeCodes(m.Fields[:], d); err != nil {
			return nil, err
		}
		return m, nil
	}
	return nil, fmt.Errorf("%w 0x%02x in bus mode", ErrUnknownMessage, f.ID)
}

// boxedUpdates holds every ordinary field update already boxed in a
// Message, so the hot path of [Decoder.Next] does not allocate.
var boxedUpdates = sync.OnceValue(func() *[NumFields][16]Message {
	var t [NumFields][16]Message
	for f := range t {
		for p := range t[f] {
			t[f][p] = FieldUpdate{Field: Field(f), Piece: PieceCode(p)}
		}
	}
	return &t
})
