package emu

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/rules"
)

// Game is one game played by [Hands] on an emulated board: everything
// [Play] needs to turn a game into what the host hears, and what
// [Game.Plan] needs to play it in real time.
//
// In simulated time (a corpus test; no goroutine, no sleep):
//
//	g := emu.Game{Start: start, Moves: moves, Seed: uint64(i)} // DefaultHands, a drawn scan
//	p, err := emu.Play(g)
//	for _, h := range p.Heard { // every message, stamped when its last byte reached the host
//		evs = append(evs, board.FeedMessage(tracker, h.At, h.Msg)...)
//	}
//	evs = append(evs, tracker.Finish(p.End)...)
//	// p.Plies[i] says what the hands did: Touch, Release, Press, Settled, Habits.
//
// In real time on a pseudo-terminal (a demo, an integration test):
//
//	powerUp := time.Now()
//	e := emu.New(g.BoardSetup(), powerUp)
//	go emu.ServePTY(ctx, master, e)
//	start := time.Now() // e.g. once the host has talked to the board
//	script, plies, err := g.Plan(powerUp, start)
//	e.Schedule(start, script)
type Game struct {
	// Start is the position the game starts from (its placement is set
	// up on the board) and Moves the moves, legal in turn.
	Start rules.Position
	Moves []rules.Move
	// Board is the emulated board. Its Placement is replaced by Start's.
	// When ScanPeriod is zero, the scan's period and phase are drawn from
	// Seed with [DrawScan].
	Board Setup
	// Hands are the players' habits; the zero value means [DefaultHands].
	Hands Hands
	// Seed seeds every draw (scan, hands), so a game plays the same way
	// every time.
	Seed uint64
	// WhiteSide is the clock side of the player with White; NoSide means
	// Left.
	WhiteSide Side
	// NoClock: nobody presses a lever (no clock is cabled, or it is not
	// used).
	NoClock bool
	// PowerUp is when the board is switched on ([Play] only); zero means
	// 2026-01-01 09:00 UTC.
	PowerUp time.Time
	// Host is what the host sends at power-up ([Play] only); nil means
	// DGT_SEND_UPDATE_NICE then DGT_SEND_BRD, as dgt/link ends its
	// connection sequence.
	Host []byte
	// Lead is the time from the start of the script to the first press;
	// default 1 s. Tail is how long [Play] runs after the script's last
	// action; default 3 s.
	Lead, Tail time.Duration
}

// Heard is a board message as the host receives it: At is when its last
// byte arrived.
type Heard struct {
	At  time.Time
	Msg dgt.Message
}

// Played is the outcome of [Play].
type Played struct {
	// Board is the board as emulated (the drawn scan filled in).
	Board Setup
	// PowerUp is when the board was switched on and the script started;
	// End when Play stopped.
	PowerUp, End time.Time
	// Script is what the hands did, offsets from PowerUp; Plies the
	// per-ply summary.
	Script Script
	Plies  []Ply
	// Heard is every message the host received, in order; Sent the same
	// bytes as the board sent them, each chunk stamped with the end of
	// its transmission at 9600 baud (what a serial recorder would log).
	Heard []Heard
	Sent  []Timed
	// Emulator is the board at End, for further commands (e.g. reading
	// its EEPROM).
	Emulator *Emulator
}

// defaultPowerUp is Play's power-up time when Game.PowerUp is zero.
var defaultPowerUp = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// BoardSetup returns the setup of the emulated board: Board with
// Start's placement and, when Board.ScanPeriod is zero, a scan drawn from
// Seed.
func (g Game) BoardSetup() Setup {
	o := g.Board
	if g.Start != nil {
		pl := g.Start.Placement()
		o.Placement = &pl
	}
	if o.ScanPeriod <= 0 {
		sc := DrawScan(g.Seed)
		o.ScanPeriod, o.ScanPhase = sc.Period, sc.Phase
	}
	if o.Seed == 0 {
		o.Seed = g.Seed
	}
	return o.withDefaults()
}

