package link_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/obp"
	"github.com/dgtbridge/dgtbridge/obp/link"
	"github.com/dgtbridge/dgtbridge/rules"
)

// TestBadLineAsksBoard (in memory, fast): the connection sequence is an
// empty line, I, B, C; lines before the Ident are dropped, lines between
// B's answer and C's come after Connected; a bad line is reported and
// answered with one B (not one per bad line), whose answer is a Message;
// every byte both ways is recorded in order.
func TestBadLineAsksBoard(t *testing.T) {
	host, board := net.Pipe()
	g := rules.Xiangqi9x10
	line := func(m obp.Message) string { return string(m.AppendLine(nil, g)) }
	h2, _ := g.ParseSquare("h2")
	var rec strings.Builder
	l := link.New(func(context.Context) (io.ReadWriteCloser, error) { return host, nil },
		link.Settings{Record: func(_ time.Time, d link.Dir, p []byte) { rec.WriteByte(byte(d)); rec.Write(p) }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go l.Run(ctx)
	in := bufio.NewReader(board)
	expect := func(want string) {
		t.Helper()
		got, err := in.ReadString('\n')
		if err != nil || got != want {
			t.Fatalf("board read %q, %v; want %q (recorded %q)", got, err, want, rec.String())
		}
	}
	say := func(s string) {
		t.Helper()
		if _, err := io.WriteString(board, s); err != nil {
			t.Fatal(err)
		}
	}
	empty := obp.Board{Placement: rules.NewPlacement(g)}
	expect("\n")
	expect("I\n")
	say(line(obp.Lift{Square: h2}) + line(obp.Ident{Version: 1, Geo: g, Serial: "S"}))
	expect("B\n")
	say(line(obp.Lift{Square: h2}) + line(empty) + line(obp.Lift{Square: h2, Stamp: obp.At(5)}))
	expect("C\n")
	say(line(obp.Clock{None: true}) + "L h2*00\n" + "P h2 C*00\n")
	expect("B\n")
	say(line(empty))
	var evs []link.Event
	for len(evs) < 5 {
		evs = append(evs, <-l.Events())
	}
	c, ok := evs[0].(link.Connected)
	if !ok || c.Ident.Serial != "S" || c.Board.Placement != empty.Placement || !c.Clock.None {
		t.Fatalf("first event %#v", evs[0])
	}
	if m, ok := evs[1].(link.Message); !ok || m.Msg != (obp.Lift{Square: h2, Stamp: obp.At(5)}) {
		t.Errorf("second event %#v, want the lift after B's answer", evs[1])
	}
	_, bad1 := evs[2].(link.BadLine)
	_, bad2 := evs[3].(link.BadLine)
	m, ok := evs[4].(link.Message)
	if !bad1 || !bad2 || !ok {
		t.Fatalf("events %#v", evs[2:])
	}
	if _, ok := m.Msg.(obp.Board); !ok {
		t.Errorf("answer to B %#v", m.Msg)
	}
	cancel()
	for range l.Events() {
	}
	want := ">\n>I\n<" + line(obp.Lift{Square: h2}) + line(obp.Ident{Version: 1, Geo: g, Serial: "S"}) + ">B\n"
	if got := rec.String(); !strings.HasPrefix(got, want) || !strings.Contains(got, "L h2*00\n") {
		t.Errorf("recording %q, want it to start %q", got, want)
	}
}
