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

	"github.com/dgtbridge/dgtbridge/hall/demo"
	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/obp/link"
	"github.com/dgtbridge/dgtbridge/rules"
	"github.com/dgtbridge/dgtbridge/rules/pgn"
	"github.com/dgtbridge/dgtbridge/rules/xiangqi/games"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// TestEmulateOBP runs `dgtbridge emulate --protocol obp` for a xiangqi
// board (a built-in master game) and a chess board (a PGN file), opens
// the printed pty through the same serial code as a real board
// (go.bug.st/serial at 115200 baud), follows the game over an OBP link on
// a noisy wire, and ends at the game's final position.
func TestEmulateOBP(t *testing.T) {
	if testing.Short() {
		t.Skip("integration: real pseudo-terminals in real time")
	}
	all, errs := pgn.ReadAll(strings.NewReader(games.CCPD), pgn.ReaderOptions{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	chessFile := filepath.Join(t.TempDir(), "g.pgn")
	if err := os.WriteFile(chessFile, []byte("[TimeControl \"180+2\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 1-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	chessGame, err := demo.ReadGame(chessFile, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		game *pgn.Game
		geo  rules.Geometry
	}{
		{"xiangqi", []string{"--variant", "xiangqi", "--game", "ccpd:8", "--bad-lines", "0.05", "--serial", "XQ0042"}, all[7], rules.Xiangqi9x10},
		{"chess", []string{"--variant", "chess", "--game", chessFile, "--serial", "DIY8"}, chessGame, rules.Chess8x8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			final, err := tc.game.Final()
			if err != nil {
				t.Fatal(err)
			}
			pr, pw := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			var runErr error
			wg.Go(func() {
				runErr = run(ctx, append([]string{"emulate", "--protocol", "obp", "--speed", "40"}, tc.args...), pw, io.Discard)
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
			l := link.New(func(context.Context) (io.ReadWriteCloser, error) { return serialport.OpenBaud(path, 115200) }, link.Settings{})
			lctx, lcancel := context.WithCancel(ctx)
			var lw sync.WaitGroup
			lw.Go(func() { l.Run(lctx) })
			defer func() {
				lcancel()
				lw.Wait()
			}()
			var board rules.Placement
			bad := 0
			deadline := time.After(60 * time.Second)
			for board != final.Placement() {
				select {
				case ev := <-l.Events():
					switch ev := ev.(type) {
					case link.Connected:
						if ev.Ident.Geo != tc.geo || ev.Ident.Serial != tc.args[len(tc.args)-1] {
							t.Fatalf("connected %+v", ev.Ident)
						}
						board = ev.Board.Placement
					case link.BadLine:
						bad++
					case link.Message:
						switch m := ev.Msg.(type) {
						case obp.Lift:
							board.Sq[m.Square] = rules.NoPiece
						case obp.Put:
							board.Sq[m.Square] = m.Piece
						case obp.Board:
							board = m.Placement
						}
					}
				case <-deadline:
					want := final.Placement()
					t.Fatalf("board %s after 60 s, want %s (%d bad lines)", board.String(), want.String(), bad)
				}
			}
		})
	}
}

func TestEmulateProtocol(t *testing.T) {
	for args, want := range map[string]string{
		"":                            "dgt",
		"--game g.pgn":                "dgt",
		"--protocol obp":              "obp",
		"--speed 2 -protocol obp":     "obp",
		"--protocol=obp --pty":        "obp",
		"--protocol dgt":              "dgt",
		"-- --protocol obp":           "dgt",
		"--protocol":                  "dgt",
		"--variant chess --protocol=": "",
	} {
		if got := emulateProtocol(strings.Fields(args)); got != want {
			t.Errorf("emulateProtocol(%q) = %q, want %q", args, got, want)
		}
	}
}

func TestEmulateOBPErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--protocol", "obp", "--variant", "shogi"},
		{"--protocol", "obp", "--game", "ccpd:13"},
		{"--protocol", "obp", "--game", "ccpd:0"},
		{"--protocol", "obp", "--variant", "chess", "--game", "ccpd:1"},
		{"--protocol", "obp", "--bad-lines", "1"},
		{"--protocol", "obp", "extra"},
	} {
		var errb strings.Builder
		// A case that wrongly starts a board is stopped after 10 s.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := run(ctx, append([]string{"emulate"}, args...), io.Discard, &errb); err == nil {
			t.Errorf("emulate %q: no error", args)
		}
		cancel()
	}
}
