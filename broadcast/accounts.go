package broadcast

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Accounts of the embedded server when users are configured (see
// [ServerOptions.Users]). Each account is a separate subject space: what
// is published in one reaches another only through an export of the
// first and an import of the second, and a reply to a request that went
// through a service import comes back to the requester's account, never
// anywhere else.
//
//   - daemonAccount holds the streams and the KV buckets; its one user is
//     the daemon. Nobody else publishes there: the other accounts reach it
//     only through the services it exports (requests, a few read-only
//     JetStream API calls), whose replies go back to them.
//   - every organiser, arbiter and relay user has an account of its own
//     ("ORGANISER_<n>", "ARBITER_<n>", "RELAY_<n>", n its place in the
//     list of users) that imports what its role may read (streams of
//     subjects) and the requests it may send (services): what one user
//     publishes or makes the server publish stays in its account.
//   - publicAccount has no import at all: the daemon's public connection
//     publishes the delayed copy there and answers the public PGN
//     request; public users may only read it and send that request.
const (
	daemonAccount = "DGT"
	publicAccount = "PUBLIC"
)

// consumerCreateProxy is the subject the daemon answers consumer
// creations of staff users on (the service they import as
// $JS.API.CONSUMER.CREATE.<stream>…): it forwards a pull consumer to the
// server's JetStream API and refuses a push consumer, whose deliver
// subject would be published on in the daemon's account ([jsProxy]).
const consumerCreateProxy = "_DGTBRIDGE.CONSUMER.CREATE"

// Inbox prefixes. Every role's replies stay in its own account; the
// prefixes name whose replies they are, and a role's permissions allow
// its own and the plain "_INBOX" only.
const (
	// PublicInboxPrefix is the public role's: a public client must use
	// nats.CustomInboxPrefix(PublicInboxPrefix) (the only inbox it may
	// subscribe to).
	PublicInboxPrefix = "_INBOX_public"
	// ArbiterInboxPrefix is the arbiters'.
	ArbiterInboxPrefix = "_INBOX_arbiter"
	// OrganiserInboxPrefix is the organisers'.
	OrganiserInboxPrefix = "_INBOX_organiser"
	// RelayInboxPrefix is the relay devices'.
	RelayInboxPrefix = "_INBOX_relay"
	// DaemonInboxPrefix is the daemon's own connections'.
	DaemonInboxPrefix = "_INBOX_dgtbridge"
)

// inboxPrefix is a role's inbox prefix.
func inboxPrefix(r Role) string {
	switch r {
	case RoleOrganiser:
		return OrganiserInboxPrefix
	case RoleArbiter:
		return ArbiterInboxPrefix
	case RoleRelay:
		return RelayInboxPrefix
	}
	return PublicInboxPrefix
}

// accountOf returns the account of the i-th configured user.
func accountOf(u User, i int) string {
	switch u.Role {
	case RoleOrganiser:
		return "ORGANISER_" + strconv.Itoa(i)
	case RoleArbiter:
		return "ARBITER_" + strconv.Itoa(i)
	case RoleRelay:
		return "RELAY_" + strconv.Itoa(i)
	}
	return publicAccount
}

// roleOfAccount is the role of a user's account (the identity of a request
// that came through a service import); "" for the daemon's and the public
// account.
func roleOfAccount(acc string) Role {
	for _, r := range []Role{RoleOrganiser, RoleArbiter, RoleRelay} {
		if strings.HasPrefix(acc, strings.ToUpper(string(r))+"_") {
			return r
		}
	}
	return ""
}

// confExport and confImport are one export or import in the server's
// configuration language (written as JSON, which it reads).
type confExport struct {
	Stream       string   `json:"stream,omitempty"`
	Service      string   `json:"service,omitempty"`
	ResponseType string   `json:"response_type,omitempty"`
	Accounts     []string `json:"accounts"`
}

type confRef struct {
	Account string `json:"account"`
	Subject string `json:"subject"`
}

type confImport struct {
	Stream  *confRef `json:"stream,omitempty"`
	Service *confRef `json:"service,omitempty"`
	To      string   `json:"to,omitempty"`
	Share   bool     `json:"share,omitempty"`
}

type confAccount struct {
	JetStream string       `json:"jetstream,omitempty"`
	Exports   []confExport `json:"exports,omitempty"`
	Imports   []confImport `json:"imports,omitempty"`
}

// grant is what one account may reach of the daemon's: subjects it
// reads (stream imports), requests it sends (service imports) and streams
// it may read through JetStream.
type grant struct {
	streams  []string
	services []string
	js       []string
}

// roleGrant returns what a user of a role may reach (relay: of its board).
func roleGrant(s Subjects, u User) grant {
	p := s.Prefix
	staffJS := []string{s.gamesStream(), s.publicStream(), "KV_" + s.bucket(), "KV_" + s.StatusBucket()}
	org := grant{
		streams: []string{p + ".game.>", p + ".public.>", p + ".board.>", p + ".relay.>",
			"$KV." + s.bucket() + ".>", "$KV." + s.StatusBucket() + ".>"},
		services: []string{p + ".api.pgn.*.*", p + ".api.pgn.public.*.*", s.boardsSubject(), p + ".api.relay.*.*.*.time"},
		js:       staffJS,
	}
	switch u.Role {
	case RoleOrganiser:
		return org
	case RoleArbiter:
		return grant{
			streams:  append(org.streams, s.alertFeed()),
			services: append(org.services, p+".arbiter.*.*.*.cmd", p+".input.*.*.*.move"),
			js:       append(staffJS, s.alertsStream()),
		}
	case RoleRelay:
		b := strconv.Itoa(u.Board)
		return grant{
			streams:  []string{p + ".relay.*.*." + b + ".announce"},
			services: []string{p + ".api.relay.*.*." + b + ".time"},
		}
	}
	return grant{}
}

// jsAPI is every JetStream API subject the grant imports.
func (g grant) jsAPI() []string {
	if len(g.js) == 0 {
		return nil
	}
	out := []string{"$JS.API.INFO"}
	for _, st := range g.js {
		single, streamed := jsServices(st)
		api, _ := consumerCreateSubjects(st)
		out = append(append(append(out, single...), streamed...), api...)
	}
	return out
}

// jsServices are the JetStream API calls a staff account may make on a
// stream it reads: information, single and batched direct gets, message
// gets, and pull consumers (created through [consumerCreateProxy]); no
// push consumer, nothing that changes a stream. streamed are those with
// several replies to one request.
func jsServices(stream string) (single, streamed []string) {
	single = []string{
		"$JS.API.STREAM.INFO." + stream,
		"$JS.API.STREAM.MSG.GET." + stream,
		"$JS.API.CONSUMER.INFO." + stream + ".*",
		"$JS.API.CONSUMER.DELETE." + stream + ".*",
	}
	streamed = []string{
		"$JS.API.DIRECT.GET." + stream,
		"$JS.API.DIRECT.GET." + stream + ".>",
		"$JS.API.CONSUMER.MSG.NEXT." + stream + ".*",
	}
	return single, streamed
}

// consumerCreateSubjects are the three forms of a consumer creation on a
// stream (no name, a name, a name and a filter subject), and the proxy
// subjects the daemon answers them on.
func consumerCreateSubjects(stream string) (api, proxy []string) {
	for _, tail := range []string{"", ".*", ".*.>"} {
		api = append(api, "$JS.API.CONSUMER.CREATE."+stream+tail)
		proxy = append(proxy, consumerCreateProxy+"."+stream+tail)
	}
	return api, proxy
}

// accountsConfig returns the accounts block of the server's configuration
// for these users (see [daemonAccount]).
func accountsConfig(s Subjects, users []User) (string, error) {
	acc := map[string]*confAccount{
		daemonAccount: {JetStream: "enabled"},
		publicAccount: {},
	}
	type exportKey struct{ stream, service, rt string }
	byExport := map[exportKey][]string{} // export → importing accounts
	var order []exportKey
	export := func(e confExport, to string) {
		k := exportKey{e.Stream, e.Service, e.ResponseType}
		if _, ok := byExport[k]; !ok {
			order = append(order, k)
		}
		byExport[k] = append(byExport[k], to)
	}
	for i, u := range users {
		if u.Role == RolePublic {
			continue
		}
		name, g := accountOf(u, i), roleGrant(s, u)
		a := &confAccount{}
		acc[name] = a
		for _, subj := range g.streams {
			export(confExport{Stream: subj}, name)
			a.Imports = append(a.Imports, confImport{Stream: &confRef{daemonAccount, subj}})
		}
		service := func(subj, to, rt string) {
			export(confExport{Service: subj, ResponseType: rt}, name)
			a.Imports = append(a.Imports, confImport{Service: &confRef{daemonAccount, subj}, To: to, Share: true})
		}
		for _, subj := range g.services {
			service(subj, "", "singleton")
		}
		if len(g.js) > 0 {
			// Importing the account information call shadows the
			// server's own JetStream API in this account (it has none:
			// every call would be answered "not enabled" too).
			service("$JS.API.INFO", "", "singleton")
		}
		for _, st := range g.js {
			single, streamed := jsServices(st)
			for _, subj := range single {
				service(subj, "", "singleton")
			}
			for _, subj := range streamed {
				service(subj, "", "stream")
			}
			api, proxy := consumerCreateSubjects(st)
			for i := range api {
				service(proxy[i], api[i], "singleton")
			}
		}
	}
	for _, k := range order {
		acc[daemonAccount].Exports = append(acc[daemonAccount].Exports,
			confExport{Stream: k.stream, Service: k.service, ResponseType: k.rt, Accounts: byExport[k]})
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the server's parser knows no \u escapes; subjects hold '>'
	if err := enc.Encode(map[string]any{"accounts": acc}); err != nil {
		return "", fmt.Errorf("broadcast: embedded server accounts: %w", err)
	}
	return b.String(), nil
}
