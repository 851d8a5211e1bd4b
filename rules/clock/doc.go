// Package clock holds time controls and the clock model of a game.
//
// # Time controls
//
// [ParseTimeControl] reads the PGN TimeControl tag syntax (PGN standard
// §9.6.1) with one extension for delay:
//
//	?                 unknown
//	-                 no time control
//	300               sudden death: 300 s for the whole game
//	5400+30           90 min, 30 s increment per move from move 1 (Fischer)
//	40/5400+30:1800+30  40 moves in 90 min, then 30 min for the rest, 30 s increment throughout
//	5400d5            90 min with a 5 s delay per move (FIDE 2018 6.3.2 "time-delay mode")
//	*180              sandclock (hourglass): 180 s, time used flows to the opponent
//
// Fields are separated by ':'; each is one period. A period with a move
// count ("40/…") must be completed within that many moves; the time of the
// next period is added when the last move of the period is completed (Art
// 6.3.2: saved time carries over). A last period with a move count repeats
// (40/7200:20/3600 means 20 moves per hour after move 40), which is how
// clocks implement such controls. Delay is written "d" and seconds after
// the period's time; increment and delay cannot be combined in one period.
// Bronstein delay is not part of the FIDE Laws (Art. 6) and is
// not accepted.
//
// # The clock model
//
// [Model] follows the times a DGT clock reports ([Reading]). It is pure:
// the caller passes every reading with its time and gets back [Event]
// values: flag falls ([FlagFall], with the period check of Art 6.4), both
// flags ([BothFlags], with which fell first when it can tell), period
// changes ([PeriodChange]) and inconsistencies ([Inconsistency]: time
// jumps, moves made with the clock stopped, time added that the control
// does not explain). It never reads the wall clock and has no goroutines.
package clock
