package board

// CarryClock gives t, a tracker made anew for the same game and board
// (the record rebuilt after moves were recovered from the board's log, or
// corrected), what old had learnt of the clock: its last reading, which
// display is whose (for a polled board, also what its press records have
// told so far), and how it is heard. Called after the record's plies were
// replayed into t. Without it a polled board whose sides were still being
// learnt has no reading to time its presses with until it learns them
// anew: its next moves go out without clock times.
func (t *Tracker) CarryClock(old *Tracker) {
	if old == nil || old == t {
		return
	}
	c := old.clk
	if c.last != nil {
		r := *c.last
		c.last = &r
	}
	if c.sides != nil {
		g := *c.sides
		c.sides = &g
	}
	t.clk = c
}
