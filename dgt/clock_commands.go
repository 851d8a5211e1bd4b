package dgt

import (
	"fmt"
	"time"
)

// cmdClock is DGT_CLOCK_MESSAGE, the envelope of every clock command:
// `2B size 03 cmd payload… 00`, size counting the bytes after itself.
const cmdClock = 0x2B

// ClockCmd is a clock command byte inside the 0x2B envelope, also
// what a clock ACK acknowledges.
type ClockCmd byte

// Clock command bytes.
const (
	ClockCmdDisplay   ClockCmd = 0x01 // XL 7-segment display
	ClockCmdIcons     ClockCmd = 0x02
	ClockCmdEnd       ClockCmd = 0x03 // back to the time display
	ClockCmdButton    ClockCmd = 0x08 // request the button state
	ClockCmdVersion   ClockCmd = 0x09
	ClockCmdSetNRun   ClockCmd = 0x0A // set and run times (how time penalties are applied)
	ClockCmdBeep      ClockCmd = 0x0B
	ClockCmdASCII     ClockCmd = 0x0C // DGT 3000 text
	ClockCmdRev2ASCII ClockCmd = 0x0D // Revelation II Pi-mode text
)

// String returns the command's name.
func (c ClockCmd) String() string {
	switch c {
	case ClockCmdDisplay:
		return "display"
	case ClockCmdIcons:
		return "icons"
	case ClockCmdEnd:
		return "end"
	case ClockCmdButton:
		return "button"
	case ClockCmdVersion:
		return "version"
	case ClockCmdSetNRun:
		return "setnrun"
	case ClockCmdBeep:
		return "beep"
	case ClockCmdASCII:
		return "ascii"
	case ClockCmdRev2ASCII:
		return "rev2ascii"
	}
	return fmt.Sprintf("ClockCmd(0x%02x)", byte(c))
}

// clockSize is the envelope size byte of each clock command.
var clockSize = map[ClockCmd]byte{
	ClockCmdDisplay: 0x0B, ClockCmdIcons: 0x0B, ClockCmdEnd: 3, ClockCmdButton: 3, ClockCmdVersion: 3,
	ClockCmdSetNRun: 0x0A, ClockCmdBeep: 4, ClockCmdASCII: 0x0C, ClockCmdRev2ASCII: 0x0F,
}

func appendClock(b []byte, c ClockCmd, payload ...byte) []byte {
	b = append(b, cmdClock, byte(3+len(payload)), 3, byte(c))
	b = append(b, payload...)
	return append(b, 0)
}

// ClockRequest is a clock command without payload: End (`2B 03 03 03
// 00`), Button or Version.
type ClockRequest struct {
	Cmd ClockCmd // ClockCmdEnd, ClockCmdButton or ClockCmdVersion
}

// The clock requests.
var (
	ClockEnd           = ClockRequest{ClockCmdEnd}
	ClockButtonRequest = ClockRequest{ClockCmdButton}
	ClockVersionQuery  = ClockRequest{ClockCmdVersion}
)

// ClockDisplay is the XL 7-segment display command (0x01): six
// characters of the layout "1A:BC 1D:EF" as segment bitmaps (see
// segments.go), the icons (dots, colons, leading "1") and a beep.
type ClockDisplay struct {
	Chars [6]byte // A, B, C, D, E, F (sent in the order C B A F E D)
	Icons byte    // IconRightDot … IconLeftOne
	Beep  bool    // beep byte 0x03 (true) or 0x01
}

// Icons of [ClockDisplay].
const (
	IconRightDot   = 0x01
	IconRightColon = 0x02
	IconRightOne   = 0x04
	IconLeftDot    = 0x08
	IconLeftColon  = 0x10
	IconLeftOne    = 0x20
)

// ClockIcons is the icon command (0x02).
type ClockIcons struct {
	Left, Right             byte // mode symbols: TIME, FISCH, DELAY, HGLASS, UPCNT, BYO, END = bits 0–6
	LeftPeriod, RightPeriod byte // period 1–5 (bits 0–4) + flag (bit 5)
	Special                 byte // bit0 clear all, bit1/5 sound, bit2 B-W, bit3 W-B, bit4 battery, bit6 keep
}

