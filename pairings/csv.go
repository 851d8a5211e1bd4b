package pairings

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
)

// csvColumns are the columns of a CSV pairing file; the first four are
// required.
var csvColumns = []string{"round", "board", "white", "black", "white_fide_id", "black_fide_id", "white_team", "black_team",
	"white_title", "black_title"}

// parseCSV reads a CSV pairing file.
func parseCSV(data []byte) (*Table, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = separator(data)
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.ReuseRecord = false

	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, &LineError{Msg: "the file is empty (a CSV pairing file starts with the header round,board,white,black)"}
	}
	if err != nil {
		return nil, csvError(err)
	}
	var errs errorList
	col := csvHeader(header, &errs)
	if len(errs.errs) > 0 {
		return nil, errs.err()
	}

	t := &Table{Format: CSV, games: map[key]Pairing{}}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && !errors.Is(pe.Err, csv.ErrFieldCount) {
				errs.add(pe.Line, "%v", pe.Err)
				if errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote) {
					// The rest of the file is read as one field: stop.
					break
				}
				continue
			}
			return nil, csvError(err)
		}
		if blank(rec) {
			continue
		}
		p, ok := csvPairing(rec, col, line, &errs)
		if !ok {
			continue
		}
		k := key{p.Round, p.Board}
		if prev, dup := t.games[k]; dup {
			errs.add(line, "round %d board %d is already given at line %d", p.Round, p.Board, prev.Line)
			continue
		}
		t.games[k] = p
	}
	if len(errs.errs) > 0 {
		return nil, errs.err()
	}
	return t, nil
}

// csvHeader maps the header's pairing columns to their place (1-based: 0
// means absent) and notes unknown, repeated and missing columns.
func csvHeader(header []string, errs *errorList) map[string]int {
	col := map[string]int{}
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		switch {
		case !slices.Contains(csvColumns, name):
			errs.add(1, "column %q is not a pairing column (the columns are %s)", strings.TrimSpace(h), strings.Join(csvColumns, ", "))
		case col[name] != 0:
			errs.add(1, "column %q is given twice", name)
		default:
			col[name] = i + 1
		}
	}
	for _, need := range csvColumns[:4] {
		if col[need] == 0 {
			errs.add(1, "the header has no column %q (it needs round, board, white and black)", need)
		}
	}
	return col
}

// csvPairing reads one record (at line) by the columns col; ok is false
// when a round, board or FIDE id is wrong (noted in errs).
func csvPairing(rec []string, col map[string]int, line int, errs *errorList) (p Pairing, ok bool) {
	field := func(name string) string {
		i := col[name]
		if i == 0 || i > len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i-1])
	}
	p = Pairing{Line: line, White: field("white"), Black: field("black"),
		WhiteFideID: field("white_fide_id"), BlackFideID: field("black_fide_id"),
		WhiteTeam: field("white_team"), BlackTeam: field("black_team")}
	ok = true
	for _, f := range []struct {
		name string
		to   *int
	}{{"round", &p.Round}, {"board", &p.Board}} {
		n, err := strconv.Atoi(field(f.name))
		if err != nil || n < 1 {
			errs.add(line, "%s %q is not a number of 1 or more", f.name, field(f.name))
			ok = false
			continue
		}
		*f.to = n
	}
	for _, f := range []struct {
		name string
		to   *string
	}{{"white_title", &p.WhiteTitle}, {"black_title", &p.BlackTitle}} {
		t, tok := Title(field(f.name))
		if !tok {
			errs.add(line, "%s %q is not a FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM)", f.name, field(f.name))
			ok = false
		}
		*f.to = t
	}
	for _, f := range []struct{ name, v string }{{"white_fide_id", p.WhiteFideID}, {"black_fide_id", p.BlackFideID}} {
		if f.v != "" && !digits(f.v) {
			errs.add(line, "%s %q is not a FIDE id (digits only)", f.name, f.v)
			ok = false
		}
	}
	return p, ok
}

// separator returns the field separator the header line uses: a comma,
// unless the header has none and has semicolons (a spreadsheet saved in a
// locale that writes decimal commas) or tabs.
func separator(data []byte) rune {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	switch {
	case bytes.ContainsRune(first, ','):
		return ','
	case bytes.ContainsRune(first, ';'):
		return ';'
	case bytes.ContainsRune(first, '\t'):
		return '\t'
	}
	return ','
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &LineError{Line: pe.Line, Msg: pe.Err.Error()}
	}
	return &LineError{Msg: err.Error()}
}

func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}
