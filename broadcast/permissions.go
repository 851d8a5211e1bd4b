package broadcast

import (
	"fmt"

	"github.com/nats-io/nats-server/v2/server"
)

// Role is what a user of the embedded server may see and do.
//
// Organisers and arbiters are in the staff account with the daemon, public
// users in the public account, where only the daemon publishes: that, not
// the subject lists, keeps the live games from public users (a staff user
// can make the server publish on any subject of its account, e.g. with a
// push consumer's deliver subject or a JetStream API request's reply
// subject).
//
// Organiser and arbiter: publish and subscribe on everything except what is
// denied; deny always wins. Denied to both on publish: the daemon's feed
// (<p>.game.>, <p>.public.>, <p>.board.>, <p>.relay.>, the KV subjects of
// <p>_games) and stream administration ($JS.API.STREAM.CREATE/UPDATE/DELETE/
// PURGE/RESTORE/MSG.DELETE/SNAPSHOT), so a stream sourcing or mirroring
// ALERTS cannot be made. Arbiters may not publish alerts (only the daemon
// does). Organisers are also denied <p>.arbiter.> (publish and subscribe),
// operator input (<p>.input.>, an arbiter's), every JetStream API call
// naming the ALERTS stream, and the arbiters' inboxes ([ArbiterInboxPrefix]:
// neither reading their replies nor forging them).
//
// Public: publish only <p>.api.pgn.public.>; subscribe only <p>.public.> and
// [PublicInboxPrefix].>.
type Role string

// Roles (docs/contract.md §2, nats.embedded.users).
const (
	// RoleOrganiser reads everything but arbiter subjects, asks for the live
	// round PGN and may use JetStream to read the GAMES and PUBLIC streams and
	// the KV bucket; it cannot publish on the daemon's feed subjects, nor
	// create, change or delete streams.
	RoleOrganiser Role = "organiser"
	// RoleArbiter reads everything (alerts included) and sends arbiter
	// commands; it cannot publish on the daemon's feed subjects either.
	RoleArbiter Role = "arbiter"
	// RolePublic subscribes to <p>.public.> with plain (core) subscriptions
	// and requests the delayed round PGN on <p>.api.pgn.public.<event>.<round>.
	// It has no JetStream API access: history is the public PGN (request or
	// HTTP). Its replies come on [PublicInboxPrefix], so its client must be
	// made with nats.CustomInboxPrefix(PublicInboxPrefix).
	RolePublic Role = "public"
)

// Inbox prefixes of the restricted roles. A public client must use
// nats.CustomInboxPrefix(PublicInboxPrefix); an arbiter client should use
// nats.CustomInboxPrefix(ArbiterInboxPrefix) so organisers (who may subscribe
// to _INBOX.>) cannot read replies meant for arbiters.
const (
	PublicInboxPrefix  = "_INBOX_public"
	ArbiterInboxPrefix = "_INBOX_arbiter"
)

// User is one login of the embedded server. Password may be a bcrypt hash
// ("$2a$…", e.g. from `nats server passwd`), which the server recognises, so
// the configuration file need not hold the password itself.
type User struct {
	Name     string
	Password string
	Role     Role
}

// rolePermissions returns the subject permissions of a role under prefix
// (see [Role]); the daemon's own users have none: they may do everything in
// their account.
func rolePermissions(prefix string, role Role) (*server.Permissions, error) {
	s, err := NewSubjects(prefix)
	if err != nil {
		return nil, err
	}
	p := s.Prefix
	alerts := s.alertsStream()
	feedDeny := []string{
		p + ".game.>", p + ".public.>", p + ".board.>", p + ".relay.>",
		"$KV." + s.bucket() + ".>", "$KV." + s.StatusBucket() + ".>",
		"$JS.API.STREAM.CREATE.>", "$JS.API.STREAM.UPDATE.>", "$JS.API.STREAM.DELETE.>",
		"$JS.API.STREAM.PURGE.>", "$JS.API.STREAM.RESTORE.>", "$JS.API.STREAM.MSG.DELETE.>",
		"$JS.API.STREAM.SNAPSHOT.>",
	}
	switch role {
	case RoleOrganiser:
		alertAPI := []string{
			"$JS.API.*.*." + alerts, "$JS.API.*.*." + alerts + ".>",
			"$JS.API.*.*.*." + alerts, "$JS.API.*.*.*." + alerts + ".>",
		}
		return &server.Permissions{
			Publish: &server.SubjectPermission{
				Allow: []string{">"},
				Deny: append(append(append([]string{}, feedDeny...), p+".arbiter.>", p+".input.>", ArbiterInboxPrefix+".>"),
					alertAPI...),
			},
			Subscribe: &server.SubjectPermission{
				Allow: []string{">"},
				Deny:  []string{p + ".arbiter.>", ArbiterInboxPrefix + ".>"},
			},
		}, nil
	case RoleArbiter:
		return &server.Permissions{
			Publish: &server.SubjectPermission{
				Allow: []string{">"},
				Deny:  append(append([]string{}, feedDeny...), s.alertFeed()),
			},
			Subscribe: &server.SubjectPermission{Allow: []string{">"}},
		}, nil
	case RolePublic:
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: []string{p + ".api.pgn.public.>"}},
			Subscribe: &server.SubjectPermission{Allow: []string{p + ".public.>", PublicInboxPrefix + ".>"}},
		}, nil
	}
	return nil, fmt.Errorf("%w %q (want organiser, arbiter or public)", ErrBadRole, role)
}
