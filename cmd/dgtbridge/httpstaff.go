package main

import (
	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
)

// httpStaff returns the users whose HTTP Basic credentials open the staff
// paths of the public HTTP listener (/healthz?detail, /metrics, pprof):
// the organisers and arbiters of nats.embedded.users (the HTTP server
// leaves out every other role).
func httpStaff(cfg *config.Config) []broadcast.User {
	var users []broadcast.User
	for _, u := range cfg.NATS.Embedded.Users {
		users = append(users, broadcast.User{Name: u.User, Password: u.Password, Role: broadcast.Role(u.Role)})
	}
	return users
}
