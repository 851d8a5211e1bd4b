package broadcast

import (
	"fmt"

	"github.com/nats-io/nats-server/v2/server"
)

// Role is what a user of the embedded server may see and do.
//
// Each organiser, arbiter and relay user is in an account of its own
// ([daemonAccount] explains them): what it may read or ask comes from the
// daemon's account through imports, so nothing it publishes, and nothing it
// makes the server publish (a reply to one of its requests, a consumer's
// delivery), reaches the daemon's streams, the public account or another
// user. Within its account a user may publish only the requests of its
// role; organisers and arbiters may subscribe to any subject of the prefix
// and the buckets (only what the account imports carries anything;
// organisers are denied <p>.arbiter.> all the same), relays and public
// users only to what they read; each to its role's inbox prefix, and all
// but public users to "_INBOX".
type Role string

// Roles (docs/contract.md §2, nats.embedded.users).
const (
	// RoleOrganiser reads the live games (<p>.game.>), the public copy,
	// board statuses, relay announcements and the KV buckets; asks for the
	// round PGN (live or public), the board list and the talking clock; and
	// reads the GAMES, PUBLIC and KV streams through JetStream (stream
	// information, direct gets, pull consumers).
	RoleOrganiser Role = "organiser"
	// RoleArbiter is an organiser that also reads the alerts (and the
	// ALERTS stream) and sends arbiter commands and operator input.
	RoleArbiter Role = "arbiter"
	// RolePublic subscribes to <p>.public.> with plain (core)
	// subscriptions and requests the delayed round PGN on
	// <p>.api.pgn.public.<event>.<round>. It has no JetStream API access.
	// Its replies come on [PublicInboxPrefix], so its client must be made
	// with nats.CustomInboxPrefix(PublicInboxPrefix).
	RolePublic Role = "public"
	// RoleRelay is a blind player's relay device: it reads the
	// announcements of its own board only (<p>.relay.*.*.<board>.announce,
	// every round) and asks that board's talking clock
	// (<p>.api.relay.*.*.<board>.time); nothing else.
	RoleRelay Role = "relay"
)

// User is one login of the embedded server. Password may be a bcrypt hash
// ("$2a$…", from `nats server passwd` or `dgtbridge passwd`), which the
// server recognises, so the configuration file need not hold the password
// itself.
type User struct {
	Name     string
	Password string
	Role     Role
	// Board is a relay's board number (RoleRelay only).
	Board int
}

// rolePermissions returns the subject permissions of a role's user in its
// account under prefix (see [Role]).
func rolePermissions(s Subjects, u User) (*server.Permissions, error) {
	p := s.Prefix
	inbox := []string{"_INBOX.>", inboxPrefix(u.Role) + ".>"}
	allow := func(pub, sub []string) *server.Permissions {
		return &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: pub},
			Subscribe: &server.SubjectPermission{Allow: sub},
		}
	}
	switch u.Role {
	case RoleOrganiser, RoleArbiter:
		// Any subject of the prefix (only what the account imports
		// carries anything), so that `nats sub '<p>.>'` works; an
		// organiser's alert subjects are denied all the same.
		g := roleGrant(s, u)
		perm := allow(append(g.services, g.jsAPI()...),
			append([]string{p + ".>", "$KV." + s.bucket() + ".>", "$KV." + s.StatusBucket() + ".>"}, inbox...))
		if u.Role == RoleOrganiser {
			perm.Subscribe.Deny = []string{p + ".arbiter.>"}
		}
		return perm, nil
	case RoleRelay:
		if u.Board < 1 {
			return nil, fmt.Errorf("%w: a relay user needs its board (1 or more), got %d", ErrBadRole, u.Board)
		}
		g := roleGrant(s, u)
		return allow(g.services, append(g.streams, inbox...)), nil
	case RolePublic:
		return allow([]string{p + ".api.pgn.public.>"}, []string{p + ".public.>", PublicInboxPrefix + ".>"}), nil
	}
	return nil, fmt.Errorf("%w %q (want organiser, arbiter, relay or public)", ErrBadRole, u.Role)
}
