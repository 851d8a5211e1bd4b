package hall

// KindBoardMismatch is the alert kind (interfaces.md §3.4) of the daemon
// telling the arbiter that it could not follow the record (a resumed record
// that does not replay, a reinstatement the tracker refused).
const KindBoardMismatch = "board_mismatch"

// KindClockCommandFailed (extension of §3.4): a clock setting the
// adjudicator asked for (penalties: auto, or an arbiter command) was not
// acknowledged by the clock; the arbiter sets it by hand.
const KindClockCommandFailed = "clock_command_failed"