// Plan returns the script of the game for a board powered up at powerUp,
// to be scheduled at start (Emulator.Schedule(start, script)), and the
// plies with their times. The hands know the board's scan (a nudge is
// timed between two visits of its square), so the script is only right
// for a board made with [Game.BoardSetup] at powerUp.
func (g Game) Plan(powerUp, start time.Time) (Script, []Ply, error) {
	if g.Start == nil {
		return nil, nil, errors.New("emu: game without a start position")
	}
	o := g.BoardSetup()
	h := g.Hands
	if h == (Hands{}) {
		h = DefaultHands()
	}
	w := &scripter{
		h:      h.withDefaults(),
		r:      rand.New(rand.NewPCG(g.Seed, 0x4a4d)),
		scan:   o.Scan(),
		orient: o.Orientation,
		from:   start.Sub(powerUp),
	}
	white := g.WhiteSide
	if white == NoSide {
		white = Left
	}
	lead := g.Lead
	if lead <= 0 {
		lead = time.Second
	}
	pt, err := w.game(g.Start, g.Moves, white, g.NoClock, lead)
	if err != nil {
		return nil, nil, err
	}
	plies := make([]Ply, len(pt))
	for i, p := range pt {
		plies[i] = p.at(start)
	}
	return w.s, plies, nil
}

// Play plays g in simulated time, as fast as the CPU allows: the board is
// powered up, the host's bytes are fed, the script runs, and the emulator
// is advanced event by event until Tail after the last action. Every
// message the board sends is decoded and stamped with the moment its last
// byte reaches the host over the 9600-baud line. Pure: no goroutine, no
// sleep, the same Game gives the same result.
func Play(g Game) (Played, error) {
	powerUp := g.PowerUp
	if powerUp.IsZero() {
		powerUp = defaultPowerUp
	}
	script, plies, err := g.Plan(powerUp, powerUp)
	if err != nil {
		return Played{}, err
	}
	return PlayPlanned(g, script, plies)
}

// PlayPlanned is [Play] with the script already planned for a board
// powered up at g.PowerUp (zero: Play's default) and started at once (a
// [Stepper]'s Plan, made with powerUp and start both that time): g's
// Moves are not used.
func PlayPlanned(g Game, script Script, plies []Ply) (Played, error) {
	powerUp := g.PowerUp
	if powerUp.IsZero() {
		powerUp = defaultPowerUp
	}
	o := g.BoardSetup()
	e := New(o, powerUp)
	p := Played{Board: o, PowerUp: powerUp, Script: script, Plies: plies, Emulator: e}
	tail := g.Tail
	if tail <= 0 {
		tail = 3 * time.Second
	}
	host := g.Host
	if host == nil {
		host = []byte{byte(dgt.CmdSendUpdateNice), byte(dgt.CmdSendBoard)}
	}
	w := wire{dec: dgt.NewDecoder(dgt.SingleBoard)}
	e.Input(powerUp, host)
	if err := w.take(e, &p); err != nil {
		return p, err
	}
	e.Schedule(powerUp, script)
	p.End = powerUp.Add(script.Duration() + tail)
	for {
		t, ok := e.NextEvent()
		if !ok || t.After(p.End) {
			break
		}
		e.Advance(t)
		if err := w.take(e, &p); err != nil {
			return p, err
		}
	}
	e.Advance(p.End)
	return p, w.take(e, &p)
}

// wire is the 9600-baud line from the board to the host in [Play].
type wire struct {
	free time.Time // when the line is next idle
	dec  *dgt.Decoder
}

// take moves the board's new output onto the line and decodes it.
func (w *wire) take(e *Emulator, p *Played) error {
	for _, c := range e.outputChunks() {
		start := c.at
		if start.Before(w.free) {
			start = w.free
		}
		done := start.Add(time.Duration(len(c.b)) * byteTime)
		w.free = done
		p.Sent = append(p.Sent, Timed{At: done, Bytes: c.b})
		w.dec.Feed(c.b)
		for {
			m, err := w.dec.Next()
			if errors.Is(err, dgt.ErrNeedMore) {
				break
			}
			if err != nil {
				return fmt.Errorf("emu: the board sent a frame the host cannot decode: %w", err)
			}
			p.Heard = append(p.Heard, Heard{At: done, Msg: m})
		}
	}
	return nil
}
