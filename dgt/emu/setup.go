package emu

import (
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// Setup configure an emulated board and clock. The zero value is a
// board with serial number 01025 (bus address 1025), firmware 1.7, a DGT
// 3000 (clock version 2.0) set to 90 minutes + 30 s Fischer, the standard
// start position, a 220 ms scan and no sensor flicker.
type Setup struct {
	// Serial is the 5-digit serial number (DGT_RETURN_SERIALNR);
	// default "01025".
	Serial string
	// LongSerial is the 10-digit long serial number; default Serial
	// left-padded with zeros.
	LongSerial string
	// BusAddress is the board's bus address; default the serial number
	// read as a decimal number.
	BusAddress uint16
	// Version is the firmware version (major, minor); default 1.7.
	Version [2]byte
	// Trademark is the DGT_TRADEMARK text; default names the emulator.
	Trademark string
	// NoClock: no clock is cabled to the board; clock messages carry the
	// "no clock" bit and clock commands are not acknowledged.
	NoClock bool
	// ClockVersion is what the clock's version ACK reports; default 2.0
	// (a DGT 3000). XL clocks report 1.x.
	ClockVersion [2]byte
	// Clock is the time control the clock is set to; default 90 min +
	// 30 s Fischer.
	Clock ClockSetting
	// AckDelay is how long the clock takes to acknowledge a command
	// (DGT: "normally within 1–2 s"); default 150 ms.
	AckDelay time.Duration
	// ScanPeriod is the time of one sensor scan; default 220 ms.
	// [DrawScan] gives a real board's spread (200–250 ms).
	ScanPeriod time.Duration
	// ScanPhase is when, after power-up, the first scan starts (taken
	// modulo ScanPeriod); default 0. Boards powered up together scan at
	// different phases in real life: see [DrawScan].
	ScanPhase time.Duration
	// Flicker is the probability, per scan, that one sensor misreads an
	// occupied square as empty for one scan; default 0.
	Flicker float64
	// Seed seeds the random choices (flicker, broadcast ping delays), so
	// runs are reproducible.
	Seed uint64
	// Orientation is how the board is placed: Rotated reports White's
	// pieces at fields 0–15.
	Orientation dgt.Orientation
	// Placement is what stands on the board at power-up; nil is the
	// standard start position.
	Placement *rules.Placement
	// NoEEPROM: the board keeps no event log: DGT_SEND_EE_MOVES
	// gets no reply and SEND_FROM_START returns no records. (Bus polling
	// still reports changes.)
	NoEEPROM bool
	// EEFBit is how the board writes the f bit of its EEPROM clock
	// records; default dgt.FLeft (f = 1 for the left display, as DGT's
	// header says; the sources disagree).
	EEFBit dgt.EEFBit
	// BatteryPercent is reported by DGT_SEND_BATTERY_STATUS; default 100.
	BatteryPercent int
}

// withDefaults fills in the documented defaults.
func (o Setup) withDefaults() Setup {
	if o.Serial == "" {
		o.Serial = "01025"
	}
	if o.LongSerial == "" {
		o.LongSerial = o.Serial
		for len(o.LongSerial) < 10 {
			o.LongSerial = "0" + o.LongSerial
		}
	}
	if o.BusAddress == 0 {
		n := 0
		for _, c := range o.Serial {
			if c >= '0' && c <= '9' {
				n = n*10 + int(c-'0')
			}
		}
		o.BusAddress = uint16(n & dgt.MaxBusAddress)
	}
	if o.Version == [2]byte{} {
		o.Version = [2]byte{1, 7}
	}
	if o.Trademark == "" {
		o.Trademark = "dgtbridge emulated DGT board, serial " + o.Serial
	}
	if o.ClockVersion == [2]byte{} {
		o.ClockVersion = [2]byte{2, 0}
	}
	if o.Clock == (ClockSetting{}) {
		o.Clock = ClockSetting{Base: 90 * time.Minute, Increment: 30 * time.Second, Mode: Fischer}
	}
	if o.AckDelay <= 0 {
		o.AckDelay = 150 * time.Millisecond
	}
	if o.ScanPeriod <= 0 {
		o.ScanPeriod = DefaultScanPeriod
	}
	o.ScanPhase = o.Scan().Phase
	if o.BatteryPercent == 0 {
		o.BatteryPercent = 100
	}
	return o
}

// Scan returns the board's scan timing (defaults filled in).
func (o Setup) Scan() Scan {
	p := o.ScanPeriod
	if p <= 0 {
		p = DefaultScanPeriod
	}
	ph := o.ScanPhase % p
	if ph < 0 {
		ph += p
	}
	return Scan{Period: p, Phase: ph}
}

// StartPlacement returns the standard chess start position.
func StartPlacement() rules.Placement {
	p := rules.NewPlacement(rules.Chess8x8)
	back := [8]rules.Kind{rules.Rook, rules.Knight, rules.Bishop, rules.Queen, rules.King, rules.Bishop, rules.Knight, rules.Rook}
	for f := 0; f < 8; f++ {
		p.Sq[rules.Chess8x8.Square(f, 0)] = rules.Piece{Color: rules.White, Kind: back[f]}
		p.Sq[rules.Chess8x8.Square(f, 1)] = rules.Piece{Color: rules.White, Kind: rules.Pawn}
		p.Sq[rules.Chess8x8.Square(f, 6)] = rules.Piece{Color: rules.Black, Kind: rules.Pawn}
		p.Sq[rules.Chess8x8.Square(f, 7)] = rules.Piece{Color: rules.Black, Kind: back[f]}
	}
	return p
}
