package emu_test

import (
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt/emu"
)

func TestParseSpan(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want emu.Span
		ok   bool
	}{
		{"1s-3s", emu.Span{Min: time.Second, Max: 3 * time.Second}, true},
		{"500ms", emu.Span{Min: 500 * time.Millisecond, Max: 500 * time.Millisecond}, true},
		{"3s-1s", emu.Span{}, false},
		{"0s", emu.Span{}, false},
		{"fast", emu.Span{}, false},
	} {
		got, err := emu.ParseSpan(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseSpan(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestParseTimeControl(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want emu.ClockSetting
		ok   bool
	}{
		{"5400+30", emu.ClockSetting{Base: 90 * time.Minute, Increment: 30 * time.Second, Mode: emu.Fischer}, true},
		{"300", emu.ClockSetting{Base: 5 * time.Minute, Mode: emu.Fischer}, true},
		{"0+2", emu.ClockSetting{}, false},
		{"180+-1", emu.ClockSetting{}, false},
		{"40/7200", emu.ClockSetting{}, false},
	} {
		got, err := emu.ParseTimeControl(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v", tc.in, got, err)
		}
	}
}
