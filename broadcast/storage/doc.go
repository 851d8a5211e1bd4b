// Package storage is the one seam through which the daemon writes to disk:
// the outbox journal (broadcast), the game journal and the game record
// files (hall) open, write, fsync, rename and remove their files
// through an [FS], so a test can make any of those calls fail (ENOSPC,
// EIO, EMFILE) or stall (an fsync that takes seconds) with
// storage/storagetest, and the daemon's answer to a sick disk is tested
// like any other input.
//
// It also holds the frame format both journals share ([AppendFrame],
// [Scan]): each frame is
//
//	u32 length (big endian) | u32 CRC-32C of the body | body
//
// and a reader that, past a damaged stretch, finds the next good frame
// again (a frame whose length fits and whose checksum matches), so one bad
// byte costs the frames it touches, not the rest of the file.
package storage
