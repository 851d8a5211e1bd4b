// Package web holds the built web pages of the daemon (the spectators' page,
// the arbiters' page and the organisers' hall page), embedded in the binary
// so that no Node.js is needed to run it. The sources are the TypeScript files in src/; dist/ is
// what `npm run build` makes of them from the locked dependencies, and is
// committed (CI rebuilds it and fails when it differs). docs/web.md says
// how the pages work.
package web

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// Files returns the built pages: index.html, arbiter.html, hall.html and
// assets/.
func Files() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded: cannot fail
	}
	return sub
}
