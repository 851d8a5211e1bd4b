package obp

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dgtbridge/dgtbridge/rules"
)

// Parse decodes one board→host line, given without its '\n' (a '\r'
// before it is tolerated). g is the board's geometry from its Ident; it
// may be the zero Geometry before the Ident arrived, and then only an
// Ident parses (other lines naming squares give ErrNoGeometry).
//
// It checks the line's length, bytes and checksum, then its fields.
// Fields after the ones OBP/1 defines are ignored, as is a line type it
// does not define ([Unknown]), so that boards speaking a later revision
// still work. Errors are *LineError wrapping ErrTooLong, ErrNotPrintable,
// ErrChecksum, ErrSyntax or ErrNoGeometry.
func Parse(line []byte, g rules.Geometry) (Message, error) {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	body, err := verify(line)
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(body))
	bad := func(detail string) (Message, error) {
		return nil, &LineError{Line: clip(line), Err: ErrSyntax, Detail: detail}
	}
	if len(f) == 0 {
		return bad("no type")
	}
	var st Stamp
	if last := f[len(f)-1]; len(f) > 1 && strings.HasPrefix(last, "@") {
		ms, err := strconv.ParseUint(last[1:], 10, 64)
		if err != nil {
			return bad("timestamp " + last + " is not @<ms>")
		}
		st = At(ms)
		f = f[:len(f)-1]
	}
	typ, args := f[0], f[1:]
	needGeo := func() bool { return g.Files > 0 && g.Ranks > 0 }
	switch typ {
	case "I":
		return parseIdent(args, st, bad)
	case "B":
		if len(args) < 1 {
			return bad("no placement")
		}
		if !needGeo() {
			return nil, &LineError{Line: clip(line), Err: ErrNoGeometry}
		}
		b, detail := parsePlacement(g, args[0])
		if detail != "" {
			return bad(detail)
		}
		b.Stamp = st
		return b, nil
	case "C":
		return parseClock(args, st, bad)
	case "L", "P":
		if len(args) < 1 || typ == "P" && len(args) < 2 {
			return bad("missing fields")
		}
		if !needGeo() {
			return nil, &LineError{Line: clip(line), Err: ErrNoGeometry}
		}
		sq, err := g.ParseSquare(args[0])
		if err != nil {
			return bad("square " + args[0] + " is not on the board")
		}
		if typ == "L" {
			return Lift{Square: sq, Stamp: st}, nil
		}
		if args[1] == "?" {
			return Put{Square: sq, Unidentified: true, Stamp: st}, nil
		}
		if len(args[1]) != 1 {
			return bad("piece " + args[1] + " is not one letter")
		}
		pc, ok := parsePiece(g, args[1][0])
		if !ok {
			return bad("piece " + args[1] + " is not a piece of this board")
		}
		return Put{Square: sq, Piece: pc, Stamp: st}, nil
	case "E":
		if len(args) < 1 {
			return bad("no fault code")
		}
		return Fault{Code: args[0], Text: strings.Join(args[1:], " "), Stamp: st}, nil
	}
	return Unknown{Type: typ, Fields: strings.Join(args, " "), Stamp: st}, nil
}

func parseIdent(args []string, st Stamp, bad func(string) (Message, error)) (Message, error) {
	if len(args) < 4 {
		return bad("want I OBP/<version> <files>x<ranks> <serial> id|occupancy")
	}
	v, ok := strings.CutPrefix(args[0], "OBP/")
	ver, err := strconv.Atoi(v)
	if !ok || err != nil || ver < 1 {
		return bad("protocol " + args[0] + " is not OBP/<version>")
	}
	fs, rs, ok := strings.Cut(args[1], "x")
	files, err1 := strconv.Atoi(fs)
	ranks, err2 := strconv.Atoi(rs)
	geo := rules.Geometry{Files: files, Ranks: ranks}
	if !ok || err1 != nil || err2 != nil || geo != rules.Chess8x8 && geo != rules.Xiangqi9x10 {
		return bad("board size " + args[1] + " is neither 8x8 nor 9x10")
	}
	var occ bool
	switch args[3] {
	case "id":
	case "occupancy":
		occ = true
	default:
		return bad("pieces " + args[3] + " is neither id nor occupancy")
	}
	return Ident{Version: ver, Geo: geo, Serial: args[2], Occupancy: occ, Stamp: st}, nil
}

func parseClock(args []string, st Stamp, bad func(string) (Message, error)) (Message, error) {
	if len(args) >= 1 && args[0] == "none" {
		return Clock{None: true, Stamp: st}, nil
	}
	if len(args) < 3 {
		return bad("want C <first_ms> <second_ms> <running> or C none")
	}
	var ms [2]time.Duration
	for i := range ms {
		n, err := strconv.ParseUint(args[i], 10, 40)
		if err != nil {
			return bad("time " + args[i] + " is not milliseconds")
		}
		ms[i] = time.Duration(n) * time.Millisecond
	}
	c := Clock{First: ms[0], Second: ms[1], Stamp: st}
	switch args[2] {
	case "0":
		c.Running = rules.NoColor
	case "1":
		c.Running = rules.White
	case "2":
		c.Running = rules.Black
	default:
		return bad("running " + args[2] + " is none of 0, 1, 2")
	}
	return c, nil
}

// parsePlacement reads the placement field of a B line; detail is ""
// when it parses.
func parsePlacement(g rules.Geometry, field string) (Board, string) {
	b := Board{Placement: rules.NewPlacement(g)}
	ranks := strings.Split(field, "/")
	if len(ranks) != g.Ranks {
		return b, strconv.Itoa(len(ranks)) + " ranks, want " + strconv.Itoa(g.Ranks)
	}
	for i, row := range ranks {
		r := g.Ranks - 1 - i
		f := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '9' {
				f += int(c - '0')
				if f > g.Files {
					break
				}
				continue
			}
			if f >= g.Files {
				f++
				break
			}
			s := g.Square(f, r)
			if c == '?' {
				b.Unidentified = append(b.Unidentified, s)
			} else {
				pc, ok := parsePiece(g, c)
				if !ok {
					return b, "piece " + string(c) + " is not a piece of this board"
				}
				b.Placement.Sq[s] = pc
			}
			f++
		}
		if f != g.Files {
			return b, "a rank of " + strconv.Itoa(f) + " points, want " + strconv.Itoa(g.Files)
		}
	}
	slices.Sort(b.Unidentified)
	return b, ""
}