// ClockSetting is one side of [SetNRun]: plain binary hours 0–9, minutes
// and seconds 0–59 (not BCD), and count-up (+0x10 on the hours;
// not on XL firmware ≤ 1.14).
type ClockSetting struct {
	Hours, Minutes, Seconds uint8
	CountUp                 bool
}

// SettingOf returns the setting for d, rounded down to whole seconds and
// clamped to 0…9:59:59.
func SettingOf(d time.Duration) ClockSetting {
	s := int64(d / time.Second)
	s = max(0, min(s, 9*3600+59*60+59))
	return ClockSetting{Hours: uint8(s / 3600), Minutes: uint8(s / 60 % 60), Seconds: uint8(s % 60)}
}

// Duration returns the set time.
func (c ClockSetting) Duration() time.Duration {
	return time.Duration(c.Hours)*time.Hour + time.Duration(c.Minutes)*time.Minute + time.Duration(c.Seconds)*time.Second
}

func (c ClockSetting) valid() bool { return c.Hours <= 9 && c.Minutes <= 59 && c.Seconds <= 59 }

func (c ClockSetting) bytes() (h, m, s byte) {
	h = c.Hours
	if c.CountUp {
		h |= 0x10
	}
	return h, c.Minutes, c.Seconds
}

// SetNRun flags.
const (
	RunLeft       = 0x01 // left counts down
	RunRight      = 0x02 // right counts down
	RunPause      = 0x04
	ToggleOnLever = 0x08
)

// SetNRun is the set-and-run command (0x0A): sets both displays and
// which side runs. This is how a time penalty is applied to a DGT 3000
// (accepted only in the clock's PC-controlled mode).
type SetNRun struct {
	Left, Right ClockSetting
	Flags       byte // RunLeft | RunRight | RunPause | ToggleOnLever
}

// ClockBeep is the beep command (0x0B): Units × 64 ms.
type ClockBeep struct {
	Units uint8
}

// ClockText is the DGT 3000 ASCII command (0x0C): 8 characters
// (shorter text is padded with spaces) and a beep (0 none, else 62.5 ms +
// Beep/16 s).
type ClockText struct {
	Text string
	Beep uint8
}

// Rev2Text is the Revelation II Pi-mode text command (0x0D): 11
// characters (padded with spaces) and a beep.
type Rev2Text struct {
	Text string
	Beep uint8
}

var (
	_ Command = ClockRequest{}
	_ Command = ClockDisplay{}
	_ Command = ClockIcons{}
	_ Command = SetNRun{}
	_ Command = ClockBeep{}
	_ Command = ClockText{}
	_ Command = Rev2Text{}
)

// CmdByte returns 0x2B.
func (ClockRequest) CmdByte() byte { return cmdClock }

// CmdByte returns 0x2B.
func (ClockDisplay) CmdByte() byte { return cmdClock }

// CmdByte returns 0x2B.
func (ClockIcons) CmdByte() byte { return cmdClock }

// CmdByte returns 0x2B.
func (SetNRun) CmdByte() byte { return cmdClock }

// CmdByte returns 0x2B.
func (ClockBeep) CmdByte() byte { return cmdClock }

// CmdByte returns 0x2B.
func (ClockText) CmdByte() byte { return cmdClock }

// CmdByte returns 0x2B.
func (Rev2Text) CmdByte() byte { return cmdClock }

// AppendBinary appends `2B 03 03 cmd 00`.
func (r ClockRequest) AppendBinary(b []byte) ([]byte, error) {
	switch r.Cmd {
	case ClockCmdEnd, ClockCmdButton, ClockCmdVersion:
		return appendClock(b, r.Cmd), nil
	}
	return b, invalidf("clock command %v needs a payload", r.Cmd)
}

// AppendBinary appends `2B 0B 03 01 C B A F E D icons beep 00`.
func (d ClockDisplay) AppendBinary(b []byte) ([]byte, error) {
	beep := byte(0x01)
	if d.Beep {
		beep = 0x03
	}
	c := d.Chars
	return appendClock(b, ClockCmdDisplay, c[2], c[1], c[0], c[5], c[4], c[3], d.Icons, beep), nil
}

