package clock

import (
	"fmt"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Reading is what a clock reports: the remaining times and which side's
// clock runs (rules.NoColor when stopped). WhiteFlag and BlackFlag are the
// clock's own flag indicators when it reports them. It mirrors
// board.ClockReading without importing package board.
type Reading struct {
	White, Black         time.Duration
	Running              rules.Color
	WhiteFlag, BlackFlag bool
}

// Time returns the remaining time of side c.
func (r Reading) Time(c rules.Color) time.Duration {
	if c == Black {
		return r.Black
	}
	return r.White
}

// Flag returns the clock's flag indicator of side c.
func (r Reading) Flag(c rules.Color) bool {
	if c == Black {
		return r.BlackFlag
	}
	return r.WhiteFlag
}

// Short names for the sides inside this package.
const (
	White = rules.White
	Black = rules.Black
)

// Event is something the [Model] inferred from the readings.
type Event interface {
	When() time.Time
	clockEvent()
}

// FlagFall: Side's time ran out (Art 6.1, 6.8). At is the reading that
// showed it; Estimated is when the time reached zero, computed from the
// run's start (equal to At when the model cannot tell better). Period,
// MovesDone and MovesRequired are the period check of Art 6.4: MovesDone
// counts Side's completed moves (clock presses) and MovesRequired the moves
// due by the end of the current period (0: all moves). PeriodTimeMissing
// is set when Side completed a period but the clock did not add the next
// period's time, so the flag may be a setting error (6.10.2) rather than a
// loss on time.
type FlagFall struct {
	At, Estimated     time.Time
	Side              rules.Color
	Period            int // 0-based
	MovesDone         int
	MovesRequired     int
	PeriodTimeMissing bool
}

// BothFlags: both flags are down (Guideline III.3.1; 2001 6.12, 10.3, B8).
// First is the side whose flag fell first, or rules.NoColor when the
// readings cannot tell (both seen down in one reading with no run to
// estimate from, or the estimates closer than the tolerance). LastPeriod
// reports whether both players are in the period in which all remaining
// moves must be completed.
type BothFlags struct {
	At               time.Time
	First            rules.Color
	WhiteAt, BlackAt time.Time // estimated flag times (zero when unknown)
	LastPeriod       bool
}

// PeriodChange: Side completed the moves of a period and the clock added
// the next period's time (Art 6.3.2).
type PeriodChange struct {
	At        time.Time
	Side      rules.Color
	Period    int // the new period, 0-based
	Added     time.Duration
	AfterMove int
}

// InconsistencyKind says what does not add up.
type InconsistencyKind uint8

// Inconsistency kinds.
const (
	// TimeJump: a side lost more time than elapsed (6.10.1: clock defect?).
	TimeJump InconsistencyKind = iota
	// TimeFrozen: the running side's time did not go down.
	TimeFrozen
	// TimeAdded: a side gained time the control does not explain.
	TimeAdded
	// PeriodTimeMissing: a period was completed but its time not added
	// (6.10.2; the clock's move counter may differ, 8.6).
	PeriodTimeMissing
	// MoveWithClockStopped: a move was completed while no clock ran.
	MoveWithClockStopped
	// ClockReset: both times went back to a period's time mid-game.
	ClockReset
	// SettingMismatch: the times at the start differ from the control (6.10.2, 7.1).
	SettingMismatch
)

var inconsistencyNames = [...]string{"time_jump", "time_frozen", "time_added", "period_time_missing", "move_with_clock_stopped", "clock_reset", "setting_mismatch"}

// String returns the kind in snake_case.
func (k InconsistencyKind) String() string {
	if int(k) < len(inconsistencyNames) {
		return inconsistencyNames[k]
	}
	return fmt.Sprintf("inconsistency(%d)", k)
}

// Inconsistency: the readings disagree with the time control or with the
// elapsed time. Expected and Reported are Side's times (both zero for
// MoveWithClockStopped). The model re-bases on the reported times, so one
// defect gives one event.
type Inconsistency struct {
	At                 time.Time
	Kind               InconsistencyKind
	Side               rules.Color
	Expected, Reported time.Duration
	Detail             string
}

// When implements Event.
func (e FlagFall) When() time.Time { return e.At }

// When implements Event.
func (e BothFlags) When() time.Time { return e.At }

// When implements Event.
func (e PeriodChange) When() time.Time { return e.At }

// When implements Event.
func (e Inconsistency) When() time.Time { return e.At }

func (FlagFall) clockEvent()      {}
func (BothFlags) clockEvent()     {}
func (PeriodChange) clockEvent()  {}
func (Inconsistency) clockEvent() {}

var (
	_ Event = FlagFall{}
	_ Event = BothFlags{}
	_ Event = PeriodChange{}
	_ Event = Inconsistency{}
)
