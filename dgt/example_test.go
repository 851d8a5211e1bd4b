package dgt_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
)

// The link goroutine feeds what the port returned and drains the
// decoder; frame errors are reported and decoding carries on.
func ExampleDecoder() {
	d := dgt.NewDecoder(dgt.SingleBoard)
	d.Feed([]byte{0x8E, 0x00, 0x05, 0x34, 0x00, 0x13, 0x8E, 0x00}) // e2 empty, a stray byte, half a frame
	d.Feed([]byte{0x05, 0x24, 0x01})                               // the rest: e4 white pawn
	for {
		m, err := d.Next()
		if errors.Is(err, dgt.ErrNeedMore) {
			break
		}
		if err != nil {
			fmt.Println("skipped:", err)
			continue
		}
		if u, ok := m.(dgt.FieldUpdate); ok {
			fmt.Println(u, "=", u.Square(dgt.Normal))
		}
	}
	// Output:
	// e2 . = 12
	// skipped: dgt: bytes outside a frame at offset 5 (1 byte skipped)
	// e4 P = 28
}

// Commands encode with AppendBinary; an emulated board parses them back.
func ExampleParseCommand() {
	var b []byte
	b, _ = dgt.CmdSendUpdateNice.AppendBinary(b)
	b, _ = dgt.SetNRun{Left: dgt.SettingOf(5 * time.Minute), Right: dgt.SettingOf(3 * time.Minute), Flags: dgt.RunLeft}.AppendBinary(b)
	fmt.Printf("% x\n", b)
	for len(b) > 0 {
		c, n, err := dgt.ParseCommand(b)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%T\n", c)
		b = b[n:]
	}
	// Output:
	// 4b 2b 0a 03 0a 00 05 00 00 03 00 01 00
	// dgt.SimpleCommand
	// dgt.SetNRun
}
