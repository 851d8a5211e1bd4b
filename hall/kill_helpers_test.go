package hall

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dgtbridge/dgtbridge/broadcast/storage/storagetest"
	"github.com/dgtbridge/dgtbridge/dgt/emu"
	"github.com/dgtbridge/dgtbridge/rules/game"
)

// killable is a simulated hall (simHall) whose data folder can be left at
// any instant as a SIGKILL leaves it: every byte written before the kill
// is in the files (the kernel has it, fsynced or not), nothing after. The
// hall writes through a storagetest.FS; kill makes every later write of
// it fail, then stops the hall, whose goroutines can then change nothing
// on disk (what they do on the way out is what a killed process never
// does).
type killable struct {
	*simHall
	fs *storagetest.FS
}

// startKillable starts a hall as startSim does, writing through a file
// system the kill freezes.
func startKillable(t testing.TB, dir string, o Options) *killable {
	t.Helper()
	fs := storagetest.New(nil)
	o.FS = fs
	o.DrainTimeout = time.Millisecond // a killed hall drains nothing
	return &killable{simHall: startSim(t, dir, o), fs: fs}
}

// allOps are the file system's write calls.
var allOps = []storagetest.Op{storagetest.Open, storagetest.Write, storagetest.Sync, storagetest.SyncDir,
	storagetest.Rename, storagetest.Remove, storagetest.Truncate, storagetest.Mkdir}

// kill freezes the data folder and stops the hall without a drain.
func (k *killable) kill() {
	for _, op := range allOps {
		k.fs.Fail(op, "", syscall.EIO)
	}
	k.fs.Heal(storagetest.Sync) // releases a stalled fsync (its bytes are written already)
	k.fs.Fail(storagetest.Sync, "", syscall.EIO)
	if k.cancel == nil {
		return
	}
	k.cancel()
	k.cancel = nil
	<-k.done // its error (writes failing on the way out) is the kill's
	k.p.Close()
}

// unheardDevs lets devs (boards or bus lines) run together for d with
// nobody reading their ports (the daemon is dead): what they send is
// lost.
func unheardDevs(devs []emu.Device, d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		for _, dev := range devs {
			dev.Advance(time.Now())
			dev.Output()
		}
	}
}

// killVerdict is what became of a game's moves after a kill and a
// restart: the plies in the record that are the game's (rebuilt: made
// while the daemon was dead or pending at the kill, and recorded after
// the restart), the plies missing or wrong with a moves_missing alert at
// or before the first of them (alerted), and those without (silent).
type killVerdict struct {
	kept, rebuilt, alerted, silent int
	detail                         string
}

// judgeKill compares the record after the restart with the game played
// (line), the record's plies before the kill being before, and the
// restarted hall's moves_missing alerts.
func judgeKill(line []string, before int, got []string, obs []Observation, g game.ID) killVerdict {
	var v killVerdict
	agree := 0
	for agree < len(line) && agree < len(got) && got[agree] == line[agree] {
		agree++
	}
	v.kept = min(before, agree)
	v.rebuilt = max(0, agree-before)
	wrong := len(line) - agree
	if wrong == 0 && len(got) == len(line) {
		return v
	}
	from := -1
	for _, ob := range obs {
		if al, ok := ob.Payload.(game.Alert); ok && al.Game == g && al.Kind == game.KindMovesMissing && al.Ply <= agree {
			from = al.Ply
			break
		}
	}
	if from >= 0 {
		v.alerted = wrong
	} else {
		v.silent = wrong
	}
	v.detail = fmt.Sprintf("record agrees for %d of %d plies (%d before the kill)\n got %s\nwant %s",
		agree, len(line), before, strings.Join(got, " "), strings.Join(line, " "))
	return v
}

// alertLines lists the alerts of game g observed, one a line.
func alertLines(obs []Observation, g game.ID) string {
	var b strings.Builder
	for _, ob := range obs {
		if al, ok := ob.Payload.(game.Alert); ok && al.Game == g {
			fmt.Fprintf(&b, "\n  alert %s/%s ply %d: %s", al.Kind, al.Severity, al.Ply, al.Message)
		}
	}
	return b.String()
}