// AppendBinary appends `2B 0B 03 02 i0 i1 i2 i3 special 00 00 00 00`.
func (i ClockIcons) AppendBinary(b []byte) ([]byte, error) {
	return appendClock(b, ClockCmdIcons, i.Left, i.Right, i.LeftPeriod, i.RightPeriod, i.Special, 0, 0, 0), nil
}

// AppendBinary appends `2B 0A 03 0A lh lm ls rh rm rs flags 00`.
func (s SetNRun) AppendBinary(b []byte) ([]byte, error) {
	if !s.Left.valid() || !s.Right.valid() {
		return b, invalidf("setnrun time out of range (%+v, %+v)", s.Left, s.Right)
	}
	lh, lm, ls := s.Left.bytes()
	rh, rm, rs := s.Right.bytes()
	return appendClock(b, ClockCmdSetNRun, lh, lm, ls, rh, rm, rs, s.Flags), nil
}

// AppendBinary appends `2B 04 03 0B n 00`.
func (c ClockBeep) AppendBinary(b []byte) ([]byte, error) {
	return appendClock(b, ClockCmdBeep, c.Units), nil
}

func appendText8(b []byte, c ClockCmd, text string, n int, beep byte) ([]byte, error) {
	if len(text) > n {
		return b, invalidf("clock text %q longer than %d", text, n)
	}
	p := make([]byte, 0, n+1)
	p = append(p, text...)
	for len(p) < n {
		p = append(p, ' ')
	}
	return appendClock(b, c, append(p, beep)...), nil
}

// AppendBinary appends `2B 0C 03 0C c1..c8 beep 00`.
func (t ClockText) AppendBinary(b []byte) ([]byte, error) {
	return appendText8(b, ClockCmdASCII, t.Text, 8, t.Beep)
}

// AppendBinary appends `2B 0F 03 0D c1..c11 beep 00`.
func (t Rev2Text) AppendBinary(b []byte) ([]byte, error) {
	return appendText8(b, ClockCmdRev2ASCII, t.Text, 11, t.Beep)
}

// parseClockCommand decodes the envelope p (complete: 2 + size bytes).
func parseClockCommand(p []byte) (Command, error) {
	if p[2] != 3 || p[len(p)-1] != 0 {
		return nil, invalidf("clock envelope % x", p)
	}
	c := ClockCmd(p[3])
	want, ok := clockSize[c]
	if !ok {
		return nil, fmt.Errorf("%w: clock command 0x%02x", ErrUnknownCommand, p[3])
	}
	if p[1] != want {
		return nil, invalidf("clock command %v with size %d, want %d", c, p[1], want)
	}
	q := p[4 : len(p)-1]
	switch c {
	case ClockCmdEnd, ClockCmdButton, ClockCmdVersion:
		return ClockRequest{c}, nil
	case ClockCmdDisplay:
		return ClockDisplay{Chars: [6]byte{q[2], q[1], q[0], q[5], q[4], q[3]}, Icons: q[6], Beep: q[7]&0x02 != 0}, nil
	case ClockCmdIcons:
		return ClockIcons{Left: q[0], Right: q[1], LeftPeriod: q[2], RightPeriod: q[3], Special: q[4]}, nil
	case ClockCmdSetNRun:
		l, lok := settingFrom(q[0:3])
		r, rok := settingFrom(q[3:6])
		if !lok || !rok {
			return nil, invalidf("setnrun times % x", q[:6])
		}
		return SetNRun{Left: l, Right: r, Flags: q[6]}, nil
	case ClockCmdBeep:
		return ClockBeep{Units: q[0]}, nil
	case ClockCmdASCII:
		return ClockText{Text: string(q[:8]), Beep: q[8]}, nil
	case ClockCmdRev2ASCII:
		return Rev2Text{Text: string(q[:11]), Beep: q[11]}, nil
	}
	return nil, fmt.Errorf("%w: clock command 0x%02x", ErrUnknownCommand, p[3])
}

func settingFrom(q []byte) (ClockSetting, bool) {
	s := ClockSetting{Hours: q[0] & 0x0F, Minutes: q[1], Seconds: q[2], CountUp: q[0]&0x10 != 0}
	return s, q[0]&^0x1F == 0 && s.valid()
}
