package status

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/rules/game"
	"github.com/nats-io/nats.go"
)

// TestReadAsStaffUser: on the embedded server with users, an organiser and
// an arbiter (the users "dgtbridge status" signs in as) read the status
// bucket the daemon wrote: its keys through a pull consumer (a push
// consumer is refused to them), its values through direct gets; a public
// user may not.
func TestReadAsStaffUser(t *testing.T) {
	srv, err := broadcast.StartServer(broadcast.ServerOptions{Prefix: "dgt", StoreDir: t.TempDir(), Users: []broadcast.User{
		{Name: "hall", Password: "hall-pw", Role: broadcast.RoleOrganiser},
		{Name: "arb", Password: "arb-pw", Role: broadcast.RoleArbiter},
		{Name: "viewer", Password: "viewer-pw", Role: broadcast.RolePublic},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	daemon, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer daemon.Close()
	subj, _ := broadcast.NewSubjects("dgt")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	kv, err := createBucket(ctx, daemon, subj, 1)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := json.Marshal(broadcast.DaemonReport{Boards: []string{"b1", "b2"}, UpdatedAt: game.T(time.Now())})
	b1, _ := json.Marshal(broadcast.BoardReport{BoardID: "b1", Connected: true})
	for k, v := range map[string][]byte{broadcast.DaemonKey + ".hallpc": d, "b1": b1, "gone": b1} {
		if _, err := kv.Put(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := kv.Delete(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct{ name, pw string }{{"hall", "hall-pw"}, {"arb", "arb-pw"}} {
		nc, err := nats.Connect("", nats.InProcessServer(srv.NATS()), nats.UserInfo(u.name, u.pw))
		if err != nil {
			t.Fatal(err)
		}
		rep, boards, err := Read(ctx, nc, subj)
		nc.Close()
		if err != nil {
			t.Errorf("%s: %v", u.name, err)
			continue
		}
		if len(rep.Boards) != 2 || len(boards) != 2 || !boards[0].Connected || boards[1].Error != "no report yet" {
			t.Errorf("%s read %+v %+v", u.name, rep, boards)
		}
	}
	nc, err := nats.Connect("", nats.InProcessServer(srv.NATS()), nats.UserInfo("viewer", "viewer-pw"), nats.CustomInboxPrefix(broadcast.PublicInboxPrefix))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	sctx, scancel := context.WithTimeout(ctx, 2*time.Second)
	defer scancel()
	if _, _, err := Read(sctx, nc, subj); err == nil {
		t.Error("a public user read the status bucket")
	}
}
