// Package gamestore keeps the game records on disk: the game journal (an
// append-only log of segment files, every change of every record as it
// happens) and the record files (each game's record as of its last
// compaction, naming the last journal entry it holds). It owns their
// formats and the operations on them: appending entries and making them
// durable ([Journal]), replaying the record files and the journal at open
// ([Open], [Loaded]), writing many record files at once with the directory
// fsynced ([WriteRecordFiles]), and answering damage ([Journal.Repair],
// [SetAside]): a damaged file is set aside as evidence, never read or
// overwritten again.
//
// It decides nothing about when: the hall's storage goroutine (group
// commit, compaction, health, the publisher's hand-off) calls it, and
// tells the log and the arbiters what the store reports. Every call goes
// through a storage.FS, so a test can make the disk fail or stall. The
// store knows the record (hall/gamerecord) and the vocabulary (rules/game),
// nothing of boards, rules or the publisher.
package gamestore
