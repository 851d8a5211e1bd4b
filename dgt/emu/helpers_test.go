package emu_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
)

var t0 = time.Date(2026, 2, 8, 9, 0, 0, 0, time.UTC)

// decode decodes a board→host byte stream with package dgt's decoder (an
// independent implementation of the framing), failing on any frame error.
func decode(t *testing.T, m dgt.Mode, b []byte) []dgt.Message {
	t.Helper()
	msgs, errs := decodeLoose(m, b)
	if len(errs) > 0 {
		t.Fatalf("frame errors in % x: %v", b, errs)
	}
	return msgs
}

// decodeLoose decodes b and returns the messages and the frame errors.
func decodeLoose(m dgt.Mode, b []byte) ([]dgt.Message, []error) {
	d := dgt.NewDecoder(m)
	d.Feed(b)
	var msgs []dgt.Message
	var errs []error
	for {
		msg, err := d.Next()
		if errors.Is(err, dgt.ErrNeedMore) {
			return msgs, errs
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		msgs = append(msgs, msg)
	}
}

// fieldUpdates returns the field updates among msgs as "e4 P" strings.
func fieldUpdates(msgs []dgt.Message) []string {
	var out []string
	for _, m := range msgs {
		if u, ok := m.(dgt.FieldUpdate); ok {
			out = append(out, u.String())
		}
	}
	return out
}

// sq parses a square name.
func sq(t *testing.T, name string) rules.Square {
	t.Helper()
	s, err := rules.Chess8x8.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// step advances e in small steps from *now by d (as a driver would) and
// returns the output.
func step(e emu.Device, now *time.Time, d time.Duration) []byte {
	end := now.Add(d)
	var out []byte
	for now.Before(end) {
		*now = now.Add(10 * time.Millisecond)
		e.Advance(*now)
		out = append(out, e.Output()...)
	}
	return out
}
