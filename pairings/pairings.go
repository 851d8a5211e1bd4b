// Package pairings reads the organiser's pairing file: who plays whom, on
// which board, in which round. Two formats are understood (see [Parse]):
//
//   - CSV (RFC 4180, UTF-8) with a header row naming the columns round,
//     board, white, black and optionally white_fide_id, black_fide_id,
//     white_team, black_team, in any order. A comma, semicolon or tab
//     separates the fields (the header decides).
//   - FIDE TRF-16, the Tournament Report File that pairing programs
//     export. A round's pairings are the player lines' entries for that
//     round (opponent and colour; the result may be blank). The file does
//     not number the boards, so they are numbered as FIDE C.04.2 orders a
//     published pairing: the higher score of the two players first, then
//     the higher sum of their scores, then the better (smaller) starting
//     rank of the pair. Scores count the rounds before the one being
//     numbered with the default points of TRF-16 (a win, forfeit win,
//     full-point or pairing-allocated bye 1; a draw or half-point bye ½;
//     anything else 0). A player without an opponent in a round (a bye, an
//     absence) has no board. Teams come from 013 (or TRF-26 310) records.
//
// The package is pure: it reads bytes and returns a [Table]; the
// configuration decides which rounds and boards it needs.
package pairings

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// MaxFileSize bounds a pairing file: a TRF of ten thousand players is
// about 2 MB.
const MaxFileSize = 16 << 20

// maxErrors bounds how many line errors one file reports.
const maxErrors = 20

// Format says how a pairing file is written.
type Format int

// The formats.
const (
	CSV Format = iota + 1
	TRF
)

func (f Format) String() string {
	switch f {
	case CSV:
		return "CSV"
	case TRF:
		return "TRF-16"
	}
	return "unknown"
}

// Pairing is one game of a round.
type Pairing struct {
	Round, Board             int
	White, Black             string
	WhiteFideID, BlackFideID string // "" when the file gives none
	// WhiteTitle and BlackTitle are FIDE titles (GM, IM, FM, CM, WGM,
	// WIM, WFM, WCM), "" when the file gives none.
	WhiteTitle, BlackTitle string
	WhiteTeam, BlackTeam   string
	// Line is where the file gives it (for TRF, the white player's line).
	Line int
}

type key struct{ round, board int }

// Table holds the pairings of one file.
type Table struct {
	Format Format
	games  map[key]Pairing
}

// Get returns the pairing of a round's board.
func (t *Table) Get(round, board int) (Pairing, bool) {
	p, ok := t.games[key{round, board}]
	return p, ok
}

// Round returns a round's pairings by board number.
func (t *Table) Round(round int) []Pairing {
	var out []Pairing
	for k, p := range t.games {
		if k.round == round {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Pairing) int { return cmp.Compare(a.Board, b.Board) })
	return out
}

// Rounds returns the round numbers that have pairings, in order.
func (t *Table) Rounds() []int {
	var out []int
	for k := range t.games {
		if !slices.Contains(out, k.round) {
			out = append(out, k.round)
		}
	}
	slices.Sort(out)
	return out
}

// Len is the number of games in the file.
func (t *Table) Len() int { return len(t.games) }

// ErrTooLarge: the file is larger than [MaxFileSize].
var ErrTooLarge = errors.New("pairings: file too large")

// ErrFormat: the file is neither CSV with the expected header nor TRF.
var ErrFormat = errors.New("pairings: not a pairing file")

// LineError is a problem at one line of the file (1-based; 0 when it is
// about the file as a whole).
type LineError struct {
	Line int
	Msg  string
}

func (e *LineError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Is makes every LineError match [ErrFormat].
func (e *LineError) Is(target error) bool { return target == ErrFormat }

// errorList collects line errors up to maxErrors.
type errorList struct {
	errs  []error
	extra int
}

func (l *errorList) add(line int, format string, args ...any) {
	if len(l.errs) == maxErrors {
		l.extra++
		return
	}
	l.errs = append(l.errs, &LineError{Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (l *errorList) err() error {
	if l.extra > 0 {
		l.errs = append(l.errs, &LineError{Msg: fmt.Sprintf("and %d more errors", l.extra)})
	}
	return errors.Join(l.errs...)
}

// ReadFile reads and parses a pairing file, refusing one larger than
// [MaxFileSize].
func ReadFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%w: more than %d MiB (a pairing file is a few hundred KB)", ErrTooLarge, MaxFileSize>>20)
	}
	return Parse(data)
}

// Parse reads a pairing file, CSV or TRF-16 (decided by its first
// significant line: TRF lines begin with a three-digit record code and a
// space). A UTF-8 byte order mark is ignored. Every problem found is
// reported (up to 20), each a *LineError.
func Parse(data []byte) (*Table, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if isTRF(data) {
		return parseTRF(data)
	}
	return parseCSV(data)
}

// isTRF reports whether the first line that is neither blank nor a ###
// comment starts with three digits and a space (or ends after them).
func isTRF(data []byte) bool {
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "###") {
			continue
		}
		if len(line) < 3 || !digits(line[:3]) {
			return false
		}
		return len(line) == 3 || line[3] == ' '
	}
	return false
}

// Title returns the FIDE title a pairing file writes as s: the title
// itself (GM, wgm) or TRF's one- and two-letter codes (g, wg, i, wi, f, wf,
// c, wc); ok is false for anything else. "" is no title.
func Title(s string) (title string, ok bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	switch s {
	case "":
		return "", true
	case "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM":
		return s, true
	case "G", "I", "F", "C", "WG", "WI", "WF", "WC":
		return s + "M", true
	}
	return "", false
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
