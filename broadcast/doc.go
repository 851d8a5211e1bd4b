// Package broadcast is the NATS contract of dgtbridge (docs/contract.md §3,
// §5, §6): subjects and payloads, the JetStream streams and KV bucket, message
// ids, the delayed public copy, the durable outbox, PGN over request/reply and
// HTTP, and the embedded nats-server.
//
// # Publishing
//
// A [Publisher] never blocks its callers (the board trackers) on NATS: every
// Publish call appends to a durable outbox journal ([Outbox]) in the data
// directory and returns. [Publisher.Run] owns the NATS connection: it sends
// the journal in order (pipelined, up to [Options.MaxInFlight] messages
// awaiting their JetStream acknowledgement), retries with back-off while NATS
// is unreachable, and trims what was acknowledged. Every message carries a
// Nats-Msg-Id derived from the fact it states ([envelope.MsgID]), so a resend
// after a crash or a lost acknowledgement is dropped by the stream's duplicate
// window instead of duplicating a move.
//
// The wiring publishes a [GameState] after every change of a game (move,
// correction, result): it is the KV value, the source of the PGN feeds, and
// its delayed copy is what the public PGN shows.
//
// # Delayed public copy
//
// Each organiser message on <p>.game.> (and each GameState) is journalled a
// second time for <p>.public.>, due event.public_delay later. The due time is
// stored in the journal, so a restart during the delay neither loses the copy
// nor publishes it early. Alerts, announcements and board status are never
// copied to the public subjects.
//
// # Requests
//
// Every request/reply subject of the daemon (the PGN API, arbiter commands,
// relay time requests, operator input) is served by one [Responder] on the
// publisher's connections. It answers only on inbox reply subjects, so no
// one can make the daemon, which may publish anywhere, write a reply into a
// feed.
//
// # Roles
//
// The embedded server ([StartServer]) knows four roles: organiser (the live
// games, not the alerts), arbiter (alerts and commands too), relay (one
// board's announcements and talking clock) and public (plain subscriptions
// on <p>.public.> and the public PGN request only; no JetStream API at all).
// With users, the streams are in the daemon's own account, every staff user
// is alone in an account that imports what its role may read and ask, and
// public users share the public account, where only the daemon publishes
// ([daemonAccount]). Staff JetStream access is read-only and pull-only
// ([jsProxy]). [Role] gives the exact subject lists.
package broadcast
