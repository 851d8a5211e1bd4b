package session

// KindBoardMismatch is the alert kind (docs/contract.md §3.4) of the daemon
// telling the arbiter that it could not follow the record (a resumed record
// that does not replay, a reinstatement the tracker refused).
const KindBoardMismatch = "board_mismatch"

// KindClockCommandFailed (extension of contract §3.4): a clock setting the
// adjudicator asked for (penalties: auto, or an arbiter command) was not
// acknowledged by the clock; the arbiter sets it by hand.
const KindClockCommandFailed = "clock_command_failed"

// KindStorageFailed (extension of docs/contract.md §3.4, warn): the daemon
// cannot write this game's record (or its messages) to disk; nothing is
// lost while it runs (they are kept in memory and written when the disk
// answers), but a power loss now would lose the moves since. Severity info
// when writes succeed again.
const KindStorageFailed = "storage_failed"

// KindRecordDamaged (extension of docs/contract.md §3.4): the game's saved
// record, or the journal holding its latest changes, was damaged; the
// damaged file was set aside (named in the message) and the game goes on
// from what was recovered; moves after that are recovered from the board
// where it can (the arbiter checks the record).
const KindRecordDamaged = "record_damaged"
