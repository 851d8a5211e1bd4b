package daemon

import (
	"log/slog"

	"github.com/dgtbridge/dgtbridge/broadcast"
	"github.com/dgtbridge/dgtbridge/config"
	"github.com/dgtbridge/dgtbridge/hall"
	"github.com/dgtbridge/dgtbridge/internal/metrics"
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

// httpServer is the daemon's HTTP: the public listener (PGN, pages) and
// the admin listener (health, metrics, pprof); detail is
// /healthz?detail's report.
func httpServer(cfg *config.Config, pub *broadcast.Publisher, h *hall.Hall, web *broadcast.Web, detail func() broadcast.StatusReport, log *slog.Logger) *broadcast.HTTPServer {
	return broadcast.NewHTTPServer(broadcast.HTTPOptions{Listen: cfg.HTTP.Listen, AdminListen: cfg.HTTP.AdminListen, Staff: httpStaff(cfg),
		Games: pub.Public(), Health: []broadcast.HealthSource{pub, h}, Logger: log.With("part", "http"), Web: web,
		Detail: detail, Metrics: []metrics.Source{pub, h}, Pprof: cfg.HTTP.Pprof})
}
