package broadcast

import (
	"encoding/json"
	"net/http"
	"strings"
)

// healthDetail answers GET /healthz?detail: the status code of /healthz
// (200 or 503) and a HealthDetail: the problems (each line of the plain
// answer) and every configured board as "dgtbridge status" shows it.
func (h *HTTPServer) healthDetail(w http.ResponseWriter, bad []string) {
	d := HealthDetail{Healthy: len(bad) == 0, Problems: []string{}, StatusReport: h.o.Detail()}
	for _, b := range bad {
		d.Problems = append(d.Problems, strings.Split(b, "\n")...)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if !d.Healthy {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		h.log.Warn("healthz detail not sent", "err", err)
	}
}
