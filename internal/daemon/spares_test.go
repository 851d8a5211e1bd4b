package daemon

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/serialport"
)

// TestHallSpares: the configuration's spares become the hall's, in order,
// each opening its own device path through the claims the boards share: a
// path a board holds is not opened for a spare.
func TestHallSpares(t *testing.T) {
	cfg := config.Config{Spares: []config.Spare{{ID: "spare-1", Port: "/dev/dgt-test-spare-1"}, {ID: "spare-2", Port: "/dev/dgt-test-spare-2"}}}
	claims := &serialport.Claims{}
	sp := HallSpares(&cfg, claims, slog.New(slog.DiscardHandler))
	if len(sp) != 2 || sp[0].ID != "spare-1" || sp[0].Port != "/dev/dgt-test-spare-1" || sp[1].ID != "spare-2" || sp[0].Open == nil {
		t.Fatalf("spares %+v", sp)
	}
	if !claims.Claim("/dev/dgt-test-spare-1") {
		t.Fatal("claim")
	}
	if _, err := sp[0].Open(context.Background()); !errors.Is(err, serialport.ErrClaimed) {
		t.Errorf("opening a spare whose path is claimed: %v, want ErrClaimed", err)
	}
	if _, err := sp[1].Open(context.Background()); err == nil || errors.Is(err, serialport.ErrClaimed) {
		t.Errorf("opening a spare whose path does not exist: %v, want the open's error", err)
	}
}
