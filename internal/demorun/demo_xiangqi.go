package demorun

import (
	"fmt"
	"io"

	"github.com/dgtbridge/dgtbridge/hall/demo"
)

// maxDemoXiangqi bounds --xiangqi.
const MaxXiangqi = 12

// printDemoXiangqi says where the xiangqi boards are and what they play.
func printDemoXiangqi(w io.Writer, room *demo.Room, round int) {
	for i, t := range room.Xiangqi {
		g := t.Game(round)
		fmt.Fprintf(w, "  board %-2d %s  xiangqi (OBP board): %s – %s (%s, CCPD, CC BY 4.0)\n", room.FirstXiangqi+i, t.Path(),
			g.Tag("White"), g.Tag("Black"), g.Tag("Date")[:4])
	}
}
