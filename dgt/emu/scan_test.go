package emu_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules"
)

// updatesAt runs e (in UPDATE_BRD mode) until end and returns the field
// updates with the time each was sent.
func updatesAt(t *testing.T, e *emu.Emulator, end time.Time) (times []time.Time, ups []dgt.FieldUpdate) {
	t.Helper()
	for _, c := range simulate(e, t0, nil, nil, end.Sub(t0)) {
		for _, m := range decode(t, dgt.SingleBoard, c.Bytes) {
			if u, ok := m.(dgt.FieldUpdate); ok {
				times, ups = append(times, c.At), append(ups, u)
			}
		}
	}
	return times, ups
}

// TestDrawScan: drawn scans have a real board's period (200–250 ms) and a
// phase within it, the same seed gives the same scan, and seeds spread.
func TestDrawScan(t *testing.T) {
	periods := map[time.Duration]bool{}
	for seed := uint64(0); seed < 200; seed++ {
		s := emu.DrawScan(seed)
		if s.Period < emu.MinScanPeriod || s.Period > emu.MaxScanPeriod || s.Phase < 0 || s.Phase >= s.Period {
			t.Fatalf("seed %d: scan %+v out of range", seed, s)
		}
		if emu.DrawScan(seed) != s {
			t.Fatalf("seed %d: two draws differ", seed)
		}
		periods[s.Period] = true
	}
	if len(periods) < 30 {
		t.Fatalf("200 seeds gave only %d distinct periods", len(periods))
	}
}

// TestReportsFollowScanOrderAndPeriod: changes made on many fields at
// random moments are each reported exactly when the board's scan next
// visits the field (Scan.Next), so the reports come in scan order, one
// scan period apart for the same field, at the board's own phase.
func TestReportsFollowScanOrderAndPeriod(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		sc := emu.DrawScan(seed)
		e := emu.New(emu.Setup{ScanPeriod: sc.Period, ScanPhase: sc.Phase}, t0)
		e.Input(t0, []byte{0x44})
		e.Output()
		r := rand.New(rand.NewPCG(seed, 1))
		type change struct {
			at    time.Duration
			field dgt.Field
		}
		var want []change
		// Lift every piece of ranks 1, 2, 7 and 8 at a random moment in
		// the first two seconds: 32 changes on 32 fields.
		var script emu.Script
		for _, f := range []int{0, 8, 48, 56} {
			for i := f; i < f+8; i++ {
				at := time.Second + time.Duration(r.Int64N(int64(2*time.Second)))
				sq := dgt.Field(i).Square(dgt.Normal)
				script = append(script, emu.Action{At: at, Kind: emu.Lift, Square: sq})
				want = append(want, change{at: sc.Next(dgt.Field(i), at), field: dgt.Field(i)})
			}
		}
		slices.SortFunc(script, func(a, b emu.Action) int { return int(a.At - b.At) })
		slices.SortStableFunc(want, func(a, b change) int { return int(a.at - b.at) })
		e.Schedule(t0, script)
		times, ups := updatesAt(t, e, t0.Add(4*time.Second))
		if len(ups) != len(want) {
			t.Fatalf("seed %d: %d updates, want %d", seed, len(ups), len(want))
		}
		for i, u := range ups {
			if u.Field != want[i].field || u.Piece != dgt.Empty || !times[i].Equal(t0.Add(want[i].at)) {
				t.Fatalf("seed %d: update %d is %v at %v, want field %d empty at %v", seed, i, u, times[i].Sub(t0), want[i].field, want[i].at)
			}
		}
	}
	sc := emu.Scan{Period: 240 * time.Millisecond, Phase: 30 * time.Millisecond}
	for _, tc := range []struct {
		f    dgt.Field
		at   time.Duration
		want time.Duration
	}{
		{0, 0, 30 * time.Millisecond},
		{0, 30 * time.Millisecond, 30 * time.Millisecond}, // a visit at the change's moment sees it
		{0, 31 * time.Millisecond, 270 * time.Millisecond},
		{32, 0, 150 * time.Millisecond},
		{63, time.Second, 30*time.Millisecond + 63*240*time.Millisecond/64 + 4*240*time.Millisecond},
	} {
		if got := sc.Next(tc.f, tc.at); got != tc.want {
			t.Errorf("Next(%d, %v) = %v, want %v", tc.f, tc.at, got, tc.want)
		}
	}
}

// TestLiftAndReturnBetweenScansIsInvisible: a piece lifted just after the
// scan passed its square and put back before the next visit is never
// reported; the same lift spanning a visit is reported both ways.
func TestLiftAndReturnBetweenScansIsInvisible(t *testing.T) {
	sc := emu.Scan{Period: 230 * time.Millisecond, Phase: 70 * time.Millisecond}
	f := dgt.Field(52) // e2
	sq := f.Square(dgt.Normal)
	wp := rules.Piece{Color: rules.White, Kind: rules.Pawn}
	v := sc.Visit(f, 5)
	for _, tc := range []struct {
		name       string
		lift, back time.Duration
		want       int
	}{
		{"between two visits", v + time.Millisecond, v + sc.Period - time.Millisecond, 0},
		{"across a visit", v - 20*time.Millisecond, v + 20*time.Millisecond, 2},
		{"lifted at the visit", v, v + 50*time.Millisecond, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := emu.New(emu.Setup{ScanPeriod: sc.Period, ScanPhase: sc.Phase}, t0)
			e.Input(t0, []byte{0x44})
			e.Output()
			e.Schedule(t0, emu.Script{{At: tc.lift, Kind: emu.Lift, Square: sq}, {At: tc.back, Kind: emu.Place, Square: sq, Piece: wp}})
			_, ups := updatesAt(t, e, t0.Add(3*time.Second))
			if len(ups) != tc.want {
				t.Fatalf("lift %v, back %v (visits at %v and %v): updates %v, want %d", tc.lift, tc.back, v, v+sc.Period, ups, tc.want)
			}
		})
	}
}
