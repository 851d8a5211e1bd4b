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

// simulate plays a script on e without real time: at start the host bytes
// hostInit are fed (e.g. 0x4B 0x42: UPDATE_NICE and a board dump), the
// script runs from start, and the emulator is advanced event by event
// until tail after the script's last action. It returns what the board
// sent, stamped with the event that produced it (emu.Play does the same
// for games, with the line's timing).
func simulate(e *emu.Emulator, start time.Time, hostInit []byte, s emu.Script, tail time.Duration) []emu.Timed {
	var out []emu.Timed
	take := func(at time.Time) {
		if b := e.Output(); len(b) > 0 {
			out = append(out, emu.Timed{At: at, Bytes: b})
		}
	}
	e.Input(start, hostInit)
	take(start)
	e.Schedule(start, s)
	end := start.Add(s.Duration() + tail)
	for {
		t, ok := e.NextEvent()
		if !ok || t.After(end) {
			break
		}
		e.Advance(t)
		take(t)
	}
	e.Advance(end)
	take(end)
	return out
}
