package pairings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTitles: TRF-16 gives each player's title in columns 11–13 (written
// out or as TRF's codes), CSV in white_title and black_title; a title that
// is none is an error naming where it is.
func TestTitles(t *testing.T) {
	tb := read(t, "swiss.trf")
	p, _ := tb.Get(1, 1)
	if p.WhiteTitle != "IM" || p.BlackTitle != "WFM" {
		t.Errorf("round 1 board 1 (IM – WFM): %q – %q", p.WhiteTitle, p.BlackTitle)
	}
	p, _ = tb.Get(1, 2)
	if p.WhiteTitle != "" || p.BlackTitle != "WGM" {
		t.Errorf("round 1 board 2 (untitled – WGM): %q – %q", p.WhiteTitle, p.BlackTitle)
	}
	csv := "round,board,white,black,white_title,black_title\n1,1,\"Carlsen, Magnus\",\"Ju, Wenjun\",gm,WGM\n1,2,A,B,,wc\n"
	tb, err := Parse([]byte(csv))
	if err != nil {
		t.Fatal(err)
	}
	p1, _ := tb.Get(1, 1)
	p2, _ := tb.Get(1, 2)
	if p1.WhiteTitle != "GM" || p1.BlackTitle != "WGM" || p2.WhiteTitle != "" || p2.BlackTitle != "WCM" {
		t.Errorf("CSV titles: %+v %+v", p1, p2)
	}
	if _, err := Parse([]byte("round,board,white,black,white_title\n1,1,A,B,Dr\n")); err == nil || !strings.Contains(err.Error(), `white_title "Dr"`) {
		t.Errorf("CSV title Dr: %v", err)
	}
	trf := strings.Replace(readString(t, "swiss.trf"), "001    1 m IM", "001    1 m XY", 1)
	if _, err := Parse([]byte(trf)); err == nil || !strings.Contains(err.Error(), `title "XY" (columns 11–13)`) {
		t.Errorf("TRF title XY: %v", err)
	}
}

func readString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
