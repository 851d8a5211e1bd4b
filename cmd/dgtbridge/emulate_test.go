package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/dgt"
	"github.com/dgtbridge/dgtbridge/dgt/link"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/chess"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// TestEmulateGame runs `dgtbridge emulate --game` and follows it through
// the serial code: the path is printed, the board is found, and the game
// is played once the host has talked to it.
func TestEmulateGame(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	pgnFile := filepath.Join(t.TempDir(), "g.pgn")
	const game = `[Event "t"]
[TimeControl "180+2"]

1. e4 {[%emt 0:00:01]} e5 {[%emt 0:00:01]} 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 1-0
`
	if err := os.WriteFile(pgnFile, []byte(game), 0o644); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var runErr error
	wg.Go(func() {
		runErr = run(ctx, []string{"emulate", "--game", pgnFile, "--speed", "20", "--serial", "05555", "--gesture"}, pw, io.Discard)
		pw.Close()
	})
	defer func() {
		cancel()
		wg.Wait()
		if runErr != nil {
			t.Errorf("emulate: %v", runErr)
		}
	}()
	path, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	path = strings.TrimSpace(path)
	if !strings.HasPrefix(path, "/dev/pts/") {
		t.Fatalf("printed %q, want a pty path", path)
	}
	l := link.New(func(context.Context) (io.ReadWriteCloser, error) { return serialport.Open(path) }, link.Settings{})
	lctx, lcancel := context.WithCancel(ctx)
	var lw sync.WaitGroup
	lw.Go(func() { l.Run(lctx) })
	defer func() { lcancel(); lw.Wait() }()

	pos := rules.Position(chess.StartPosition(chess.Standard))
	for _, u := range []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6"} {
		m, err := pos.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		pos, _ = pos.Play(m)
	}
	// After the game, the kings go to e4 (White) and d5 (Black): 1-0.
	want := pos.Placement()
	for s, p := range want.Sq {
		if p.Kind == rules.King {
			want.Sq[s] = rules.NoPiece
		}
	}
	want.Sq[rules.Chess8x8.Square(4, 3)] = rules.Piece{Color: rules.White, Kind: rules.King}
	if sq := rules.Chess8x8.Square(3, 4); true {
		want.Sq[sq] = rules.Piece{Color: rules.Black, Kind: rules.King}
	}
	var fields [64]dgt.PieceCode
	connected := false
	deadline := time.After(60 * time.Second)
	for {
		select {
		case ev := <-l.Events():
			switch ev := ev.(type) {
			case link.Connected:
				connected = ev.Serial == "05555" && ev.Clock
			case link.Message:
				switch m := ev.Msg.(type) {
				case dgt.BoardDump:
					fields = m.Fields
				case dgt.FieldUpdate:
					fields[m.Field] = m.Piece
				}
			}
		case <-deadline:
			d := dgt.BoardDump{Fields: fields}
			p := d.Placement(dgt.Normal)
			t.Fatalf("board after 60 s: %s, want %s (connected %v)", p.String(), want.String(), connected)
		}
		d := dgt.BoardDump{Fields: fields}
		if p := d.Placement(dgt.Normal); connected && p == want {
			return
		}
	}
}
